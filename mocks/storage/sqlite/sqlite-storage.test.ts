// The SQLite storage keeps what the fake acknowledged across a restart: agents, tasks, scenarios, the clock, coverage,
// and a batch commit that fails loses nothing it acknowledged. (Refusals of a hostile state file: sqlite-state-refusals.test.ts.)
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it, vi } from 'vitest';
import { callCore as call, deployThroughCore as deploy } from '../../../test/support/core-call.ts';
import { useSqliteState } from '../../../test/support/sqlite-state.ts';
import type { MockResponse } from '../../core/mock-http.ts';
import type { SqliteStorage } from './sqlite-storage.ts';

const state = useSqliteState();
const { openStorage, coreOn, close, open } = state;

describe('openSqliteStorage', () => {
  it('resumes everything after a restart: agents, changed statuses, tasks, settlements, clock, scenarios, random state', async () => {
    const first = openStorage();
    const core = coreOn(first);
    await core.persist();
    const agentId = await deploy(core, 'kept');
    const catalogueId = core.store.list({ limit: 1 }).agents[0]?.agentId ?? '';
    expect((await call(core, 'PUT', `/__mock/agents/${catalogueId}/status`, { status: 'paused' })).status).toBe(200);
    const task = JSON.parse((await call(core, 'POST', `/v1/agents/${agentId}/execute`, { task: 'x' })).body) as {
      taskId: string;
    };
    expect((await call(core, 'PUT', '/__mock/scenarios', { taskFailureRatio: 1, latencyMs: 1 })).status).toBe(200);
    expect((await call(core, 'POST', '/__mock/clock/advance', { seconds: 60 })).status).toBe(200);
    const agentBefore = (await call(core, 'GET', `/v1/agents/${agentId}`)).body;
    await close(first);

    const restarted = coreOn(openStorage());
    expect((await call(restarted, 'GET', `/v1/agents/${agentId}`)).body).toBe(agentBefore);
    expect(restarted.store.get(agentId)?.performance.tasksCompleted).toBe(1);
    expect(restarted.store.get(catalogueId)?.status).toBe('paused');
    expect(restarted.store.findTask(task.taskId)?.status).toBe('completed');
    expect(restarted.clock.offset).toBe(60_000);
    expect(JSON.parse((await call(restarted, 'GET', '/__mock/scenarios')).body)).toEqual({
      latencyMs: 1,
      taskFailureRatio: 1,
    });
    // The random source goes on where it stopped: the next id is the one an uninterrupted in-memory fake would give.
    const uninterrupted = coreOn(undefined);
    await deploy(uninterrupted, 'kept');
    await call(uninterrupted, 'POST', `/v1/agents/${agentId}/execute`, { task: 'x' });
    expect(await deploy(restarted, 'next')).toBe(await deploy(uninterrupted, 'next'));
  });

  it('keeps the failed-task count, so the success rate after a restart goes on from the right figures', async () => {
    const first = openStorage();
    const core = coreOn(first);
    const agentId = await deploy(core, 'unlucky');
    await call(core, 'PUT', '/__mock/scenarios', { taskFailureRatio: 1 });
    await call(core, 'POST', `/v1/agents/${agentId}/execute`, { task: 'fails' });
    await call(core, 'POST', '/__mock/clock/advance', { seconds: 60 });
    await call(core, 'PUT', '/__mock/scenarios', { taskFailureRatio: 0 });
    await call(core, 'POST', `/v1/agents/${agentId}/execute`, { task: 'succeeds' });
    await call(core, 'POST', '/__mock/clock/advance', { seconds: 60 });
    expect(core.store.get(agentId)?.performance).toMatchObject({ tasksCompleted: 1, successRate: 0.5 });
    await close(first);

    // The stored Agent says 0.5 either way; only the failed count makes the next settlement right: 2 of 3, not 2 of 2.
    const restarted = coreOn(openStorage());
    await call(restarted, 'POST', `/v1/agents/${agentId}/execute`, { task: 'succeeds too' });
    await call(restarted, 'POST', '/__mock/clock/advance', { seconds: 60 });
    const performance = restarted.store.get(agentId)?.performance;
    expect(performance?.tasksCompleted).toBe(2);
    expect(performance?.successRate).toBeCloseTo(2 / 3, 3);
  });

  it('keeps the coverage counts, those of reads included once a later batch or the shutdown carries them', async () => {
    const first = openStorage();
    const core = coreOn(first);
    const agentId = await deploy(core, 'counted');
    await call(core, 'GET', `/v1/agents/${agentId}`);
    await call(core, 'GET', '/v1/agents/agt_unknown');
    // What scripts/commands/serve.ts does on SIGTERM before closing the storage.
    await core.persist();
    const counted = core.coverage.report();
    expect(counted.categories.status.covered).toBe(3);
    await close(first);
    const restarted = coreOn(openStorage());
    expect(restarted.coverage.report()).toEqual(counted);
    expect((await call(restarted, 'DELETE', '/__mock/coverage')).status).toBe(204);
    await close(open[open.length - 1] as SqliteStorage);
    expect(coreOn(openStorage()).coverage.report().requests).toBe(0);
  });

  it('keeps a reset, and a cleared scenario returns to the default failure ratio', async () => {
    const first = openStorage();
    const core = coreOn(first);
    const agentId = await deploy(core, 'forgotten');
    await call(core, 'PUT', '/__mock/scenarios', { taskFailureRatio: 1 });
    expect((await call(core, 'POST', '/__mock/reset')).status).toBe(200);
    await close(first);
    const restarted = coreOn(openStorage());
    expect(restarted.store.get(agentId)).toBeUndefined();
    expect(restarted.store.agentCount).toBe(36);
    expect(JSON.parse((await call(restarted, 'GET', '/__mock/scenarios')).body)).toEqual({ taskFailureRatio: 0 });
  });

  it('acknowledges concurrent deploys in one batch, and every one of them is in the file', async () => {
    const storage = openStorage();
    const core = coreOn(storage);
    const ids = await Promise.all(Array.from({ length: 200 }, (_, index) => deploy(core, `bot-${index}`)));
    const reader = new DatabaseSync(state.file, { readOnly: true });
    try {
      // The writer holds the exclusive lock: a reader cannot even look while it runs.
      expect(() => reader.prepare('SELECT count(*) FROM agents').get()).toThrow(/locked/);
    } finally {
      reader.close();
    }
    await close(storage);
    const after = new DatabaseSync(state.file, { readOnly: true });
    const stored = new Set(
      (after.prepare('SELECT agent_id FROM agents').all() as { agent_id: string }[]).map((row) => row.agent_id),
    );
    after.close();
    expect(ids.filter((id) => !stored.has(id))).toEqual([]);
    expect(stored.size).toBe(200);
  });

  it('serves agents beyond its cache from the database, and lists them in deploy order', async () => {
    const core = coreOn(openStorage());
    const ids: string[] = [];
    for (let index = 0; index < 12; index += 1) ids.push(await deploy(core, `bot-${index}`));
    for (const [index, agentId] of ids.entries()) expect(core.store.get(agentId)?.name).toBe(`bot-${index}`);
    expect(core.store.list({ offset: 36, limit: 100 }).agents.map((agent) => agent.agentId)).toEqual(ids);
    expect(core.store.agentCount).toBe(48);
  });
});

