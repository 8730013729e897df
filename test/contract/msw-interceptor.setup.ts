// Setup file the self-check hands the contract suite's runner (openSuite's setupFiles): msw's node interceptor over the
// fake's handlers at the run's base URL, so the suite's fetch is answered in-process. The suite itself still knows
// only HTTP.
import { inject } from 'vitest';
import { setupMockServer, type MockServer } from '../../mocks/entries/node.ts';

const holder = globalThis as typeof globalThis & { agentRegistryContractMsw?: MockServer };
// The suite runs its files in one worker without isolation: one interceptor, one store, as one server would have.
if (!holder.agentRegistryContractMsw) {
  const server = setupMockServer({ baseUrl: inject('contractOptions').baseUrl });
  server.listen({ onUnhandledFrame: 'error' });
  holder.agentRegistryContractMsw = server;
}
