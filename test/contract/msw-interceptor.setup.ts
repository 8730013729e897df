// Setup file the self-check injects into the contract suite (AGENT_REGISTRY_KIT_CONTRACT_SETUP): msw's node interceptor
// over the fake's handlers, so the suite's fetch is answered in-process. The suite itself still knows only HTTP.
import { setupMockServer, type MockServer } from '../../mocks/entries/node.ts';

const holder = globalThis as typeof globalThis & { agentRegistryContractMsw?: MockServer };
// The suite runs its files in one worker without isolation: one interceptor, one store, as one server would have.
if (!holder.agentRegistryContractMsw) {
  const baseUrl = process.env.API_BASE_URL;
  if (!baseUrl)
    throw new Error('the msw interceptor target needs API_BASE_URL (any origin, e.g. http://agent-registry.msw.test)');
  const server = setupMockServer({ baseUrl });
  server.listen({ onUnhandledFrame: 'error' });
  holder.agentRegistryContractMsw = server;
}
