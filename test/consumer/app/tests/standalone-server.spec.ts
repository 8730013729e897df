// @vitest-environment node
// The standalone fake from `agent-registry-kit/server` on a free port, driven through the same test API over HTTP.
import { connectTestApi, mintToken, startMockServer } from 'agent-registry-kit/server';
import { expect, it } from 'vitest';

it('starts on port 0, seeds over the control plane and answers the seeded agent', async () => {
  const server = await startMockServer({ port: 0 });
  try {
    const api = connectTestApi({ baseUrl: server.url });
    const agent = await api.seedAgent({ name: 'Standalone', statistics: { holders: 3 } });
    const response = await fetch(`${server.url}/v1/agents/${agent.agentId}`, {
      headers: { authorization: `Bearer ${await mintToken()}` },
    });
    expect(await response.json()).toEqual(agent);
    await expect(api.seedAgent({ name: 'x'.repeat(300) })).rejects.toThrow(/\/name/);
  } finally {
    await server.close();
  }
});
