// Setup file of the mutation run (vitest.mutation.config.ts): the fake, as Stryker instrumented it, answers the contract
// suite's fetch in this worker through msw's node interceptor, so the mutant Stryker activates here is the fake the
// suite judges. One interceptor and one store per worker, as one server would have; the suite knows only HTTP.
import { inject } from 'vitest';
import { setupMockServer, type MockServer } from '../../mocks/entries/node.ts';

const holder = globalThis as typeof globalThis & { agentRegistryMutationFake?: MockServer };
if (!holder.agentRegistryMutationFake) {
  const server = setupMockServer({ baseUrl: inject('contractOptions').baseUrl });
  server.listen({ onUnhandledFrame: 'error' });
  holder.agentRegistryMutationFake = server;
}
