// A replica that is the only writer: its committed batches go into memory as the database holds them (no pull brings
// them back) and a request with nothing new reads the change counter only. What memory then holds must be exactly what
// a replica loading the database whole finds: agents, tasks (settled, forgotten), documents and each row's version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { createFixedClock } from '../../mocks/domain/clock.ts';
import { createMockCore, type MockCore } from '../../mocks/assembly/mock-core.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';
import { openPostgresState, type PostgresState } from '../../mocks/storage/postgres/postgres-state.ts';
import type { PostgresStorage } from '../../mocks/storage/postgres/postgres-storage.ts';
import { answerCore } from '../support/core-call.ts';
import { newDatabase } from './databases.ts';

const START = Date.parse('2026-11-20T12:00:00Z');
let token = '';
const answer = (core: MockCore, method: string, path: string, body?: unknown) =>
  answerCore(core, method, path, body, token);
// One parsed agent kept at most: the others are read from the rows memory took, with those rows' versions.
const open = (url: string) =>
  openPostgresState(url, { seed: 8, catalogueSize: 36, logger: silentLogger, agentCacheSize: 1 });
const coreOn = (state: PostgresState) =>
  // Three tasks of history at most: settling more forgets the oldest.
  createMockCore({
    seed: 8,
    ...state,
    clock: createFixedClock(START),
    wallClock: () => START,
    logger: silentLogger,
    maxTasks: 3,
  });

/** Everything memory shows, in order, from the rows (not from the records the store keeps parsed). */
const view = (storage: PostgresStorage) => ({
  agents: storage.agents.deployedPage(0, 1000).agents,
  catalogue: [...storage.agents.changedCatalogueStatuses()],
  tasks: storage.tasks.saved(),
  scenarios: storage.readDocument('scenarios'),
  clock: storage.readDocument('clock'),
});

describe('a replica that is the only writer on PostgreSQL', () => {
  const storages: PostgresStorage[] = [];
  let url = '';
  beforeAll(async () => {
    token = `Bearer ${await mintToken({ sub: 'own', now: START })}`;
    url = await newDatabase();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(storages.map((storage) => storage.close()));
  });

  it('takes its commits into memory as the database holds them, with no pull of rows', async () => {
    const state = await open(url);
    const storage = state.storage;
    storages.push(storage);
    const core = coreOn(state);
    const deployed: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      const body = { name: `Own ${index}`, category: 'defi', model: 'gpt-4', initialSupply: 100 + index };
      deployed.push(String((await answer(core, 'POST', '/v1/agents/deploy', body)).body.agentId));
    }
    const [first, second] = deployed as [string, string];
    const tasks: string[] = [];
    // Twice: three tasks settle (noticed by the GET), then three more, which push the first three out of the history
    // (a batch that forgets tasks an earlier batch settled).
    for (let round = 0; round < 2; round += 1) {
      for (let index = 0; index < 3; index += 1) {
        const task = { task: `t${round}.${index}` };
        tasks.push(String((await answer(core, 'POST', `/v1/agents/${first}/execute`, task)).body.taskId));
      }
      expect((await answer(core, 'POST', '/__mock/clock/advance', { seconds: 3600 })).status).toBe(200);
      expect((await answer(core, 'GET', `/v1/agents/${first}`)).status).toBe(200);
    }
    const listed = (await answer(core, 'GET', '/__mock/agents')).body.agents as { agentId: string }[];
    const catalogueAgent = String(listed[0]?.agentId);
    for (const agentId of [second, catalogueAgent])
      expect((await answer(core, 'PUT', `/__mock/agents/${agentId}/status`, { status: 'paused' })).status).toBe(200);
    expect((await answer(core, 'PUT', '/__mock/scenarios', { taskFailureRatio: 0.5 })).status).toBe(200);

    expect(storage.counters.pulls).toBe(0);
    expect(storage.counters.taken).toBeGreaterThanOrEqual(14);
    expect(storage.counters.heads).toBeGreaterThan(0);

    // A replica that loads the database whole sees exactly what the writer's memory shows.
    const loaded = (await open(url)).storage;
    storages.push(loaded);
    const mine = view(storage);
    expect(mine.tasks.map((saved) => saved.task.taskId)).toEqual(tasks.slice(3));
    expect(mine.catalogue).toContainEqual([catalogueAgent, 'paused']);
    expect(mine).toEqual(view(loaded));
    // Each row's version in memory is the database's: changes conditional on it go through the first time.
    for (const agentId of [second, catalogueAgent, first])
      expect((await answer(core, 'PUT', `/__mock/agents/${agentId}/status`, { status: 'active' })).status).toBe(200);
    expect(storage.counters.pulls).toBe(0);
  });
});
