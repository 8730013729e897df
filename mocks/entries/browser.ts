// The browser helper: msw's setupWorker over the fake's handlers; serve mocks/adapters/msw/worker/mockServiceWorker.js at your site's root.
import { setupWorker, type SetupWorker } from 'msw/browser';
import { DEFAULT_CATALOGUE_SIZE } from '../state/catalogue.ts';
import { DEFAULT_SEED, type MockCore } from '../assembly/mock-core.ts';
import { createHandlers, type MockHandlerOptions } from '../adapters/msw/create-handlers.ts';
import { bindOverrideHandlers } from '../adapters/msw/override-handler.ts';
import { seedFromText } from '../domain/random.ts';
import { DEFAULT_MAX_TASKS } from '../state/store/store-types.ts';
import { createTestApi, type MockTestApi } from '../test-api/test-api.ts';
import { openPageStorage, type PersistOption } from '../storage/web-storage/web-storage.ts';
import { mintToken } from '../core/request/auth.ts';
import type { StreamSource } from 'agent-registry-kit/devtools';

export { DEFAULT_JWT_SECRET, mintToken, type MintOptions } from '../core/request/auth.ts';
export type { MockHandlerOptions } from '../adapters/msw/create-handlers.ts';
export * from './test-api-exports.ts';
export type { PersistOption } from '../storage/web-storage/web-storage.ts';

/** msw's worker, plus the core behind it and the test API over both (`api.reset()` resets handlers and state). */
export type MockWorker = SetupWorker & { core: MockCore; api: MockTestApi };

/** The name `exposeOnWindow` puts the test API under: `window.agentRegistryKit`. */
export const EXPOSED_NAME = 'agentRegistryKit';

/**
 * What `exposeOnWindow` puts on `window.agentRegistryKit`: the worker's test API (`seedAgent`, `reset`, `override`…),
 * `mintToken` for a request typed by hand, and the worker itself. To type it in the app:
 * `declare global { interface Window { agentRegistryKit?: ExposedMockWorker } }`.
 */
export interface ExposedMockWorker extends MockTestApi {
  mintToken: typeof mintToken;
  worker: MockWorker;
}

export interface MockWorkerOptions extends MockHandlerOptions {
  /**
   * Where the fake keeps its state across reloads of the page: `'session'` (the default: this tab's sessionStorage),
   * `'local'` (localStorage: every tab of the origin, and after the browser restarts) or `false` (memory: each page
   * load starts from the seed). Ignored when `core` or `storage` is given.
   */
  persist?: PersistOption;
  /**
   * Put the test API on `window.agentRegistryKit` (see `ExposedMockWorker`), to seed or reset the fake from the browser's
   * console or a script the page runs. Off by default; pass `import.meta.env.DEV` (or your mock flag) so that no
   * production build exposes it.
   */
  exposeOnWindow?: boolean;
  /**
   * Mount the kit's console as a floating panel over the app (a toggle button in the bottom-right corner): the requests
   * the app made, live, and the fake's state, steering and coverage. Loaded on demand (`agent-registry-kit/devtools`,
   * a dynamic import), and never in a production build (`process.env.NODE_ENV === 'production'`, which Vite and other
   * bundlers replace), so pass `import.meta.env.DEV` or `true` alike. Off by default.
   */
  devtools?: boolean;
}

/**
 * The journal as the devtools panel reads it in the page: the core's own stream (its backlog, then each answer as it
 * happens), since msw answers a stream with its first bytes only.
 */
function journalSource(core: MockCore): StreamSource {
  return (headers, push) => {
    let stopped = false;
    let stop = (): void => {};
    void core
      .handle({ method: 'GET', path: '/__mock/journal/events', query: '', headers, body: null })
      .then((response) => {
        if (stopped) return;
        push(response.body);
        if (response.events) stop = response.events(push);
      });
    return () => {
      stopped = true;
      stop();
    };
  };
}

/**
 * Sets up msw's service worker with the fake's handlers; call `start()` before the app's first request. By default the
 * fake's state survives reloads of the tab (sessionStorage); `worker.api.reset()` or `POST /__mock/reset` starts over.
 * @example
 * const worker = setupMockWorker({ seed: 7, exposeOnWindow: import.meta.env.DEV, devtools: true });
 * await worker.start({ onUnhandledFrame: 'bypass' });
 * // in the console: await agentRegistryKit.seedAgent({ name: 'From the console' }); await agentRegistryKit.reset();
 */
export function setupMockWorker(options: MockWorkerOptions = {}): MockWorker {
  const { persist = 'session', exposeOnWindow = false, devtools = false, ...handlerOptions } = options;
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
  // An override handler given to this worker answers through its core: journaled, counted and in the pact.
  const use = worker.use.bind(worker);
  worker.use = (...handlers) => {
    bindOverrideHandlers(handlers, core);
    use(...handlers);
  };
  const mocked: MockWorker = Object.assign(worker, {
    core,
    api: createTestApi(core, { resetHandlers: () => worker.resetHandlers() }),
  });
  if (exposeOnWindow) {
    const exposed: ExposedMockWorker = { ...mocked.api, mintToken, worker: mocked };
    Object.assign(globalThis, { [EXPOSED_NAME]: exposed });
  }
  // The inner condition is the one a bundler folds: in a production build the import is dead code and its chunk is not
  // emitted; `process` is read only when the panel is asked for (a page without a bundler has none).
  if (devtools && typeof document !== 'undefined') {
    if (process.env.NODE_ENV !== 'production')
      void import('agent-registry-kit/devtools').then(({ mountDevtools }) =>
        mountDevtools({ stream: journalSource(core) }),
      );
  }
  return mocked;
}
