import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callCore as call, deployThroughCore as deploy } from '../../../test/support/core-call.ts';
import { createFixedClock } from '../../domain/clock.ts';
import { createMockCore, type MockCore } from '../../assembly/mock-core.ts';
import { silentLogger } from '../../domain/logger.ts';
import type { MockResponse } from '../../core/mock-http.ts';
import { expectConforms } from '../../test-api/expect-conforms.ts';
import { openSqliteStorage, type SqliteStorage } from './sqlite-storage.ts';

const START = Date.parse('2026-11-20T12:00:00.000Z');
let directory: string;
let file: string;
const open: SqliteStorage[] = [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'agent-registry-sqlite-'));
  file = join(directory, 'store.db');
});
afterEach(async () => {
  for (const storage of open.splice(0)) await storage.close();
  rmSync(directory, { recursive: true, force: true });
});

function openStorage(options: { maxTasks?: number; catalogueSize?: number } = {}): SqliteStorage {
  const storage = openSqliteStorage(file, {
    seed: 5,
    catalogueSize: options.catalogueSize ?? 36,
    maxTasks: options.maxTasks ?? 100,
    logger: silentLogger,
    agentCacheSize: 4,
  });
  open.push(storage);
  return storage;
}

function coreOn(storage: SqliteStorage | undefined): MockCore {
  return createMockCore({
    seed: 5,
    clock: createFixedClock(START),
    logger: silentLogger,
    maxTasks: 100,
    failureRatio: 0,
    ...(storage && { storage }),
  });
}

async function close(storage: SqliteStorage): Promise<void> {
  open.splice(open.indexOf(storage), 1);
  await storage.close();
}

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
    const reader = new DatabaseSync(file, { readOnly: true });
    try {
      // The writer holds the exclusive lock: a reader cannot even look while it runs.
      expect(() => reader.prepare('SELECT count(*) FROM agents').get()).toThrow(/locked/);
    } finally {
      reader.close();
    }
    await close(storage);
    const after = new DatabaseSync(file, { readOnly: true });
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

