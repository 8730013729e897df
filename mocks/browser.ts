// The browser helper: msw's setupWorker over the fake's handlers; serve mocks/worker/mockServiceWorker.js at your site's root.
import { setupWorker, type SetupWorker } from 'msw/browser';
import type { MockCore } from './core.ts';
import { createHandlers, type MockHandlerOptions } from './handlers.ts';
import { createTestApi, type MockTestApi } from './test-api.ts';

export { DEFAULT_JWT_SECRET, mintToken, type MintOptions } from './auth.ts';
export type { MockHandlerOptions } from './handlers.ts';
export * from './test-api-exports.ts';

/** msw's worker, plus the core behind it and the test API over both (`api.reset()` resets handlers and state). */
export type MockWorker = SetupWorker & { core: MockCore; api: MockTestApi };

/**
 * Sets up msw's service worker with the fake's handlers; call `start()` before the app's first request.
 * @example
 * const worker = setupMockWorker({ seed: 7 });
 * await worker.start({ onUnhandledFrame: 'bypass' });
 */
export function setupMockWorker(options: MockHandlerOptions = {}): MockWorker {
  const { all, core } = createHandlers(options);
  const worker = setupWorker(...all);
  return Object.assign(worker, { core, api: createTestApi(core, { resetHandlers: () => worker.resetHandlers() }) });
}
