// Two cores in one process on one PostgreSQL database, racing on purpose: both notice the same due tasks at once, and
// only one settlement of each may count; the loser's request is handled again on the fresh state.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { createFixedClock } from '../../mocks/domain/clock.ts';
import { createMockCore, type MockCore } from '../../mocks/assembly/mock-core.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';
import { openPostgresState } from '../../mocks/storage/postgres/postgres-state.ts';
import { openPostgresStorage, type PostgresStorage } from '../../mocks/storage/postgres/postgres-storage.ts';
import { answerCore } from '../support/core-call.ts';
import { newDatabase } from './databases.ts';

const START = Date.parse('2026-11-20T12:00:00Z');
let token = '';
const answer = (core: MockCore, method: string, path: string, body?: unknown) =>
  answerCore(core, method, path, body, token);

describe('PostgreSQL storage shared by two cores', () => {
  const storages: PostgresStorage[] = [];
  const cores: MockCore[] = [];
  let url = '';
  beforeAll(async () => {
    token = `Bearer ${await mintToken({ sub: 'race', now: START })}`;
    url = await newDatabase();
    for (let index = 0; index < 2; index += 1) {
      const state = await openPostgresState(url, { seed: 5, catalogueSize: 36, logger: silentLogger });
      storages.push(state.storage);
      const clock = createFixedClock(START + index * 86_400_000);
      cores.push(createMockCore({ seed: 5, ...state, clock, wallClock: () => START, logger: silentLogger }));
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(storages.map((storage) => storage.close()));
  });

  it('gives the two cores distinct replica numbers and random streams', () => {
    expect(storages.map((storage) => storage.replica)).toEqual([0, 1]);
    expect(storages[0]?.randomStart).not.toBe(storages[1]?.randomStart);
  });

  it('keeps both of two concurrent changes of one agent: a status change and a settlement', async () => {
    const [a, b] = cores as [MockCore, MockCore];
    // B's clock runs a day ahead of A's: every task A submits is due for B and for A not yet. A pause through A and a
    // GET through B then change the same agent at once, each from the same version of its row; both must survive.
    for (let round = 0; round < 4; round += 1) {
      const deployed = await answer(a, 'POST', '/v1/agents/deploy', {
        name: `Raced ${round}`,
        category: 'defi',
        model: 'gpt-4',
        initialSupply: 100,
      });
      const agentId = String(deployed.body.agentId);
      const taskIds: string[] = [];
      for (let index = 0; index < 12; index += 1)
        taskIds.push(
          String((await answer(a, 'POST', `/v1/agents/${agentId}/execute`, { task: `t${index}` })).body.taskId),
        );
      const [paused, read] = await Promise.all([
        answer(a, 'PUT', `/__mock/agents/${agentId}/status`, { status: 'paused' }),
        answer(b, 'GET', `/v1/agents/${agentId}`),
      ]);
      expect(paused.status).toBe(200);
      expect(read.status).toBe(200);
      let completed = 0;
      for (const taskId of taskIds) {
        const view = await answer(b, 'GET', `/__mock/tasks/${taskId}`);
        expect(['completed', 'failed']).toContain(view.body.status);
        if (view.body.status === 'completed') completed += 1;
      }
      const after = await answer(b, 'GET', `/v1/agents/${agentId}`);
      expect(after.body.status).toBe('paused');
      const performance = after.body.performance as { tasksCompleted: number; successRate: number };
      expect(performance.tasksCompleted).toBe(completed);
      expect(performance.successRate).toBe(Math.round((completed / 12) * 10_000) / 10_000);
    }
  });

  it('answers each request from a pull that started after it arrived: a deploy acknowledged by A is read by B', async () => {
    const [a, b] = cores as [MockCore, MockCore];
    // B is kept busy with GETs, so some pull of B is always running when A acknowledges a deploy: the GET that
    // follows must not be answered from it.
    let done = false;
    const noise = Array.from({ length: 6 }, async () => {
      while (!done) await answer(b, 'GET', '/v1/agents/agt_unknown_agent');
    });
    const chains = Array.from({ length: 4 }, async (_, chain) => {
      for (let index = 0; index < 6; index += 1) {
        const name = `Concurrent ${chain}.${index}`;
        const deployed = await answer(a, 'POST', '/v1/agents/deploy', {
          name,
          category: 'defi',
          model: 'gpt-4',
          initialSupply: 100,
        });
        expect(deployed.status).toBe(201);
        const read = await answer(b, 'GET', `/v1/agents/${String(deployed.body.agentId)}`);
        expect(read.status).toBe(200);
        expect(read.body.name).toBe(name);
      }
    });
    try {
      await Promise.all(chains);
    } finally {
      done = true;
      await Promise.all(noise);
    }
  });

  it('shares its pulls: 48 GETs arriving together cost two pulls (the one running and the next), not one each', async () => {
    const [a] = cores as [MockCore];
    const storage = storages[0] as PostgresStorage;
    const before = storage.counters.heads + storage.counters.pulls;
    const answers = await Promise.all(
      Array.from({ length: 48 }, () => answer(a, 'GET', '/v1/agents/agt_nobody_deployed')),
    );
    expect(answers.every((one) => one.status === 404)).toBe(true);
    expect(storage.counters.heads + storage.counters.pulls - before).toBeLessThanOrEqual(2);
  });

  it('checks a stored agent when it is first read: a tampered row answers 503, the others are served', async () => {
    const [a] = cores as [MockCore, MockCore];
    const deploy = (name: string) =>
      answer(a, 'POST', '/v1/agents/deploy', { name, category: 'defi', model: 'gpt-4', initialSupply: 100 });
    const ids = [];
    for (const name of ['Kept', 'Broken JSON', 'Wrong status']) ids.push(String((await deploy(name)).body.agentId));
    const [kept, broken, wrongStatus] = ids as [string, string, string];
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // A change number of their own, as a writer that is not the kit would leave them.
      await client.query('UPDATE ark_changes SET version = version + 1');
      await client.query(
        'UPDATE ark_agents SET agent = replace(agent, \'"name":"Broken JSON"\', \'"name":7\'), version = (SELECT version FROM ark_changes) WHERE agent_id = $1',
        [broken],
      );
      await client.query(
        "UPDATE ark_agents SET status = 'paused', version = (SELECT version FROM ark_changes) WHERE agent_id = $1",
        [wrongStatus],
      );
    } finally {
      await client.end();
    }
    // A replica started now loads the rows without reading each record; the first read checks it.
    const state = await openPostgresState(url, { seed: 5, catalogueSize: 36, logger: silentLogger });
    storages.push(state.storage);
    const late = createMockCore({
      seed: 5,
      ...state,
      clock: createFixedClock(START),
      wallClock: () => START,
      logger: silentLogger,
    });
    for (const core of [a, late]) {
      expect((await answer(core, 'GET', `/v1/agents/${kept}`)).status).toBe(200);
      for (const agentId of [broken, wrongStatus]) {
        const read = await answer(core, 'GET', `/v1/agents/${agentId}`);
        expect(read.status).toBe(503);
        expect(read.body.type).toMatch(/state-unavailable$/);
      }
    }
  });

  it('loads a database of more than one page (5,000 agents) whole, in deploy order', async () => {
    const [a] = cores as [MockCore, MockCore];
    const template = String(
      (
        await answer(a, 'POST', '/v1/agents/deploy', {
          name: 'Paged',
          category: 'defi',
          model: 'gpt-4',
          initialSupply: 9,
        })
      ).body.agentId,
    );
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    let expected = 0;
    try {
      // 12,000 copies of the template with ids of their own: three pages and a half.
      await client.query(
        `INSERT INTO ark_agents (agent_id, catalogue_index, status, tasks_failed, agent, version)
         SELECT id, NULL, 'active', 0, replace(t.agent, $1, id), (SELECT version FROM ark_changes)
         FROM ark_agents t, LATERAL (SELECT 'agt_p' || lpad(i::text, 6, '0') AS id FROM generate_series(1, 12000) i) g
         WHERE t.agent_id = $1`,
        [template],
      );
      const count = await client.query<{ n: string }>(
        'SELECT count(*)::text AS n FROM ark_agents WHERE catalogue_index IS NULL',
      );
      expected = Number(count.rows[0]?.n);
    } finally {
      await client.end();
    }
    const storage = await openPostgresStorage(url, { seed: 5, catalogueSize: 36, logger: silentLogger });
    storages.push(storage);
    expect(expected).toBeGreaterThan(12_000);
    expect(storage.agents.deployedCount).toBe(expected);
    expect(storage.agents.get('agt_p012000')?.name).toBe('Paged');
    const last = storage.agents.deployedPage(expected - 1, 1).agents[0];
    expect(last?.agentId).toBe('agt_p012000');
  });
  it('counts deployed agents written but not committed yet, and none from before a reset not committed yet', async () => {
    const fresh = await newDatabase();
    const state = await openPostgresState(fresh, { seed: 5, catalogueSize: 36, logger: silentLogger });
    const storage = state.storage;
    storages.push(storage);
    const core = createMockCore({ seed: 5, ...state, clock: createFixedClock(START), logger: silentLogger });
    const deploy = (name: string) =>
      core.store.deploy({ name, category: 'defi', model: 'gpt-4', initialSupply: 10 }, 'counter');
    for (const name of ['one', 'two', 'three']) deploy(name);
    expect(storage.agents.deployedCount).toBe(3);
    await core.persist();
    deploy('four');
    deploy('five');
    const writing = core.persist();
    // The batch goes out on the next turn of the event loop: then three are in the database, two being written.
    await new Promise(setImmediate);
    expect(storage.agents.deployedCount).toBe(5);
    deploy('six');
    core.reset();
    // The reset hides every agent before it, the batch being written too; the catalogue agents it writes again are
    // not deployed ones.
    expect(storage.agents.deployedCount).toBe(0);
    deploy('seven');
    expect(storage.agents.deployedCount).toBe(1);
    await writing;
    await core.persist();
    expect(storage.agents.deployedCount).toBe(1);
    const other = await openPostgresStorage(fresh, { seed: 5, catalogueSize: 36, logger: silentLogger });
    storages.push(other);
    expect(other.agents.deployedCount).toBe(1);
  });
});