/** What is done to a database, and the start-up refusal it must cause. */
const HOSTILE: [string, (db: DatabaseSync) => void, RegExp][] = [
  [
    'coverage counts that are not whole numbers',
    (db) => db.exec(`UPDATE meta SET value = json_set(value, '$.entries[0].count', -1.5) WHERE key = 'coverage'`),
    /invalid coverage document: the coverage snapshot has an invalid entry at \/entries\/0/,
  ],
  [
    'a name that is a number',
    (db) => db.exec(`UPDATE agents SET agent = json_set(agent, '$.name', 123)`),
    /invalid agent agt_\w+: \/name must be a string/,
  ],
  [
    'an unknown status',
    (db) => db.exec(`UPDATE agents SET agent = json_set(agent, '$.status', 'bogus'), status = 'bogus'`),
    /invalid agent agt_\w+: \/status must be one of active, paused, deprecated/,
  ],
  [
    'a 50 MB description',
    (db) => db.exec(`UPDATE agents SET agent = json_set(agent, '$.description', printf('%.*c', 50000000, 'x'))`),
    /invalid agent agt_\w+: is 5000\d{4} characters long, more than 65536/,
  ],
  [
    'a description longer than a deploy allows',
    (db) => db.exec(`UPDATE agents SET agent = json_set(agent, '$.description', printf('%.*c', 2001, 'x'))`),
    /invalid agent agt_\w+: \/description must NOT have more than 2000 characters/,
  ],
  [
    'an undocumented field',
    (db) => db.exec(`UPDATE agents SET agent = json_set(agent, '$.owner', 'mallory')`),
    /invalid agent agt_\w+: \/owner is not a documented field/,
  ],
  [
    'an agent stored twice',
    (db) =>
      db.exec(
        'INSERT INTO agents (agent_id, catalogue_index, status, tasks_failed, agent) SELECT agent_id, catalogue_index, status, tasks_failed, agent FROM agents WHERE catalogue_index IS NULL',
      ),
    /holds the agent agt_\w+ twice/,
  ],
  [
    'a status column that disagrees with the record',
    (db) => db.exec(`UPDATE agents SET status = 'paused'`),
    /agent agt_\w+ whose columns disagree/,
  ],
  [
    'a task that finishes "soon"',
    (db) => db.exec(`UPDATE tasks SET task = json_set(task, '$.finishesAt', 'soon')`),
    /invalid task tsk_\w+: \/finishesAt must be whole milliseconds/,
  ],
  [
    'a task of an unknown priority',
    (db) => db.exec(`UPDATE tasks SET task = json_set(task, '$.priority', 'urgent')`),
    /invalid task tsk_\w+: \/priority must be one of low, normal, high/,
  ],
  [
    'a catalogue of 50,000,000 agents',
    (db) => db.exec(`UPDATE meta SET value = '{"seed":5,"size":50000000}' WHERE key = 'catalogue'`),
    /invalid catalogue document: must be \{ seed, size \} with a 32-bit seed and a size from 0 to 1000000/,
  ],
  [
    'a clock offset that is negative',
    (db) => db.exec(`UPDATE meta SET value = '-5' WHERE key = 'clock'`),
    /invalid clock document: must be a finite number of milliseconds/,
  ],
  [
    'a scenario with a ratio of 7',
    (db) => db.exec(`UPDATE meta SET value = '{"taskFailureRatio":7}' WHERE key = 'scenarios'`),
    /invalid scenarios document: \/taskFailureRatio must be <= 1/,
  ],
  [
    // Each would be served to every client as if a test had set it: PUT /__mock/overrides refuses all of these.
    'an override of a status the operation does not document',
    (db) =>
      db.exec(
        `INSERT OR REPLACE INTO meta (key, value) VALUES ('overrides', '[{"operation":"getAgent","status":418}]')`,
      ),
    /invalid overrides document: \/0: The override 418 of getAgent breaks spec\/openapi\.yaml/,
  ],
  [
    'an override whose body breaks the schema',
    (db) =>
      db.exec(
        `INSERT OR REPLACE INTO meta (key, value) VALUES ('overrides', '[{"operation":"getAgent","status":200,"body":{"agentId":5}}]')`,
      ),
    /invalid overrides document: \/0: The override 200 of getAgent breaks spec\/openapi\.yaml/,
  ],
  [
    'an override with a member PUT /__mock/overrides does not take',
    (db) =>
      db.exec(
        `INSERT OR REPLACE INTO meta (key, value) VALUES ('overrides', '[{"operation":"getAgent","status":404,"script":"x"}]')`,
      ),
    /invalid overrides document: \/0\/script is not a documented field/,
  ],
  [
    'a document that is not JSON',
    (db) => db.exec(`UPDATE meta SET value = '{' WHERE key = 'random'`),
    /not valid JSON/,
  ],
  [
    'a table of its own',
    (db) => db.exec('CREATE TABLE extra (x)'),
    /is not a state database of this kit \(or of this version\)/,
  ],
  [
    // Each deploy would be acknowledged, then deleted behind the fake's back: lost at the next restart.
    'a trigger that deletes every deployed agent',
    (db) => db.exec('CREATE TRIGGER t AFTER INSERT ON agents BEGIN DELETE FROM agents WHERE seq = NEW.seq; END'),
    /holds a trigger t that this kit did not make/,
  ],
  [
    'a view',
    (db) => db.exec('CREATE VIEW v AS SELECT agent_id FROM agents'),
    /holds a view v that this kit did not make/,
  ],
  [
    'an index of its own',
    (db) => db.exec('CREATE INDEX by_status ON agents (status)'),
    /is not a state database of this kit \(or of this version\)/,
  ],
  [
    'another application id',
    (db) => db.exec('PRAGMA application_id = 7'),
    /is not a state database of this kit \(or of this version\)/,
  ],
  [
    'a changed catalogue agent at the wrong index',
    (db) => db.exec('UPDATE agents SET catalogue_index = 3 WHERE catalogue_index = 2'),
    /agent agt_\w+ that is not catalogue agent 3/,
  ],
];

