// The three-line msw setup the README gives, shared by the environments: the kit's fake behind fetch, and any request
// it does not handle an error.
import { setupMockServer } from 'agent-registry-kit/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

/**
 * Starts the fake for the calling test file, with unhandled requests failing.
 * @example const server = useMockServer({ baseUrl: 'https://api.example.test' });
 */
export function useMockServer(options: Parameters<typeof setupMockServer>[0] = {}): ReturnType<typeof setupMockServer> {
  const server = setupMockServer({ seed: 7, ...options });
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    server.core.reset();
  });
  afterAll(() => server.close());
  return server;
}
