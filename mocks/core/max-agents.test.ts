// --max-agents bounds what deploys can make the fake hold: beyond it a deploy is the documented 503 (nothing applied),
// a reset makes room again, and the seeded catalogue does not count.
import { describe, expect, it } from 'vitest';
import { mintToken } from './request/auth.ts';
import { createMockCore } from '../assembly/mock-core.ts';
import { silentLogger } from '../domain/logger.ts';

describe('--max-agents', () => {
  it('answers 503 state-not-saved once the deployed agents reach it, until a reset', async () => {
    const core = createMockCore({ logger: silentLogger, maxAgents: 2 });
    const token = await mintToken();
    const deploy = async () =>
      core.handle({
        method: 'POST',
        path: '/v1/agents/deploy',
        query: '',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: new TextEncoder().encode('{"name":"Bot","category":"trading","model":"gpt-4","initialSupply":1000}'),
      });
    const before = core.store.agentCount;
    expect((await deploy()).status).toBe(201);
    expect((await deploy()).status).toBe(201);
    const full = await deploy();
    expect(full.status).toBe(503);
    expect(JSON.parse(full.body)).toMatchObject({
      type: 'https://agent-registry.dev/problems/state-not-saved',
      detail: expect.stringMatching(/--max-agents 2 deployed agents; POST \/__mock\/reset/),
    });
    expect(core.store.agentCount).toBe(before + 2);
    await core.handle({ method: 'POST', path: '/__mock/reset', query: '', headers: {}, body: null });
    expect((await deploy()).status).toBe(201);
  });
});
