// A page that starts the kit's browser worker as an app would and hands the test what an app's test code would use:
// the worker (for worker.use / resetHandlers) and overrideHandler, each from agent-registry-kit/browser's source. It
// asks for exposeOnWindow, as an app's development build would, so the test API is on window.agentRegistryKit too.
import {
  type ExposedMockWorker,
  mintToken,
  OverrideError,
  overrideHandler,
  setupMockWorker,
  uncheckedOverrideHandler,
} from '../../../mocks/entries/browser.ts';

const exposed = {
  worker: setupMockWorker({ persist: false, exposeOnWindow: true }),
  mintToken,
  overrideHandler,
  uncheckedOverrideHandler,
  OverrideError,
};
declare global {
  interface Window {
    kit: typeof exposed;
    agentRegistryKit?: ExposedMockWorker;
  }
}

async function start(): Promise<void> {
  await exposed.worker.start({
    onUnhandledFrame: 'bypass',
    serviceWorker: { url: new URL('mockServiceWorker.js', document.baseURI).pathname },
  });
  window.kit = exposed;
  document.body.dataset.ready = 'true';
}

start().catch((error: unknown) => {
  document.body.dataset.ready = 'failed';
  document.body.textContent = error instanceof Error ? error.message : String(error);
});
