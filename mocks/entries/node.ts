// The node interceptor helper: msw's setupServer over the fake's handlers, for tests in other apps (fetch intercepted in-process).
import { setupServer, type SetupServer } from 'msw/node';
import type { MockCore } from '../assembly/mock-core.ts';
import { createHandlers, type MockHandlerOptions } from '../adapters/msw/create-handlers.ts';
import { createTestApi, type MockTestApi } from '../test-api/test-api.ts';
import { writePactFile } from '../pact-export/pact-file.ts';
import { bindOverrideHandlers } from '../adapters/msw/override-handler.ts';

export { DEFAULT_JWT_SECRET, mintToken, type MintOptions } from '../core/request/auth.ts';
export type { MockHandlerOptions } from '../adapters/msw/create-handlers.ts';
export * from './test-api-exports.ts';

/** msw's server, plus the core behind it and the test API over both (`api.reset()` resets handlers and state). */
export type MockServer = SetupServer & { core: MockCore; api: MockTestApi };

/**
 * Sets up msw in node with the fake's handlers; call `listen()` / `close()` as with any msw server.
 * @example
 * const server = setupMockServer({ seed: 7, baseUrl: 'http://api.test' });
 * beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
 * afterEach(() => server.api.reset());
 * afterAll(() => server.close());
 */
export function setupMockServer(options: MockHandlerOptions = {}): MockServer {
  const { all, core } = createHandlers(options);
  const server = setupServer(...all);
  // An override handler given to this server answers through its core: journaled, counted and in the pact.
  const use = server.use.bind(server);
  server.use = (...handlers) => {
    bindOverrideHandlers(handlers, core);
    use(...handlers);
  };
  const api = createTestApi(core, { resetHandlers: () => server.resetHandlers(), writeFile: writePactFile });
  return Object.assign(server, { core, api });
}
