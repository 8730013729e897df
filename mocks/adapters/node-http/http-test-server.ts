// The standalone server the node:http tests share: one on an ephemeral port for the calling test file (fixed clock,
// no random failures, one CORS origin), reset to its seed before each test, and the calls they make to it. Every
// answer on /v1 is checked against the spec on the way.
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { mintToken } from '../../core/request/auth.ts';
import { createFixedClock } from '../../domain/clock.ts';
import { silentLogger } from '../../domain/logger.ts';
import { expectConforms } from '../../test-api/expect-conforms.ts';
import { startMockServer, type RunningMockServer } from './http-server.ts';

/** An answer of the server, its body read. */
export interface Answer {
  status: number;
  headers: Headers;
  body: string;
  json: () => Record<string, unknown>;
}

/** The running server of the current test file, the token its calls carry, and a seeded agent of each status. */
export interface HttpTestServer {
  readonly server: RunningMockServer;
  readonly token: string;
  readonly active: string;
  readonly paused: string;
  /** A request with the token (unless `auth: false`); its answer checked against the spec when it is on /v1. */
  call(
    method: string,
    path: string,
    init?: { body?: string | Uint8Array<ArrayBuffer>; headers?: Record<string, string>; auth?: boolean },
  ): Promise<Answer>;
  /** A POST of `value` as JSON. */
  postJson(path: string, value: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** Sends raw bytes and returns the raw answer (for requests fetch refuses to make). */
  raw(text: string): Promise<string>;
}

/** A deploy request the spec accepts. */
export const validDeploy = { name: 'Test Bot', category: 'defi', model: 'gpt-4', initialSupply: 1000 };

/**
 * The JSON pointers of a problem answer's errors.
 * @example errorPaths(await fake.postJson('/v1/agents/deploy', {})); // ['/name', …]
 */
export function errorPaths(answer: Answer): string[] {
  const errors = answer.json().errors as { path: string }[] | undefined;
  return (errors ?? []).map((error) => error.path);
}

/**
 * Registers the hooks that start the server for the calling test file, stop it after, and reset it before each test.
 * @example const fake = useHttpTestServer(); const answer = await fake.call('GET', `/v1/agents/${fake.active}`);
 */
export function useHttpTestServer(): HttpTestServer {
  let server: RunningMockServer | undefined;
  let token = '';
  let active = '';
  let paused = '';

  const running = (): RunningMockServer => {
    if (server === undefined) throw new Error('the test server is not started yet: use it inside a test');
    return server;
  };

  const call: HttpTestServer['call'] = async (method, path, init = {}) => {
    const headers: Record<string, string> = {
      ...(init.auth !== false && { authorization: `Bearer ${token}` }),
      ...init.headers,
    };
    const response = await fetch(running().url + path, {
      method,
      headers,
      ...(init.body !== undefined && { body: init.body }),
    });
    const body = await response.text();
    if (path.startsWith('/v1'))
      expectConforms({ method, path, status: response.status, headers: response.headers, body });
    return {
      status: response.status,
      headers: response.headers,
      body,
      json: () => JSON.parse(body) as Record<string, unknown>,
    };
  };

  const postJson: HttpTestServer['postJson'] = (path, value, headers = {}) =>
    call('POST', path, { body: JSON.stringify(value), headers: { 'content-type': 'application/json', ...headers } });

  const raw: HttpTestServer['raw'] = (text) =>
    new Promise((resolve, reject) => {
      const socket = connect(running().port, '127.0.0.1', () => socket.write(text));
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('end', () => resolve(received));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });

  beforeAll(async () => {
    server = await startMockServer({
      port: 0,
      seed: 42,
      clock: createFixedClock(Date.parse('2026-11-20T12:00:00.000Z')),
      failureRatio: 0,
      logger: silentLogger,
      corsOrigins: ['http://localhost:5173'],
    });
    token = await mintToken({ sub: 'tester' });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await call('POST', '/__mock/reset');
    const list = (await call('GET', '/__mock/agents?limit=1000')).json().agents as {
      agentId: string;
      status: string;
    }[];
    active = list.find((agent) => agent.status === 'active')?.agentId ?? '';
    paused = list.find((agent) => agent.status === 'paused')?.agentId ?? '';
  });

  return {
    get server() {
      return running();
    },
    get token() {
      return token;
    },
    get active() {
      return active;
    },
    get paused() {
      return paused;
    },
    call,
    postJson,
    raw,
  };
}
