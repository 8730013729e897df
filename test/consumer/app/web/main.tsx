// Vite's entry: with VITE_MOCK=true (the dev server, or a mock-enabled preview build) msw's worker answers the API
// before the app renders; without it, the app calls the real API.
import { createRoot } from 'react-dom/client';
import { AgentCard } from '../src/AgentCard';

async function start(): Promise<void> {
  let token = import.meta.env.VITE_API_TOKEN ?? '';
  if (import.meta.env.VITE_MOCK === 'true') {
    const { setupMockWorker, mintToken } = await import('agent-registry-kit/browser');
    // The dev server (`VITE_MOCK=true vite`) puts the test API on window.agentRegistryKit for the console and mounts the
    // kit's devtools panel; a production build does neither, and carries none of the panel's code.
    const worker = setupMockWorker({ exposeOnWindow: import.meta.env.DEV, devtools: import.meta.env.DEV });
    await worker.start({ onUnhandledFrame: 'bypass' });
    token = await mintToken();
  }
  const root = document.querySelector('#out');
  if (root) createRoot(root).render(<AgentCard baseUrl="" agentId="agt_WCC01FaiMscDbRzp" token={token} />);
}

void start();
