// The one HTTP client sends a request's header and cookie parameters, never lets one replace a header it sets itself
// (the credentials, the media types, Host), and records them through the redactor. An in-process server on loopback.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRequest, type OutgoingRequest } from './http-exchange.ts';
import { createRedactor, redactedMark } from './redaction.ts';

const token = 'tok_4f/Zq+9x/Lm0pQ==';
const redact = createRedactor(token);
let server: Server;
let baseUrl = '';
let seen: IncomingHttpHeaders = {};

beforeAll(async () => {
  server = createServer((request, response) => {
    seen = request.headers;
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const request = (headers: OutgoingRequest['headers']): OutgoingRequest => ({
  operationId: 'getAgent',
  method: 'GET',
  path: '/v1/agents/agt_1',
  authorization: { value: `Bearer ${token}`, label: 'Bearer <the token>' },
  contentType: undefined,
  body: undefined,
  headers,
});

describe('sendRequest with parameter headers', () => {
  it('sends header and cookie parameters as given', async () => {
    const { response, record } = await sendRequest(
      baseUrl,
      5000,
      redact,
      request({ 'X-Trace': 'abc', cookie: 'a=1; b=2' }),
    );
    expect(response?.status).toBe(200);
    expect(seen['x-trace']).toBe('abc');
    expect(seen.cookie).toBe('a=1; b=2');
    expect(record.request.headers).toMatchObject({ 'x-trace': 'abc', cookie: 'a=1; b=2' });
  });

  it('never lets a parameter replace the credentials, the media types or the Host', async () => {
    const { record } = await sendRequest(
      baseUrl,
      5000,
      redact,
      request({ Authorization: 'Bearer other', 'Content-Type': 'text/plain', Accept: 'text/html', Host: 'evil.test' }),
    );
    expect(seen.authorization).toBe(`Bearer ${token}`);
    expect(seen['content-type']).toBeUndefined();
    expect(seen.accept).toBe('application/json, application/problem+json');
    expect(seen.host).toBe(new URL(baseUrl).host);
    expect(record.request.headers).toEqual({ authorization: 'Bearer <the token>' });
  });

  it('records a parameter header through the redactor, and leaves out one HTTP cannot carry', async () => {
    const { record, response } = await sendRequest(
      baseUrl,
      5000,
      redact,
      request({ 'x-echo': `prefix ${token}`, 'x-broken': 'line\nbreak' }),
    );
    expect(response?.status).toBe(200);
    expect(JSON.stringify(record)).not.toContain(token);
    expect(record.request.headers['x-echo']).toBe(`prefix ${redactedMark}`);
    expect(seen['x-broken']).toBeUndefined();
    expect(record.request.headers['x-broken']).toMatch(/left out/);
  });
});
