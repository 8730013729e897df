// Requests the proxy must refuse before anything reaches the upstream, written on a raw socket because fetch and node's
// client never send them: an absolute-form target naming another host, a Host header holding two values. The fake's
// server answers each the same way, through the same guards. And what of a request the proxy keeps to itself: its own
// credentials are never forwarded, and no credential of either side is recorded.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/adapters/node-http/http-server.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';
import { startProxyServer, type RunningProxy } from '../../proxy/proxy-server.ts';
import { RecordingWriter } from '../../proxy/recording.ts';
import { createUpstream } from '../../proxy/upstream.ts';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.ts';

let upstream: FixtureServer;
const reached: string[] = [];
const reachedHeaders: IncomingHttpHeaders[] = [];
let proxy: RunningProxy;
let fake: RunningMockServer;
let work: string;
let recording: RecordingWriter;

/** Credentials each side sends; none may appear in the recording. */
const SECRETS = {
  apiKey: 'app-api-key-0123456789',
  authToken: 'app-auth-token-0123456789',
  controlToken: 'proxy-control-token-0123456789',
  proxyAuthorization: 'cHJveHktdXNlcjpwcm94eS1wYXNz',
  query: 'query-api-key-0123456789',
  upstreamKey: 'upstream-api-key-0123456789',
  challenge: 'upstream-negotiate-token-0123456789',
  challengeParameter: 'upstream-challenge-param-0123456789',
};

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'agent-registry-kit-proxy-guards-'));
  upstream = await startFixtureServer((req, res) => {
    reached.push(`${req.method} ${req.url} host=${req.headers.host}`);
    reachedHeaders.push(req.headers);
    if (req.url?.startsWith('/v1/agents/agt_credentials')) {
      res.writeHead(401, {
        'content-type': 'application/problem+json',
        'x-api-key': SECRETS.upstreamKey,
        'www-authenticate': `Bearer realm="agents", error="invalid_token", token="${SECRETS.challengeParameter}", Negotiate ${SECRETS.challenge}`,
      });
      res.end('{"type":"about:blank","title":"Unauthorized","status":401}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  recording = new RecordingWriter(join(work, 'recording.json'), upstream.url);
  proxy = await startProxyServer({ upstream: createUpstream(upstream.url), port: 0, logger: silentLogger, recording });
  fake = await startMockServer({ port: 0, logger: silentLogger });
});

afterAll(async () => {
  await proxy.close();
  await fake.close();
  await upstream.close();
  await rm(work, { recursive: true, force: true });
});

/** Sends `head` as the whole request on one connection; resolves to the status line's code and the body. */
function raw(port: number, head: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\nConnection: close\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer (hang guard)')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headText = '', body = ''] = text.split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
        type: /\r\ncontent-type: ([^\r]*)/i.exec(headText)?.[1] ?? '',
        body,
      });
    });
  });
}

describe('the proxy and the fake refuse, and the proxy never forwards', () => {
  const cases = [
    {
      name: 'an absolute-form target naming another host',
      head: 'GET http://evil.example/v1/agents/agt_1 HTTP/1.1\r\nHost: 127.0.0.1',
    },
    {
      name: 'an absolute-form target naming the proxy itself',
      head: 'GET http://127.0.0.1/v1/agents/agt_1 HTTP/1.1\r\nHost: 127.0.0.1',
    },
    {
      name: 'a Host with two values, the foreign one first',
      head: 'GET /v1/agents/agt_1 HTTP/1.1\r\nHost: evil.example,localhost',
    },
    {
      name: 'a Host with two values, the loopback one first',
      head: 'GET /v1/agents/agt_1 HTTP/1.1\r\nHost: localhost, evil.example',
    },
    {
      name: 'a Host with two values on the control plane',
      head: 'GET /__mock/health HTTP/1.1\r\nHost: evil.example,localhost',
    },
    { name: 'two Host headers', head: 'GET /v1/agents/agt_1 HTTP/1.1\r\nHost: evil.example\r\nHost: localhost' },
  ];

  for (const { name, head } of cases)
    it(`${name}: 400 problem+json`, async () => {
      const before = reached.length;
      for (const port of [proxy.port, fake.port]) {
        const answer = await raw(port, head);
        expect(answer.status).toBe(400);
        expect(answer.type).toBe('application/problem+json');
        expect(JSON.parse(answer.body)).toMatchObject({ status: 400 });
      }
      expect(reached.slice(before)).toEqual([]);
    });

  it('a request in origin-form with one loopback Host is still forwarded (the cases above fail for their reason)', async () => {
    const before = reached.length;
    const answer = await raw(proxy.port, 'GET /v1/agents/agt_1 HTTP/1.1\r\nHost: localhost');
    expect(answer.status).toBe(200);
    expect(reached.slice(before)).toEqual([`GET /v1/agents/agt_1 host=${new URL(upstream.url).host}`]);
  });
});

describe('credentials through the proxy', () => {
  it("the proxy's own (Proxy-Authorization, X-Mock-Control-Token) are not forwarded; none of either side is recorded", async () => {
    const before = reachedHeaders.length;
    const answer = await fetch(`${proxy.url}/v1/agents/agt_credentials?api_key=${SECRETS.query}&limit=2`, {
      headers: {
        'x-api-key': SECRETS.apiKey,
        'x-auth-token': SECRETS.authToken,
        'x-mock-control-token': SECRETS.controlToken,
        'proxy-authorization': `Basic ${SECRETS.proxyAuthorization}`,
      },
    });
    expect(answer.status).toBe(401);
    await answer.arrayBuffer();
    const forwarded = reachedHeaders.slice(before);
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0]?.['proxy-authorization']).toBeUndefined();
    expect(forwarded[0]?.['x-mock-control-token']).toBeUndefined();
    // What the upstream needs of the app's credentials still reaches it.
    expect(forwarded[0]?.['x-api-key']).toBe(SECRETS.apiKey);
    recording.flush();
    const text = await readFile(join(work, 'recording.json'), 'utf8');
    for (const [name, secret] of Object.entries(SECRETS)) expect(text, name).not.toContain(secret);
    const recorded = JSON.parse(text) as {
      exchanges: { request: { url: string }; response: { headers: Record<string, string> } }[];
    };
    const exchange = recorded.exchanges.find((e) => e.request.url.includes('agt_credentials'));
    expect(exchange?.request.url).toContain('limit=2');
    // The challenge still says how to authenticate.
    expect(exchange?.response.headers['www-authenticate']).toMatch(/^Bearer realm="agents", error="invalid_token", /);
  });
});
