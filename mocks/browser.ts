// The browser helper: msw's setupWorker over the fake's handlers; serve mocks/worker/mockServiceWorker.js at your site's root.
import { setupWorker, type SetupWorker } from 'msw/browser';
import type { MockCore } from './core.ts';
import { createHandlers, type MockHandlerOptions } from './handlers.ts';

export { DEFAULT_JWT_SECRET, mintToken, type MintOptions } from './auth.ts';
export type { MockHandlerOptions } from './handlers.ts';

/** msw's worker, plus the core behind it. */
export type MockWorker = SetupWorker & { core: MockCore };

/**
 * Sets up msw's service worker with the fake's handlers; call `start()` before the app's first request.
 * @example
 * const worker = setupMockWorker({ seed: 7 });
 * await worker.start({ onUnhandledFrame: 'bypass' });
 */
export function setupMockWorker(options: MockHandlerOptions = {}): MockWorker {
  const { all, core } = createHandlers(options);
  return Object.assign(setupWorker(...all), { core });
}