describe('a batch that cannot be committed', () => {
  it('answers 503 to every mutation in it, and none of them is applied in memory or on disk', async () => {
    const storage = openStorage();
    const core = coreOn(storage);
    const agentId = await deploy(core, 'before');
    await call(core, 'PUT', '/__mock/scenarios', { taskFailureRatio: 0.5 });
    const before = {
      health: (await call(core, 'GET', '/__mock/health')).body,
      scenarios: (await call(core, 'GET', '/__mock/scenarios')).body,
      clock: core.clock.offset,
      agent: (await call(core, 'GET', `/v1/agents/${agentId}`)).body,
    };
    // A full disk, as SQLite reports it at COMMIT; the rollback itself goes through.
    const exec = DatabaseSync.prototype.exec;
    const spy = vi.spyOn(DatabaseSync.prototype, 'exec').mockImplementation(function (this: DatabaseSync, sql: string) {
      if (sql === 'COMMIT') throw new Error('database or disk is full');
      return exec.call(this, sql);
    });
    let answers: MockResponse[];
    try {
      answers = await Promise.all([
        call(core, 'POST', '/v1/agents/deploy', { name: 'lost', category: 'nft', model: 'llama-2', initialSupply: 1 }),
        call(core, 'POST', `/v1/agents/${agentId}/execute`, { task: 'lost' }),
        call(core, 'PUT', `/__mock/agents/${agentId}/status`, { status: 'paused' }),
        call(core, 'PUT', '/__mock/scenarios', { latencyMs: 5 }),
        call(core, 'POST', '/__mock/clock/advance', { seconds: 60 }),
        call(core, 'POST', '/__mock/reset'),
      ]);
    } finally {
      spy.mockRestore();
    }
    expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503, 503, 503, 503]);
    expect(JSON.parse(answers[0]?.body ?? '{}')).toMatchObject({
      type: 'https://agent-registry.dev/problems/state-not-saved',
      status: 503,
    });
    const after = {
      health: (await call(core, 'GET', '/__mock/health')).body,
      scenarios: (await call(core, 'GET', '/__mock/scenarios')).body,
      clock: core.clock.offset,
      agent: (await call(core, 'GET', `/v1/agents/${agentId}`)).body,
    };
    expect(after).toEqual(before);
    // The random source was rolled back too: the next id is the one a fake that never saw the failed batch gives.
    const twin = coreOn(undefined);
    await deploy(twin, 'before');
    expect(await deploy(core, 'next')).toBe(await deploy(twin, 'next'));
    await close(storage);
    const restarted = coreOn(openStorage());
    expect(restarted.store.agentCount).toBe(38);
    expect(restarted.store.taskCount).toBe(0);
    expect(restarted.clock.offset).toBe(0);
    expect(restarted.store.get(agentId)?.status).toBe('active');
  });
});
