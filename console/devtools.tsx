// The in-page devtools panel: the console over an app that runs the fake in msw's worker. A toggle button in a corner
// opens it; it lives in a shadow root, so the app's styles do not reach it and its own do not reach the app. It talks
// to the fake as the page does (fetch of /__mock/*, which the worker answers) and reads the journal from the worker's
// core through the stream source it is given. Built on its own into dist/console/devtools.js (tools/bundle.ts), which
// setupMockWorker({ devtools: true }) loads with a dynamic import: an app that does not ask for it carries none of it.
import { render } from 'preact';
import { useState } from 'preact/hooks';
import { App } from './app.tsx';
import css from './console.css';
import { setStreamSource, type StreamSource } from './control-client.ts';

export type { StreamSource };

/** What the panel needs from the worker. */
export interface DevtoolsOptions {
  /** The journal's Server-Sent Events text, read from the worker's core (see `StreamSource`). */
  stream: StreamSource;
}

/** The element the panel is mounted in (its id, for a test or a style that hides it). */
export const DEVTOOLS_HOST_ID = 'agent-registry-kit-devtools';

function Panel() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        class="devtools-toggle"
        aria-expanded={open}
        aria-controls="devtools-panel"
        onClick={() => setOpen((value) => !value)}
      >
        {open ? 'Close mock console' : 'Mock console'}
      </button>
      {open && (
        <div id="devtools-panel" class="devtools-panel">
          <App embedded />
        </div>
      )}
    </>
  );
}

/**
 * Mounts the panel once (a second call returns the first panel's unmount). Returns a function that removes it.
 * @example const unmount = mountDevtools({ stream: (headers, push) => subscribeToJournal(headers, push) });
 */
export function mountDevtools(options: DevtoolsOptions): () => void {
  const unmount = (): void => {
    const host = document.getElementById(DEVTOOLS_HOST_ID);
    if (host?.shadowRoot) render(null, host.shadowRoot);
    host?.remove();
    setStreamSource(undefined);
  };
  if (document.getElementById(DEVTOOLS_HOST_ID)) return unmount;
  setStreamSource(options.stream);
  const host = document.createElement('div');
  host.id = DEVTOOLS_HOST_ID;
  const shadow = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = css;
  shadow.append(style);
  document.body.append(host);
  render(<Panel />, shadow);
  return unmount;
}
