// The replica layer goes by what the operation table declares of an operation, not by its method or path: a stand-in
// for the shared storage records what the layer asks of it (a pull first, or an answer from memory checked after).
import { afterEach, describe, expect, it } from 'vitest';
import { callCore as call, deployThroughCore as deploy } from '../../../test/support/core-call.ts';
import { createMockCore, type MockCore } from '../../assembly/mock-core.ts';
import { silentLogger } from '../../domain/logger.ts';
import { mintToken } from '../../core/request/auth.ts';
import { SESSION_HEADER } from '../../core/sessions/sessions.ts';
import type { StoredReads } from '../../core/operation-handler.ts';
import { operationTable } from '../../operations/operation-table.ts';
import { createReplicaLayer, type ReplicaStorage } from './replica-dispatch.ts';

/** A shared storage that is always current: each call is recorded, each answer from memory holds. */
function standIn(): ReplicaStorage & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async refresh() {
      calls.push('pull');
    },
    async answerUnpulled(attempt) {
      calls.push('from memory');
      return { value: await attempt(), holds: true };
    },
    async countRequest(now) {
      calls.push('count');
      return { start: now, count: 1 };
    },
  };
}

const declared = { getAgent: operationTable.getAgent.reads, deployAgent: operationTable.deployAgent.reads };
/** Sets what the table declares an operation reads (a fact flipped for one test; afterEach puts it back). */
const declare = (operationId: keyof typeof declared, reads: StoredReads): void => {
  (operationTable[operationId] as { reads: StoredReads }).reads = reads;
};
afterEach(() => {
  declare('getAgent', declared.getAgent);
  declare('deployAgent', declared.deployAgent);
});

/** A core on memory with the replica layer over the stand-in, and one agent deployed; the calls start empty. */
async function replicaCore(): Promise<{ core: MockCore; calls: string[]; agentId: string }> {
  const storage = standIn();
  const core = createMockCore({ dispatchLayer: createReplicaLayer(storage), logger: silentLogger });
  const agentId = await deploy(core, 'Seen');
  storage.calls.length = 0;
  return { core, calls: storage.calls, agentId };
}

const agent = { name: 'New', category: 'defi', model: 'gpt-4', initialSupply: 1 };

describe('the replica layer, as the operation table declares each operation', () => {
  it('answers a deploy from memory and pulls before getAgent, executeAgentTask and the control plane', async () => {
    expect(declared).toEqual({ getAgent: 'stored-records', deployAgent: 'no-stored-records' });
    const { core, calls, agentId } = await replicaCore();
    expect((await call(core, 'POST', '/v1/agents/deploy', agent)).status).toBe(201);
    expect(calls.splice(0)).toEqual(['from memory']);
    expect((await call(core, 'GET', `/v1/agents/${agentId}`)).status).toBe(200);
    expect(calls.splice(0)).toEqual(['pull']);
    expect((await call(core, 'POST', `/v1/agents/${agentId}/execute`, { task: 't' })).status).toBeLessThan(300);
    expect(calls.splice(0)).toEqual(['pull']);
    expect((await call(core, 'GET', '/__mock/clock')).status).toBe(200);
    expect(calls.splice(0)).toEqual(['pull']);
  });

  it('pulls before a deploy once the table says deployAgent reads stored records', async () => {
    declare('deployAgent', 'stored-records');
    const { core, calls } = await replicaCore();
    expect((await call(core, 'POST', '/v1/agents/deploy', agent)).status).toBe(201);
    expect(calls).toEqual(['pull']);
  });

  it('answers a GET with a path parameter from memory once the table says it reads none: the method and path do not decide', async () => {
    declare('getAgent', 'no-stored-records');
    const { core, calls, agentId } = await replicaCore();
    expect((await call(core, 'GET', `/v1/agents/${agentId}`)).status).toBe(200);
    // HEAD is served wherever GET is, so it goes by getAgent's declaration too.
    expect((await call(core, 'HEAD', `/v1/agents/${agentId}`)).status).toBe(200);
    expect(calls).toEqual(['from memory', 'from memory']);
  });

  it('counts a rate limit where every replica counts, for API operations only', async () => {
    const { core, calls, agentId } = await replicaCore();
    await core.configureScenarios({ rateLimit: { limit: 100, windowSeconds: 60 } });
    expect((await call(core, 'GET', `/v1/agents/${agentId}`)).status).toBe(200);
    expect((await call(core, 'GET', '/__mock/clock')).status).toBe(200);
    expect((await call(core, 'GET', '/v1/nothing-here')).status).toBe(404);
    expect(calls).toEqual(['pull', 'count', 'pull', 'pull']);
  });

  it("leaves a request of a session to the session's own core, in memory, with no layer", async () => {
    const { core, calls } = await replicaCore();
    const response = await core.handle({
      method: 'POST',
      path: '/v1/agents/deploy',
      query: '',
      headers: {
        authorization: `Bearer ${await mintToken()}`,
        'content-type': 'application/json',
        [SESSION_HEADER]: 'own',
      },
      body: new TextEncoder().encode(JSON.stringify(agent)),
    });
    expect(response.status).toBe(201);
    const { agentId } = JSON.parse(response.body) as { agentId: string };
    expect(core.session('own').store.get(agentId)?.name).toBe('New');
    // The session draws from the seed's stream as the default core did for its first deploy, 'Seen'.
    expect(core.store.get(agentId)?.name).toBe('Seen');
    expect(calls).toEqual([]);
  });
});
