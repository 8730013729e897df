// The `agent-registry-kit/playwright` entry: Playwright's `test` with a `mock` fixture. Each test gets a session of its
// own on one shared fake (Playwright's webServer, or one the fixture starts), the page's requests carry it, and the test
// drives that session through the test API (seed, override, scenarios, clock, reset) over the control plane.
import { test as base, expect, type TestInfo } from '@playwright/test';
import { startMockServer, type MockServerOptions } from '../node-http/http-server.ts';
import { CONTROL_TOKEN_HEADER } from '../../http/request-guards.ts';
import { connectTestApi } from '../../test-api/remote-test-api.ts';
import { MockInputError } from '../../domain/input-error.ts';
import { SESSION_COOKIE, SESSION_HEADER } from '../../core/sessions/sessions.ts';
import type { MockTestApi } from '../../test-api/test-api.ts';
import { mintToken } from '../../core/request/auth.ts';

/** The options of the fixture, set in `use` of playwright.config.ts (or `test.use`). */
export interface MockFixtureOptions {
  /**
   * The running fake's origin (e.g. Playwright's `webServer` running `npx agent-registry-kit serve`); default the
   * MOCK_URL environment variable, else each worker starts a fake of its own on a free port.
   */
  mockUrl: string | undefined;
  /**
   * A session per test (default: true unless MOCK_SESSIONS=off). Off, every test shares the fake's default session
   * and resets it when it starts: what a fixture without sessions does, and why parallel workers then collide.
   */
  mockSessions: boolean;
  /** The control token, when the fake runs with --control-token (default the MOCK_CONTROL_TOKEN environment variable). */
  mockControlToken: string | undefined;
  /** Options of the fake the fixture starts when there is no `mockUrl` (the port is always a free one). */
  mockServerOptions: Omit<MockServerOptions, 'port'>;
  /**
   * The fake's JWT secret, which `mock.token` is signed with (default the MOCK_JWT_SECRET environment variable, the one
   * `serve` reads, else the `jwtSecret` of `mockServerOptions`, else the kit's public development secret).
   */
  mockJwtSecret: string | undefined;
}

/** What a test gets as `mock`: the test API of its session, and what a request needs to be in it. */
export interface MockSession extends MockTestApi {
  /** The session id (undefined with `mockSessions: false`: the default session). */
  readonly id: string | undefined;
  /** The fake's origin, e.g. `http://127.0.0.1:4010`. */
  readonly url: string;
  /** Headers that put a request in this session; the page's requests already carry them. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * A bearer token the fake accepts (sub `playwright`, valid for an hour), for the page: hand it over as the app
   * takes its token, e.g. `await page.addInitScript((t) => sessionStorage.setItem('token', t), mock.token)` before
   * `page.goto`, or `await page.setExtraHTTPHeaders({ authorization: `Bearer ${mock.token}` })`.
   */
  readonly token: string;
}

/** Options and fixtures that live as long as a worker: the fake it talks to. */
type WorkerFixtures = Pick<MockFixtureOptions, 'mockUrl' | 'mockServerOptions'> & { mockServerUrl: string };
type TestFixtures = Pick<MockFixtureOptions, 'mockSessions' | 'mockControlToken' | 'mockJwtSecret'> & {
  mock: MockSession;
};

/**
 * A session id unique to one run of one test: its id, repeat and retry (Playwright's testId is a short hex hash).
 * @example sessionIdFor(testInfo) // 'pw-2f1c0a9be3d4e5f60718-0-0'
 */
export function sessionIdFor(testInfo: Pick<TestInfo, 'testId' | 'repeatEachIndex' | 'retry'>): string {
  const suffix = `-${testInfo.repeatEachIndex}-${testInfo.retry}`;
  const safe = testInfo.testId.replace(/[^A-Za-z0-9._~-]/g, '_');
  return `pw-${safe.slice(0, 64 - 3 - suffix.length)}${suffix}`;
}

/** The fixture's own fake, one per worker, when no running one is named. */
async function workerServer(
  { mockUrl, mockServerOptions }: Pick<MockFixtureOptions, 'mockUrl' | 'mockServerOptions'>,
  use: (url: string) => Promise<void>,
): Promise<void> {
  if (mockUrl !== undefined) {
    await use(mockUrl.replace(/\/+$/, ''));
    return;
  }
  const server = await startMockServer({ ...mockServerOptions, port: 0 });
  try {
    await use(server.url);
  } finally {
    await server.close();
  }
}

