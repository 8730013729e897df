// The standalone fake as the robustness tests see it: a real child process over real HTTP, so a crash is a dead process
// and not a failed assertion inside the test runner, plus a small raw HTTP client that sends what fetch() refuses to.
import { Agent, request } from 'node:http';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { spawnServer, type SpawnedServer } from '../support/spawned-server.ts';

/**
 * Starts `node scripts/commands/serve.ts --port 0` (plus `args`) and waits for its listening line.
 * @example const fake = await startFake(['--state', file]); ...; await fake.stop();
 */
export function startFake(args: string[] = []): Promise<SpawnedServer> {
  return spawnServer({
    name: 'fake backend',
    args: ['scripts/commands/serve.ts', '--port', '0', '--host', '127.0.0.1', ...args],
    ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    timeoutMs: 30_000,
  });
}

/** A bearer token the fake accepts. */
export async function bearer(sub = 'robustness'): Promise<string> {
  return `Bearer ${await mintToken({ sub })}`;
}

/** A response as received: status, lower-case headers, body text. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What to send; unlike fetch, any method, any header and any body bytes are allowed. */
export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

/**
 * Sends one request with node:http (keep-alive through `agent`) and resolves with the whole answer; rejects when the
 * server does not answer within `timeoutMs` (a hang is a bug too).
 * @example const { status } = await send(agent, fake.baseUrl, { method: 'GET', path: '/v1/agents/x' });
 */
export function send(agent: Agent, baseUrl: string, raw: RawRequest, timeoutMs = 10_000): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: raw.method,
        path: raw.path,
        headers: raw.headers ?? {},
        timeout: timeoutMs,
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(incoming.headers))
            if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
          resolve({ status: incoming.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        incoming.on('error', reject);
      },
    );
    outgoing.on('timeout', () =>
      outgoing.destroy(new Error(`no answer within ${timeoutMs} ms to ${raw.method} ${raw.path.slice(0, 200)}`)),
    );
    outgoing.on('error', reject);
    outgoing.end(raw.body);
  });
}

/** A keep-alive agent for `send`. */
export function keepAliveAgent(maxSockets = 8): Agent {
  return new Agent({ keepAlive: true, maxSockets });
}
