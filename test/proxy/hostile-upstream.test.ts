// The proxy in front of upstreams that answer what a real server should not: a gzip body inflating to 100 MiB, an
// answer larger than the proxy checks held under --fail-on-violation, a 101 Switching Protocols. Each must be passed on
// or refused with a problem+json, with the proxy alive and answering afterwards: no crash, no hang, no lost byte.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../mocks/domain/logger.ts';
import { startProxyServer, type RunningProxy } from '../../proxy/proxy-server.ts';
import { RecordingWriter } from '../../proxy/recording.ts';
import { createUpstream } from '../../proxy/upstream.ts';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.ts';

const MIB = 1_048_576;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'agent-registry-kit-hostile-upstream-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** One GET through the proxy, its body as raw bytes (node:http does not decode a Content-Encoding). */
function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, signal: AbortSignal.timeout(60_000) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function throughProxy(
  upstream: FixtureServer,
  options: Partial<Parameters<typeof startProxyServer>[0]>,
  run: (proxy: RunningProxy) => Promise<void>,
): Promise<void> {
  const proxy = await startProxyServer({
    upstream: createUpstream(upstream.url),
    port: 0,
    logger: silentLogger,
    print: () => {},
    ...options,
  });
  try {
    await run(proxy);
    // Still alive and answering.
    expect((await get(`${proxy.url}/__mock/health`)).status).toBe(200);
  } finally {
    await proxy.close();
    await upstream.close();
  }
}

describe('an upstream answering a body that inflates far past the bound', () => {
  // 100 MiB of zeros, about 100 KB gzipped: small on the wire, so the bound on what arrives never trips.
  const bomb = gzipSync(Buffer.alloc(100 * MIB));

  for (const failOnViolation of [false, true])
    it(`is passed on as it came and judged by its status alone${failOnViolation ? ' (--fail-on-violation)' : ''}`, async () => {
      expect(bomb.length).toBeLessThan(MIB);
      const upstream = await startFixtureServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(bomb);
      });
      await throughProxy(upstream, { failOnViolation }, async (proxy) => {
        const answer = await get(`${proxy.url}/v1/agents/agt_bomb`, { authorization: 'Bearer any.jwt-shaped.token' });
        expect(answer.status).toBe(200);
        expect(answer.headers['content-encoding']).toBe('gzip');
        expect(answer.body.equals(bomb)).toBe(true);
        expect(proxy.violations.report().total).toBe(0);
      });
    });
});

describe('--fail-on-violation and an answer over the bound', () => {
  it('passes every byte of a chunked 20 MiB answer on, the chunk that crosses 8 MiB included', async () => {
    // An odd chunk size, so one chunk straddles the 8 MiB bound.
    const chunk = Buffer.alloc(65_339);
    const chunks = Array.from({ length: Math.ceil((20 * MIB) / chunk.length) }, (_, index) =>
      Buffer.from(chunk.fill(index % 251)),
    );
    const sent = Buffer.concat(chunks);
    const upstream = await startFixtureServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (const part of chunks) res.write(part);
      res.end();
    });
    await throughProxy(upstream, { failOnViolation: true }, async (proxy) => {
      const answer = await get(`${proxy.url}/v1/agents/agt_large`, { authorization: 'Bearer any.jwt-shaped.token' });
      expect(answer.status).toBe(200);
      expect(answer.body.length).toBe(sent.length);
      expect(createHash('sha256').update(answer.body).digest('hex')).toBe(
        createHash('sha256').update(sent).digest('hex'),
      );
    });
  });
});

describe('an upstream answering 101 Switching Protocols', () => {
  it('is a 502 problem+json at once, recorded with the reason, never a request left open', async () => {
    const upstream = await startFixtureServer((_req, res) => {
      res.writeHead(101, { connection: 'upgrade', upgrade: 'websocket' });
      res.flushHeaders();
    });
    const file = join(work, 'upgrade.json');
    const recording = new RecordingWriter(file, upstream.url);
    // The timeout is far beyond the hang guard of the request: only an answer without it passes.
    await throughProxy(upstream, { timeoutMs: 600_000, recording }, async (proxy) => {
      const answer = await get(`${proxy.url}/v1/agents/agt_upgrade`);
      expect(answer.status).toBe(502);
      expect(answer.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(answer.body.toString('utf8')).detail).toMatch(/answered 101 Switching Protocols/);
      recording.flush();
      const recorded = JSON.parse(await readFile(file, 'utf8')) as { exchanges: { error?: string }[] };
      expect(recorded.exchanges).toHaveLength(1);
      expect(recorded.exchanges[0]?.error).toMatch(/101 Switching Protocols/);
    });
  });
});