/** Forgets the session when the test is over, so a long run keeps no state it no longer needs. */
async function forget(url: string, id: string, headers: Record<string, string>): Promise<void> {
  const { [SESSION_HEADER]: _session, ...rest } = headers;
  await fetch(`${url}/__mock/sessions/${id}`, { method: 'DELETE', headers: rest }).catch(() => undefined);
}

/** The error to give when the fake refused the session because it runs without sessions: what to turn off here. */
function sessionsOffHint(error: unknown, url: string): Error | undefined {
  if (!(error instanceof MockInputError) || !error.errors.some((e) => e.path === `/header/${SESSION_HEADER}`)) return;
  return new Error(
    `The fake at ${url} runs without sessions (serve --max-sessions 0), so the mock fixture cannot give this test a session of its own: set \`use: { mockSessions: false }\` in playwright.config.ts (or MOCK_SESSIONS=off) and run with one worker, or start the fake with sessions.`,
  );
}

/**
 * What the `mock` fixture does around one test, apart from Playwright: the session's API with the control token on every
 * call (also on the final DELETE), started from the seed; `close` forgets the session.
 * @example const { session, close } = await openMockSession({ url, id: 'pw-1-0-0', controlToken: 's3cret' });
 */
export async function openMockSession(options: {
  url: string;
  id: string | undefined;
  controlToken: string | undefined;
  /** The fake's JWT secret, which `token` is signed with (default the kit's development secret). */
  jwtSecret?: string | undefined;
}): Promise<{ session: MockSession; close: () => Promise<void> }> {
  const { url, id, controlToken } = options;
  const headers: Record<string, string> = {
    ...(id !== undefined && { [SESSION_HEADER]: id }),
    ...(controlToken !== undefined && { [CONTROL_TOKEN_HEADER]: controlToken }),
  };
  const api = connectTestApi({ baseUrl: url, headers, ...(controlToken !== undefined && { controlToken }) });
  // A test starts from the seed; in its own session this is a fresh one, in the shared default session a reset.
  await api.reset().catch((error: unknown) => {
    throw sessionsOffHint(error, url) ?? error;
  });
  const token = await mintToken({
    sub: 'playwright',
    ...(options.jwtSecret !== undefined && { secret: options.jwtSecret }),
  });
  return {
    session: Object.assign(api, { id, url, headers, token }),
    close: async () => {
      if (id !== undefined) await forget(url, id, headers);
    },
  };
}

/**
 * Playwright's `test` with the `mock` fixture.
 * @example
 * import { test, expect } from 'agent-registry-kit/playwright';
 * test('shows a paused agent', async ({ page, mock }) => {
 *   const agent = await mock.seedAgent({ status: 'paused' });
 *   await page.goto(`/agents/${agent.agentId}`);
 *   await expect(page.getByText('paused')).toBeVisible();
 * });
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  mockUrl: [process.env.MOCK_URL, { option: true, scope: 'worker' }],
  mockServerOptions: [{}, { option: true, scope: 'worker' }],
  mockSessions: [process.env.MOCK_SESSIONS !== 'off', { option: true }],
  mockControlToken: [process.env.MOCK_CONTROL_TOKEN, { option: true }],
  mockJwtSecret: [process.env.MOCK_JWT_SECRET, { option: true }],
  mockServerUrl: [
    async ({ mockUrl, mockServerOptions }, use) => workerServer({ mockUrl, mockServerOptions }, use),
    { scope: 'worker' },
  ],
  mock: async (
    { mockServerUrl: url, mockSessions, mockControlToken, mockJwtSecret, mockServerOptions },
    use,
    testInfo,
  ) => {
    // A fake the fixture started with a controlToken (or a secret) needs it back, without the user saying it twice.
    const { session, close } = await openMockSession({
      url,
      id: mockSessions ? sessionIdFor(testInfo) : undefined,
      controlToken: mockControlToken ?? mockServerOptions.controlToken,
      jwtSecret: mockJwtSecret ?? mockServerOptions.jwtSecret,
    });
    await use(session);
    await close();
  },
  context: async ({ context, mock }, use) => {
    if (mock.id !== undefined) {
      // The header reaches fetch/XHR to the fake from any origin; the cookie, the pages the browser navigates to on it.
      await context.setExtraHTTPHeaders({ [SESSION_HEADER]: mock.id });
      await context.addCookies([{ name: SESSION_COOKIE, value: mock.id, url: mock.url }]);
    }
    await use(context);
  },
});

export { expect };
export type { RecordedRequest, RequestFilter } from '../../core/steering/recorded-requests.ts';
export type { WaitForRequestOptions } from '../../test-api/request-reading.ts';
