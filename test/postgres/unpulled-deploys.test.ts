// Deploys are answered from memory without a pull first (mocks/storage/postgres/replica-dispatch.ts): what keeps read-your-writes is the
// check every batch makes for a control change newer than that memory, and a pull after an answer that wrote nothing.
// Two cores in one process on one PostgreSQL database; B's memory is made stale on purpose by changes through A.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { createFixedClock } from '../../mocks/domain/clock.ts';
import { createMockCore, type MockCore } from '../../mocks/assembly/mock-core.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';
import { openPostgresState } from '../../mocks/storage/postgres/postgres-state.ts';
import type { PostgresStorage } from '../../mocks/storage/postgres/postgres-storage.ts';
import { answerCore } from '../support/core-call.ts';
import { newDatabase } from './databases.ts';

const START = Date.parse('2026-11-20T12:00:00Z');
const agent = (name: string) => ({ name, category: 'defi', model: 'gpt-4', initialSupply: 100 });
let token = '';
const answer = (core: MockCore, method: string, path: string, body?: unknown) =>
  answerCore(core, method, path, body, token);

describe('deploys answered without a pull first, on two cores sharing PostgreSQL', () => {
  const storages: PostgresStorage[] = [];
  const cores: MockCore[] = [];
  beforeAll(async () => {
    token = `Bearer ${await mintToken({ sub: 'unpulled', now: START })}`;
    const url = await newDatabase();
    for (let index = 0; index < 2; index += 1) {
      const state = await openPostgresState(url, { seed: 9, catalogueSize: 36, logger: silentLogger });
      storages.push(state.storage);
      cores.push(
        createMockCore({
          seed: 9,
          ...state,
          clock: createFixedClock(START),
          wallClock: () => START,
          logger: silentLogger,
        }),
      );
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(storages.map((storage) => storage.close()));
  });

  it('costs no round trip before a deploy: a replica that only deploys never pulls', async () => {
    const [a] = cores as [MockCore];
    const storage = storages[0] as PostgresStorage;
    const before = { ...storage.counters };
    for (let index = 0; index < 5; index += 1)
      expect((await answer(a, 'POST', '/v1/agents/deploy', agent(`Quiet ${index}`))).status).toBe(201);
    expect(storage.counters.heads + storage.counters.pulls).toBe(before.heads + before.pulls);
    expect(storage.counters.unpulled - before.unpulled).toBe(5);
  });

  it('refuses the batch of a deploy answered before a scenario set through the other replica, and answers again', async () => {
    const [a, b] = cores as [MockCore, MockCore];
    const storage = storages[1] as PostgresStorage;
    expect((await answer(b, 'POST', '/v1/agents/deploy', agent('Before'))).status).toBe(201);
    const scenarios = { operations: { deployAgent: { errorStatus: 500 } } };
    expect((await answer(a, 'PUT', '/__mock/scenarios', scenarios)).status).toBe(200);
    const stale = storage.counters.stale;
    // B has not pulled since: its memory says deploys succeed, and the batch its deploy writes says otherwise.
    expect((await answer(b, 'POST', '/v1/agents/deploy', agent('After'))).status).toBe(500);
    expect(storage.counters.stale).toBe(stale + 1);
    expect((await answer(a, 'PUT', '/__mock/scenarios', {})).status).toBe(200);
    expect((await answer(b, 'POST', '/v1/agents/deploy', agent('Again'))).status).toBe(201);
  });

  it('stamps a deploy with the clock advanced through the other replica, not the offset memory held', async () => {
    const [a, b] = cores as [MockCore, MockCore];
    expect((await answer(b, 'POST', '/v1/agents/deploy', agent('Early'))).status).toBe(201);
    expect((await answer(a, 'POST', '/__mock/clock/advance', { seconds: 3600 })).status).toBe(200);
    const deployed = await answer(b, 'POST', '/v1/agents/deploy', agent('Late'));
    expect(deployed.status).toBe(201);
    expect(deployed.body.deployedAt).toBe(new Date(START + 3_600_000).toISOString());
  });

  it('checks an answer that wrote nothing with a pull after it: an override set through the other replica wins', async () => {
    const [a, b] = cores as [MockCore, MockCore];
    expect((await answer(b, 'POST', '/v1/agents/deploy', { name: '' })).status).toBe(400);
    expect((await answer(a, 'PUT', '/__mock/overrides', { operation: 'deployAgent', status: 503 })).status).toBe(200);
    // From B's memory this body is a 400 and writes nothing, so no batch checks it: the pull after it finds the override.
    expect((await answer(b, 'POST', '/v1/agents/deploy', { name: '' })).status).toBe(503);
    expect((await answer(a, 'DELETE', '/__mock/overrides')).status).toBe(204);
    expect((await answer(b, 'POST', '/v1/agents/deploy', { name: '' })).status).toBe(400);
  });

  it("keeps a replica that only deploys up to date with the other's deploys by pulls no request waits for", async () => {
    const [a, b] = cores as [MockCore, MockCore];
    const deployed = new Set<string>();
    for (let index = 0; index < 6; index += 1)
      for (const core of [a, b]) {
        const created = await answer(core, 'POST', '/v1/agents/deploy', agent(`Interleaved ${index}`));
        deployed.add(String(created.body.agentId));
      }
    // B answered only deploys: what it lists from memory alone (no request, so no pull for one) must hold A's too.
    await vi.waitFor(() => {
      const listed = new Set(storages[1]?.agents.deployedPage(0, 1000).agents.map((one) => one.agentId));
      for (const agentId of deployed) expect(listed.has(agentId)).toBe(true);
    });
  });
});
