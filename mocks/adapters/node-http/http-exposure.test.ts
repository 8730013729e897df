// The standalone server as an attacker meets it: foreign pages, DNS rebinding, a network bind, repeated headers, and
// clients that upload a large body before reading the answer.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../core/request/auth.ts';
import { createFixedClock } from '../../domain/clock.ts';
import { startMockServer, type RunningMockServer } from './http-server.ts';
import { exposureWarning } from '../../http/exposure.ts';
import { silentLogger } from '../../domain/logger.ts';

let server: RunningMockServer;
let token: string;
const AGENT = 'agt_WCC01FaiMscDbRzp';
const EVIL = 'https://evil.example';

interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with node:http, which (unlike fetch) lets a test set Host. */
function send(
  target: RunningMockServer,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port: target.port, method, path, headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const problemType = (exchange: Exchange): string => (JSON.parse(exchange.body) as { type: string }).type;

/** Writes `head` and `body` on a raw socket, all of it before reading a byte, then returns everything it then reads. */
function writeAllThenRead(port: number, head: string, body: Buffer): Promise<{ written: boolean; received: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let written = false;
    socket.on('error', () => {});
    socket.pause();
    socket.write(head);
    socket.write(body, (error) => {
      written = error === undefined || error === null;
      // Only now, like Python's http.client, does the client start reading.
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.resume();
    });
    socket.on('close', () => resolve({ written, received: Buffer.concat(chunks).toString('latin1') }));
  });
}

beforeAll(async () => {
  server = await startMockServer({
    port: 0,
    seed: 42,
    clock: createFixedClock(Date.parse('2026-11-20T12:00:00.000Z')),
    logger: silentLogger,
    allowedHosts: ['fake.internal', '.example.test'],
  });
  token = await mintToken({ sub: 'tester' });
});
afterAll(async () => {
  await server.close();
});

