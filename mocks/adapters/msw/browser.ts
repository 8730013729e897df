// The browser helper: msw's setupWorker over the fake's handlers; serve mocks/adapters/msw/worker/mockServiceWorker.js at your site's root.
import { setupWorker, type SetupWorker } from 'msw/browser';
import { DEFAULT_CATALOGUE_SIZE } from '../../state/catalogue.ts';
import { DEFAULT_SEED, type MockCore } from '../../core/core.ts';
import { createHandlers, type MockHandlerOptions } from './create-handlers.ts';
import { seedFromText } from '../../core/random.ts';
import { DEFAULT_MAX_TASKS } from '../../state/store.ts';
import { createTestApi, type MockTestApi } from '../../test-api/test-api.ts';
import { openPageStorage, type PersistOption } from '../../storage/web-storage/web-storage.ts';

export { DEFAULT_JWT_SECRET, mintToken, type MintOptions } from '../../core/request/auth.ts';
export type { MockHandlerOptions } from './create-handlers.ts';
export * from '../../test-api/test-api-exports.ts';
export type { PersistOption } from '../../storage/web-storage/web-storage.ts';

/** msw's worker, plus the core behind it and the test API over both (`api.reset()` resets handlers and state). */
export type MockWorker = SetupWorker & { core: MockCore; api: MockTestApi };

export interface MockWorkerOptions extends MockHandlerOptions {
  /**
   * Where the fake keeps its state across reloads of the page: `'session'` (the default: this tab's sessionStorage),
   * `'local'` (localStorage: every tab of the origin, and after the browser restarts) or `false` (memory: each page
   * load starts from the seed). Ignored when `core` or `storage` is given.
   */
  persist?: PersistOption;
}

/**
 * Sets up msw's service worker with the fake's handlers; call `start()` before the app's first request. By default the
 * fake's state survives reloads of the tab (sessionStorage); `worker.api.reset()` or `POST /__mock/reset` starts over.
 * @example
 * const worker = setupMockWorker({ seed: 7 });
 * await worker.start({ onUnhandledFrame: 'bypass' });
 */
export function setupMockWorker(options: MockWorkerOptions = {}): MockWorker {
  const { persist = 'session', ...handlerOptions } = options;
  const keepsOwnState = handlerOptions.core !== undefined || handlerOptions.storage !== undefined;
  const seed =
    typeof handlerOptions.seed === 'string' ? seedFromText(handlerOptions.seed) : (handlerOptions.seed ?? DEFAULT_SEED);
  const storage = keepsOwnState
    ? handlerOptions.storage
    : openPageStorage(persist, {
        seed,
        catalogueSize: handlerOptions.catalogueSize ?? DEFAULT_CATALOGUE_SIZE,
        maxTasks: handlerOptions.maxTasks ?? DEFAULT_MAX_TASKS,
        ...(handlerOptions.logger !== undefined && { logger: handlerOptions.logger }),
      });
  const { all, core } = createHandlers({ ...handlerOptions, ...(storage !== undefined && { storage }) });
  const worker = setupWorker(...all);
  return Object.assign(worker, { core, api: createTestApi(core, { resetHandlers: () => worker.resetHandlers() }) });
}
