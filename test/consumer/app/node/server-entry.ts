// Type-checked with Node's types (tsconfig.node.json): the node-only `agent-registry-kit/server` entry, as a test
// runner's global setup or a script would use it.
import { connectTestApi, startMockServer, type MockTestApi, type RunningMockServer } from 'agent-registry-kit/server';

export async function startFake(): Promise<{ server: RunningMockServer; api: MockTestApi }> {
  const server = await startMockServer({ port: 0 });
  return { server, api: connectTestApi({ baseUrl: server.url }) };
}