// Seeds pass one check of agents, the one a restart applies to what it loads: what was acknowledged opens again and is
// served conformant; what could not be is a 400 naming the field, never a 201 followed by a refused database.
const SEEDS: [string, Record<string, unknown>, 201 | 400, string?][] = [
  ['a creator of 70,000 characters', { creator: 'c'.repeat(70_000) }, 400, '/creator'],
  ['a creator of 256 characters', { creator: 'c'.repeat(256) }, 201],
  ['the agent id deploy (its path is the deploy path)', { agentId: 'deploy' }, 400, '/agentId'],
  ['an agent id holding NUL', { agentId: 'agt_a\u0000b' }, 400, '/agentId'],
  ['an agent id holding escape sequences', { agentId: 'agt_\u001b]0;TITLE\u0007\u001b[2J' }, 400, '/agentId'],
  [
    'figures near the largest double, a task then settling on them',
    {
      tokenomics: { price: 1e9 },
      performance: { tasksCompleted: 5, totalRevenue: 1e305, averageResponseTime: 1e308 },
      statistics: { volume24h: 1e305 },
    },
    201,
  ],
];

describe('what a seed acknowledges is served conformant and opens again after a restart', () => {
  it.each(SEEDS)('%s', async (_name, body, status, path) => {
    const first = openStorage();
    const core = coreOn(first);
    const seeded = await call(core, 'POST', '/__mock/agents', body);
    expect(seeded.status, seeded.body.slice(0, 300)).toBe(status);
    if (status === 400) {
      expect(JSON.parse(seeded.body).errors.map((error: { path: string }) => error.path)).toContain(path);
      return;
    }
    const { agentId } = JSON.parse(seeded.body) as { agentId: string };
    expect((await call(core, 'POST', '/__mock/tasks', { agentId, status: 'completed' })).status).toBe(201);
    const read = async (on: MockCore): Promise<MockResponse> => {
      const answer = await call(on, 'GET', `/v1/agents/${agentId}`);
      expectConforms({ method: 'GET', path: `/v1/agents/${agentId}`, ...answer });
      return answer;
    };
    const before = await read(core);
    await close(first);
    expect((await read(coreOn(openStorage()))).body).toBe(before.body);
  });
});

describe('a state database with hostile content is refused at start, with one line saying what and where', () => {
  it.each(HOSTILE)('%s', async (_name, tamper, refusal) => {
    const first = openStorage();
    const core = coreOn(first);
    const agentId = await deploy(core, 'victim');
    const catalogueId = core.store.list({ offset: 2, limit: 1 }).agents[0]?.agentId ?? '';
    await call(core, 'PUT', `/__mock/agents/${catalogueId}/status`, { status: 'deprecated' });
    await call(core, 'PUT', `/__mock/agents/${agentId}/status`, { status: 'active' });
    await call(core, 'POST', `/v1/agents/${agentId}/execute`, { task: 'x' });
    await call(core, 'PUT', '/__mock/scenarios', { taskFailureRatio: 0.5 });
    await call(core, 'POST', '/__mock/clock/advance', { seconds: 1 });
    await close(first);
    // Untouched, it opens.
    await close(openStorage());
    const db = new DatabaseSync(file);
    tamper(db);
    db.close();
    expect(() => openStorage()).toThrow(refusal);
    try {
      openStorage();
    } catch (error) {
      expect(String(error instanceof Error && error.message)).toMatch(/^the state database \S+store\.db [^\n]+$/);
    }
  });

  it('refuses more tasks than --max-tasks keeps, a catalogue made for other flags, and a non-SQLite file', async () => {
    const first = openStorage();
    const core = coreOn(first);
    const agentId = await deploy(core, 'busy');
    for (let index = 0; index < 3; index += 1) await call(core, 'POST', `/v1/agents/${agentId}/execute`, { task: 'x' });
    await close(first);
    expect(() => openStorage({ maxTasks: 1 })).toThrow(/holds 3 tasks, more than --max-tasks 1 keeps/);
    expect(() => openStorage({ catalogueSize: 40 })).toThrow(
      /was made for --seed 5 --agents 36, not --seed 5 --agents 40/,
    );
    writeFileSync(join(directory, 'notes.db'), 'hello');
    expect(() => openSqliteStorage(join(directory, 'notes.db'), { seed: 5, catalogueSize: 36, maxTasks: 100 })).toThrow(
      /is not an SQLite database/,
    );
  });
});
