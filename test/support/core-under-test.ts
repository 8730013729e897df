// The fake's core in process, for the unit tests that drive it through its routes (the control plane, scenarios,
// sessions): a fresh core before each test of the calling file (seed 42, a fixed clock, no random failures), a valid
// token, and requests handed straight to core.handle, no HTTP in between. Every answer on /v1 is checked against the
// spec on the way.
import { beforeEach, expect } from 'vitest';
import { createMockCore, type MockCore, type MockCoreOptions } from '../../mocks/assembly/mock-core.ts';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { createFixedClock } from '../../mocks/domain/clock.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';
import { expectConforms } from '../../mocks/test-api/expect-conforms.ts';

/** The fixed clock's time a fresh core starts at. */
export const START = Date.parse('2026-11-20T12:00:00.000Z');

/** The deploy request `deploy` sends. */
export const DEPLOY = { name: 'Session bot', category: 'gaming', model: 'gpt-4', initialSupply: 10 };

/** An answer of the core, with its body parsed on demand. */
interface CoreAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: () => Record<string, unknown>;
}

/** The core of the current test (a test may replace it) and the requests sent to it. */
export interface CoreUnderTest {
  core: MockCore;
  readonly token: string;
  /** A core like the fresh one each test starts with, these options on top. */
  newCore(options?: MockCoreOptions): MockCore;
  /** A request with the token, and `body` as JSON when given; `target` is the path with its query. */
  send(method: string, target: string, body?: unknown, headers?: Record<string, string>): Promise<CoreAnswer>;
  /** `send` in the session X-Mock-Session names (no header when `session` is undefined). */
  sendIn(method: string, target: string, session?: string, body?: unknown): Promise<CoreAnswer>;
  /** Deploys DEPLOY (in `session`, when given), expects 201, and answers the agentId. */
  deploy(session?: string): Promise<string>;
  /** The first active agent of the catalogue. */
  anActiveAgent(): Promise<string>;
}

/**
 * Registers the hook that gives each test of the calling file a fresh core and a token, and returns what works on it.
 * @example const fake = useCoreUnderTest(); expect((await fake.send('GET', '/__mock/health')).status).toBe(200);
 */
export function useCoreUnderTest(): CoreUnderTest {
  let core: MockCore | undefined;
  let token = '';

  const newCore = (options: MockCoreOptions = {}): MockCore =>
    createMockCore({ seed: 42, clock: createFixedClock(START), logger: silentLogger, failureRatio: 0, ...options });

  const current = (): MockCore => {
    if (core === undefined) throw new Error('the core is made before each test: use it inside a test');
    return core;
  };

  const send: CoreUnderTest['send'] = async (method, target, body, headers = {}) => {
    const [path = '', query = ''] = target.split('?');
    const response = await current().handle({
      method,
      path,
      query,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
    });
    if (path.startsWith('/v1'))
      expectConforms({ method, path, status: response.status, headers: response.headers, body: response.body });
    return { ...response, json: () => JSON.parse(response.body) as Record<string, unknown> };
  };

  const sendIn: CoreUnderTest['sendIn'] = (method, target, session, body) =>
    send(method, target, body, session === undefined ? {} : { 'x-mock-session': session });

  const deploy: CoreUnderTest['deploy'] = async (session) => {
    const answer = await sendIn('POST', '/v1/agents/deploy', session, DEPLOY);
    expect(answer.status).toBe(201);
    return String(answer.json().agentId);
  };

  const anActiveAgent: CoreUnderTest['anActiveAgent'] = async () => {
    const list = (await send('GET', '/__mock/agents?status=active&limit=1')).json().agents as { agentId: string }[];
    return list[0]?.agentId ?? '';
  };

  beforeEach(async () => {
    core = newCore();
    token = await mintToken();
  });

  return {
    get core() {
      return current();
    },
    set core(replacement: MockCore) {
      core = replacement;
    },
    get token() {
      return token;
    },
    newCore,
    send,
    sendIn,
    deploy,
    anActiveAgent,
  };
}
