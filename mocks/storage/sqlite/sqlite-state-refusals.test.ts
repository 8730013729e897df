// A state database is checked when it is opened: hostile content is refused at start with one line saying what and
// where, and what a seed acknowledged opens again, served conformant.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { callCore as call, deployThroughCore as deploy } from '../../../test/support/core-call.ts';
import { useSqliteState } from '../../../test/support/sqlite-state.ts';
import type { MockResponse } from '../../core/mock-http.ts';
import type { MockCore } from '../../assembly/mock-core.ts';
import { expectConforms } from '../../test-api/expect-conforms.ts';
import { openSqliteStorage } from './sqlite-storage.ts';

const state = useSqliteState();
const { openStorage, coreOn, close } = state;

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
    const db = new DatabaseSync(state.file);
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
    writeFileSync(join(state.directory, 'notes.db'), 'hello');
    expect(() =>
      openSqliteStorage(join(state.directory, 'notes.db'), { seed: 5, catalogueSize: 36, maxTasks: 100 }),
    ).toThrow(/is not an SQLite database/);
  });
});