describe('Host check (DNS rebinding)', () => {
  const cases: [string, number][] = [
    ['localhost:4010', 200],
    ['localhost', 200],
    ['127.0.0.1', 200],
    ['127.8.9.10:80', 200],
    ['[::1]:4010', 200],
    ['app.localhost:5173', 200],
    ['fake.internal:4010', 200],
    ['example.test', 200],
    ['api.example.test', 200],
    ['evil.example', 403],
    ['evil.example:4010', 403],
    ['localhost.evil.example', 403],
    ['192.168.1.5:4010', 403],
    ['0.0.0.0:4010', 403],
    ['fake.internal.evil.example', 403],
    ['notexample.test', 403],
  ];
  it.each(cases)('Host %s → %i, on /v1 and on the control plane', async (host, want) => {
    const api = await send(server, 'GET', `/v1/agents/${AGENT}`, { host, authorization: `Bearer ${token}` });
    const control = await send(server, 'GET', '/__mock/health', { host });
    expect([api.status, control.status]).toEqual([want, want]);
    if (want === 403) {
      expect(problemType(control)).toBe('https://agent-registry.dev/problems/forbidden-host');
      expect(api.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(api.body)).toMatchObject({ status: 403, title: 'Host not allowed' });
    }
  });

  it('refuses a rebinding POST before it touches the store', async () => {
    const deployed = await send(
      server,
      'POST',
      '/v1/agents/deploy',
      { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      JSON.stringify({ name: 'keep me', category: 'defi', model: 'gpt-4', initialSupply: 1 }),
    );
    const reset = await send(server, 'POST', '/__mock/reset', { host: 'rebound.evil.example' });
    expect(reset.status).toBe(403);
    const agentId = (JSON.parse(deployed.body) as { agentId: string }).agentId;
    expect((await send(server, 'GET', `/v1/agents/${agentId}`, { authorization: `Bearer ${token}` })).status).toBe(200);
  });
});

describe('the control plane refuses other sites', () => {
  it('a "simple" text/plain POST /__mock/reset from a foreign Origin → 403, and nothing is reset', async () => {
    const deployed = await send(
      server,
      'POST',
      '/v1/agents/deploy',
      { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      JSON.stringify({ name: 'survivor', category: 'defi', model: 'gpt-4', initialSupply: 1 }),
    );
    const agentId = (JSON.parse(deployed.body) as { agentId: string }).agentId;
    const reset = await send(server, 'POST', '/__mock/reset', { origin: EVIL, 'content-type': 'text/plain' }, '{}');
    expect(reset.status).toBe(403);
    expect(problemType(reset)).toBe('https://agent-registry.dev/problems/forbidden-origin');
    expect(reset.headers['access-control-allow-origin']).toBeUndefined();
    expect((await send(server, 'GET', `/v1/agents/${agentId}`, { authorization: `Bearer ${token}` })).status).toBe(200);
  });

  const foreign: [string, string, string, Record<string, string>][] = [
    ['the journal read from a foreign Origin', 'GET', '/__mock/journal', { origin: EVIL }],
    ['the journal read with Origin null (sandboxed frame, file://)', 'GET', '/__mock/journal', { origin: 'null' }],
    [
      'the journal read by a no-cors request (no Origin, Sec-Fetch-Site: cross-site)',
      'GET',
      '/__mock/journal',
      { 'sec-fetch-site': 'cross-site' },
    ],
    ['a scenario change from a foreign Origin', 'PUT', '/__mock/scenarios', { origin: EVIL }],
    ['a clock advance from a foreign Origin', 'POST', '/__mock/clock/advance', { origin: EVIL }],
    ['a journal clear without Origin but cross-site', 'DELETE', '/__mock/journal', { 'sec-fetch-site': 'cross-site' }],
    [
      'a preflight of PUT /__mock/scenarios from a foreign Origin',
      'OPTIONS',
      '/__mock/scenarios',
      { origin: EVIL, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
    ],
  ];
  it.each(foreign)('%s → 403 with no CORS header', async (_name, method, path, headers) => {
    const answer = await send(server, method, path, headers);
    expect(answer.status).toBe(403);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.body).not.toContain('survivor');
  });

  const local: [string, Record<string, string>][] = [
    ['no Origin (curl, tests)', {}],
    ['a page on localhost', { origin: 'http://localhost:5173' }],
    ['a page on 127.0.0.1', { origin: 'http://127.0.0.1:4173' }],
    ['a page on [::1]', { origin: 'http://[::1]:3000' }],
    ['a page on *.localhost', { origin: 'https://app.localhost' }],
    ['same-site fetch metadata', { 'sec-fetch-site': 'same-origin' }],
  ];
  it.each(local)('%s may read the journal', async (_name, headers) => {
    const answer = await send(server, 'GET', '/__mock/journal?limit=1', headers);
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(headers.origin);
  });

  it('a local page gets its preflight of PUT /__mock/scenarios answered, with the control-token header allowed', async () => {
    const answer = await send(server, 'OPTIONS', '/__mock/scenarios', {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'PUT',
    });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(answer.headers['access-control-allow-headers']).toMatch(/X-Mock-Control-Token/);
  });

  it('/v1 keeps its permissive default: any origin gets CORS headers there', async () => {
    const answer = await send(server, 'GET', `/v1/agents/${AGENT}`, {
      origin: EVIL,
      authorization: `Bearer ${token}`,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(EVIL);
  });

  it('an origin listed with --cors-origin may use the control plane; "*" does not extend to it', async () => {
    const listed = await startMockServer({
      port: 0,
      logger: silentLogger,
      corsOrigins: ['https://app.example'],
    });
    try {
      const answer = await send(listed, 'GET', '/__mock/journal', { origin: 'https://app.example' });
      expect(answer.status).toBe(200);
      expect(answer.headers['access-control-allow-origin']).toBe('https://app.example');
      expect((await send(listed, 'GET', '/__mock/journal', { origin: EVIL })).status).toBe(403);
    } finally {
      await listed.close();
    }
  });
});

describe('control token', () => {
  let guarded: RunningMockServer;
  beforeAll(async () => {
    guarded = await startMockServer({ port: 0, logger: silentLogger, controlToken: 'c0ntrol-s3cret' });
  });
  afterAll(async () => {
    await guarded.close();
  });

  const cases: [string, Record<string, string>, number][] = [
    ['no token', {}, 403],
    ['a wrong token', { 'x-mock-control-token': 'guess' }, 403],
    ['a token that is a prefix of the right one', { 'x-mock-control-token': 'c0ntrol' }, 403],
    ['the token as a Bearer (the wrong header)', { authorization: 'Bearer c0ntrol-s3cret' }, 403],
    ['the right token', { 'x-mock-control-token': 'c0ntrol-s3cret' }, 200],
  ];
  it.each(cases)('%s → %i', async (_name, headers, want) => {
    const answer = await send(guarded, 'POST', '/__mock/reset', headers);
    expect(answer.status).toBe(want);
    if (want === 403) expect(problemType(answer)).toBe('https://agent-registry.dev/problems/control-token');
  });

  it('leaves /v1 and preflights alone', async () => {
    expect((await send(guarded, 'GET', `/v1/agents/${AGENT}`, { authorization: `Bearer ${token}` })).status).toBe(200);
    const preflight = await send(guarded, 'OPTIONS', '/__mock/reset', {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'x-mock-control-token',
    });
    expect(preflight.status).toBe(204);
  });
});

describe('binding a non-loopback address', () => {
  it('is refused without a control token or an explicit opt-out, before anything listens', async () => {
    await expect(startMockServer({ port: 0, host: '0.0.0.0', logger: silentLogger })).rejects.toThrow(
      /--control-token.*--unsafe-open-control-plane/,
    );
  });

  it.each([
    ['0.0.0.0', { controlToken: 't' }, /exposes the fake to the network.*needs the token in x-mock-control-token/],
    ['::', { unsafeOpenControlPlane: true }, /exposes the fake to the network.*control plane \(\/__mock\/\) is OPEN/],
    ['192.168.1.5', { controlToken: 't' }, /MOCK_JWT_SECRET/],
  ] as const)('%s with %o warns: %s', (host, options, want) => {
    expect(exposureWarning(host, options)).toMatch(want);
  });

  it.each(['127.0.0.1', '127.0.0.2', '::1', 'localhost'])('%s is loopback: no warning, no token needed', (host) => {
    expect(exposureWarning(host, {})).toBeUndefined();
  });
});

describe('headers that must come once', () => {
  const raw = (head: string): Promise<string> =>
    new Promise((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write(head));
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', () => resolve(received));
    });

  it('two Authorization headers → 400 (node would silently keep the first)', async () => {
    const answer = await raw(
      `GET /v1/agents/${AGENT} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nAuthorization: Bearer other\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('more than one Authorization header');
  });

  it('two Host headers → 400, even when both are allowed', async () => {
    const answer = await raw(
      'GET /__mock/health HTTP/1.1\r\nHost: localhost\r\nhost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('more than one Host header');
  });
});

describe('Content-Encoding', () => {
  const deploy = JSON.stringify({ name: 'Zip', category: 'defi', model: 'gpt-4', initialSupply: 1 });
  const cases: [string, string, string | Buffer, number][] = [
    ['a gzip body labelled gzip', 'gzip', gzipSync(deploy), 415],
    ['a plain body labelled gzip', 'gzip', deploy, 415],
    ['br', 'br', deploy, 415],
    ['two codings', 'identity, gzip', deploy, 415],
    ['identity', 'identity', deploy, 201],
  ];
  it.each(cases)('%s → %i', async (_name, encoding, body, want) => {
    const answer = await send(
      server,
      'POST',
      '/v1/agents/deploy',
      { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': encoding },
      body,
    );
    expect(answer.status).toBe(want);
    if (want === 415) {
      expect(problemType(answer)).toBe('https://agent-registry.dev/problems/unsupported-encoding');
      expect(answer.headers['accept-encoding']).toBe('identity');
    }
  });
});

describe('a large body from a client that writes it all before reading', () => {
  const head = (length: number, extra = ''): string =>
    `POST /v1/agents/deploy HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;

  it.each([2, 4, 6, 8])('%i MiB: the client reads the 413 instead of a broken pipe (lingering close)', async (mib) => {
    const body = Buffer.alloc(mib * 1_048_576, 0x20);
    const { written, received } = await writeAllThenRead(server.port, head(body.length), body);
    expect(written).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received.toLowerCase()).toContain('connection: close');
  });

  it('Expect: 100-continue with a too-large Content-Length → 413 at once, no 100, body never needed', async () => {
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write(head(5_000_000, 'Expect: 100-continue\r\n')));
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString();
        if (received.includes('\r\n\r\n{') && received.endsWith('}')) socket.end();
      });
      socket.on('close', () => resolve(received));
      socket.on('error', () => resolve(received));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).not.toContain('100 Continue');
  });

  it('Expect: 100-continue with an acceptable body → 100 Continue, then the answer', async () => {
    const body = JSON.stringify({ name: 'Patient', category: 'defi', model: 'gpt-4', initialSupply: 1 });
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () =>
        socket.write(head(Buffer.byteLength(body), 'Expect: 100-continue\r\nConnection: close\r\n')),
      );
      let received = '';
      socket.on('data', (chunk) => {
        if (received === '' && chunk.toString().startsWith('HTTP/1.1 100 Continue')) socket.write(body);
        received += chunk.toString();
      });
      socket.on('close', () => resolve(received));
      socket.on('error', () => resolve(received));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
  });
});

describe('/v1/agents/deploy and HEAD', () => {
  it.each(['GET', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'])(
    '%s /v1/agents/deploy → 405, Allow: POST',
    async (method) => {
      const answer = await send(server, method, '/v1/agents/deploy', { authorization: `Bearer ${token}` });
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('POST');
    },
  );

  it('HEAD /v1/agents/{agentId} is answered as GET, without a body', async () => {
    const get = await send(server, 'GET', `/v1/agents/${AGENT}`, { authorization: `Bearer ${token}` });
    const head = await send(server, 'HEAD', `/v1/agents/${AGENT}`, { authorization: `Bearer ${token}` });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)));
    expect((await send(server, 'HEAD', '/v1/agents/agt_unknown', { authorization: `Bearer ${token}` })).status).toBe(
      404,
    );
  });
});
