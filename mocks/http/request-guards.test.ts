// Each guard of the node:http listener alone, on exchanges built by hand (no sockets).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  controlTokenGuard,
  type Exchange,
  hostGuard,
  MAX_URL_LENGTH,
  originFormGuard,
  urlLengthGuard,
} from './request-guards.ts';

function exchange(path: string, headers: Record<string, string> = {}, method = 'GET'): Exchange {
  return {
    req: { method } as IncomingMessage,
    res: {} as ServerResponse,
    expectsContinue: false,
    target: path,
    path,
    query: '',
    headers,
  };
}

describe('request guards', () => {
  it('urlLengthGuard: 414 just past the limit, nothing at it', () => {
    expect(urlLengthGuard(exchange(`/${'a'.repeat(MAX_URL_LENGTH - 1)}`))).toBeUndefined();
    expect(urlLengthGuard(exchange(`/${'a'.repeat(MAX_URL_LENGTH)}`))?.status).toBe(414);
  });

  it('hostGuard: loopback and allowed names pass, every other Host is refused, however often a good one came first', () => {
    const guard = hostGuard(['fake.internal']);
    for (let round = 0; round < 3; round += 1) {
      expect(guard(exchange('/v1/agents', { host: '127.0.0.1:4010' }))).toBeUndefined();
      expect(guard(exchange('/v1/agents', { host: 'fake.internal:4010' }))).toBeUndefined();
      expect(guard(exchange('/v1/agents', { host: 'evil.example:4010' }))?.status).toBe(403);
      expect(guard(exchange('/v1/agents', { host: '127.0.0.1.evil.example' }))?.status).toBe(403);
    }
    // Far more accepted Host values than it remembers: each is still judged on its own.
    for (let index = 0; index < 200; index += 1)
      expect(guard(exchange('/', { host: `127.0.0.${index}:${index}` }))).toBeUndefined();
    expect(guard(exchange('/', { host: 'evil.example' }))?.status).toBe(403);
    // No Host passes this guard; a repeated one is the core's 400, whichever value comes first.
    expect(guard(exchange('/'))).toBeUndefined();
    expect(guard(exchange('/', { host: 'evil.example, 127.0.0.1' }))?.status).toBe(400);
    expect(guard(exchange('/', { host: '127.0.0.1,evil.example' }))?.status).toBe(400);
    expect(guard(exchange('/', { host: 'evil.example,localhost' }))?.status).toBe(400);
  });

  it('originFormGuard: a path passes; an absolute URL, an authority or * is a 400', () => {
    expect(originFormGuard(exchange('/v1/agents?x=1'))).toBeUndefined();
    for (const target of ['http://evil.example/v1/agents', 'HTTPS://127.0.0.1/v1/agents', 'evil.example:443', '*'])
      expect(originFormGuard(exchange(target))?.status).toBe(400);
  });

  it('controlTokenGuard: only the control plane needs the token; a CORS preflight does not', () => {
    const guard = controlTokenGuard('s3cret');
    expect(guard(exchange('/v1/agents'))).toBeUndefined();
    expect(guard(exchange('/__mock/health'))?.status).toBe(403);
    expect(guard(exchange('/__mock'))?.status).toBe(403);
    expect(guard(exchange('/__mock/health', { 'x-mock-control-token': 'wrong' }))?.status).toBe(403);
    expect(guard(exchange('/__mock/health', { 'x-mock-control-token': 's3cret' }))).toBeUndefined();
    expect(guard(exchange('/__mock/reset', { 'access-control-request-method': 'POST' }, 'OPTIONS'))).toBeUndefined();
  });
});
