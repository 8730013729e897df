// A Vite app using the kit's fake in the browser: msw's worker (from `npx msw init public/`) answers the API calls.
import { mintToken, setupMockWorker } from 'agent-registry-kit/browser';

const worker = setupMockWorker();
await worker.start({ onUnhandledFrame: 'bypass' });
const response = await fetch('/v1/agents/agt_WCC01FaiMscDbRzp', {
  headers: { authorization: `Bearer ${await mintToken()}` },
});
const out = document.querySelector('#out');
if (out) out.textContent = `${response.status} ${await response.text()}`;
