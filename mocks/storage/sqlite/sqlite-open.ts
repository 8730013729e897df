// Opening a state database: the lock that keeps it to one server, the schema made or verified object by object, and every
// stored document, task and agent checked before anything is served.
import { DatabaseSync } from 'node:sqlite';
import { catalogueIds } from '../../state/catalogue.ts';
import { inspectStateFile, StateRefusal } from './sqlite-state-file.ts';
import { checkDocument, checkStoredAgent, checkStoredTask } from '../stored-records.ts';

/** `PRAGMA application_id` of a state database of this kit ("ARK1"), so another program's database is refused. */
const APPLICATION_ID = 0x41524b31;
/** `PRAGMA user_version`: the layout below. */
const FORMAT_VERSION = 1;
/** SQLite's page cache, in KiB (a negative cache_size is KiB). */
const PAGE_CACHE_KIB = 8192;

// The exact statements that made the tables: a database whose tables were made otherwise is not one of ours.
const TABLES: Record<string, string> = {
  meta: 'CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)',
  // No index on agent_id: ids are random, so each insert would dirty a random index page, and WAL writes whole pages
  // (what that costs: docs/performance.md, "With `--state store.db`"). The server keeps agent_id → seq in memory
  // instead.
  agents:
    'CREATE TABLE agents (seq INTEGER PRIMARY KEY, agent_id TEXT NOT NULL, catalogue_index INTEGER, status TEXT NOT NULL, tasks_failed INTEGER NOT NULL, agent TEXT NOT NULL)',
  tasks:
    'CREATE TABLE tasks (seq INTEGER PRIMARY KEY, task_id TEXT NOT NULL UNIQUE, in_history INTEGER NOT NULL, task TEXT NOT NULL)',
};

/** Changed catalogue agents are few and listed often; deploys never touch this partial index. */
const INDEXES: Record<string, string> = {
  agents_catalogue: 'CREATE INDEX agents_catalogue ON agents (catalogue_index) WHERE catalogue_index IS NOT NULL',
};

/** What a state database must have been made for, and how much it may hold. */
export interface StateExpectations {
  seed: number;
  catalogueSize: number;
  /** The store's task bound: the database never holds more than twice it, so more is refused. */
  maxTasks: number;
}

type Refuse = (why: string) => never;
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Opens (or creates) a state database and checks all it holds; refuses, with one message saying what to do, a path
 * that is not one of ours, a database another server has open, or content that breaks the spec's schemas.
 * Returns the open database and where each agent is (agent_id → seq), which the server keeps in memory.
 * @example const { db, agentIndex } = openStateDatabase('/tmp/store.db', { seed: 42, catalogueSize: 36, maxTasks: 10_000 });
 */
export function openStateDatabase(
  path: string,
  expected: StateExpectations,
): { db: DatabaseSync; agentIndex: Map<string, number> } {
  const refuse: Refuse = (why) => {
    throw new StateRefusal(`the state database ${path} ${why}`);
  };
  inspectStateFile(path);
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { timeout: 0 });
  } catch (error) {
    return refuse(`cannot be opened (${message(error)}); check the path and its permissions`);
  }
  try {
    lockAndTune(db, refuse);
    if (!verifySchema(db, refuse)) createSchema(db, expected);
    return { db, agentIndex: checkContent(db, expected, refuse) };
  } catch (error) {
    db.close();
    if (error instanceof StateRefusal) throw error;
    return refuse(`cannot be read (${message(error)}); move it away to start from the seed`);
  }
}

function lockAndTune(db: DatabaseSync, refuse: Refuse): void {
  // EXCLUSIVE: the lock taken by the first transaction is held until close, so a second server cannot open the file.
  // The WAL index then lives in this process's memory, not in a -shm file.
  db.exec('PRAGMA locking_mode = EXCLUSIVE');
  try {
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
  } catch (error) {
    if (/locked|busy/i.test(message(error)))
      refuse('is in use by another server (it holds the lock); stop that server, or pick another --state path');
    throw error;
  }
  db.exec('PRAGMA journal_mode = WAL');
  // NORMAL: a commit is in the WAL file (the OS holds it) before the answer, so it survives kill -9 and any crash of
  // this process; a power loss or kernel crash may lose the last commits (never tear the database: WAL replays whole
  // transactions only). FULL would also survive a power loss, at one fsync per batch, which costs deploys dearly
  // (docs/performance.md, "With `--state store.db`"), and this is a fake backend whose state can be re-seeded.
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
}

/**
 * False for an empty database (to be made); true for one of ours. Any schema object the kit did not make is refused:
 * a trigger or a view could change or drop acknowledged writes behind the fake's back.
 */
function verifySchema(db: DatabaseSync, refuse: Refuse): boolean {
  const objects = db.prepare('SELECT type, name, sql FROM sqlite_schema').all() as {
    type: string;
    name: string;
    sql: string | null;
  }[];
  if (objects.length === 0) return false;
  for (const object of objects)
    if (object.type !== 'table' && object.type !== 'index')
      refuse(
        `holds a ${object.type} ${object.name.slice(0, 140)} that this kit did not make (it could change what the fake stores); pass another --state path`,
      );
  // SQLite's own indexes (of PRIMARY KEY and UNIQUE) have no SQL; every other object must be exactly ours.
  const made = objects.filter((object) => object.sql !== null);
  const ours: Record<string, string> = { ...TABLES, ...INDEXES };
  const applicationId = (db.prepare('PRAGMA application_id').get() as { application_id: number }).application_id;
  const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  const sameObjects =
    made.length === Object.keys(ours).length &&
    made.every((object) => ours[object.name] === object.sql) &&
    objects.every((object) => object.sql !== null || object.name.startsWith('sqlite_autoindex_'));
  if (applicationId !== APPLICATION_ID || version !== FORMAT_VERSION || !sameObjects)
    refuse('is not a state database of this kit (or of this version); pass another --state path');
  return true;
}

function createSchema(db: DatabaseSync, expected: StateExpectations): void {
  db.exec('BEGIN');
  for (const sql of [...Object.values(TABLES), ...Object.values(INDEXES)]) db.exec(sql);
  db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
  db.exec(`PRAGMA user_version = ${FORMAT_VERSION}`);
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(
    'catalogue',
    JSON.stringify({ seed: expected.seed, size: expected.catalogueSize }),
  );
  db.exec('COMMIT');
}

/** Every document, task and agent, checked before anything is served; the first fault refuses the database. */
function checkContent(db: DatabaseSync, expected: StateExpectations, refuse: Refuse): Map<string, number> {
  checkDocuments(db, expected, refuse);
  checkTasks(db, expected, refuse);
  return checkAgents(db, expected, refuse);
}

function checkDocuments(db: DatabaseSync, expected: StateExpectations, refuse: Refuse): void {
  const documents = db.prepare('SELECT key, value FROM meta').all() as { key: unknown; value: unknown }[];
  for (const { key, value } of documents) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(value));
    } catch {
      refuse(`holds a document ${String(key)} that is not valid JSON; move it away to start from the seed`);
    }
    const checked = checkDocument(String(key), parsed);
    if (!checked.ok)
      refuse(`holds an invalid ${String(key)} document: ${checked.reason}; move it away to start from the seed`);
    if (key === 'catalogue') {
      const { seed, size } = parsed as { seed: number; size: number };
      if (seed !== expected.seed || size !== expected.catalogueSize)
        refuse(
          `was made for --seed ${seed} --agents ${size}, not --seed ${expected.seed} --agents ${expected.catalogueSize}; start with those, or pick another --state path`,
        );
    }
  }
  if (!documents.some((document) => document.key === 'catalogue')) refuse('has no catalogue document; move it away');
}

function checkTasks(db: DatabaseSync, expected: StateExpectations, refuse: Refuse): void {
  const taskCount = (db.prepare('SELECT count(*) AS n FROM tasks').get() as { n: number }).n;
  if (taskCount > 2 * expected.maxTasks)
    refuse(`holds ${taskCount} tasks, more than --max-tasks ${expected.maxTasks} keeps (twice it); raise --max-tasks`);
  for (const row of db.prepare('SELECT task_id, in_history, task FROM tasks').iterate() as Iterable<{
    task_id: unknown;
    in_history: unknown;
    task: unknown;
  }>) {
    const checked = checkStoredTask(row.task);
    const name = String(row.task_id).slice(0, 140);
    if (!checked.ok) refuse(`holds an invalid task ${name}: ${checked.reason}; move it away to start from the seed`);
    if (checked.value.taskId !== row.task_id || (row.in_history !== 0 && row.in_history !== 1))
      refuse(`holds a task ${name} whose columns disagree with its record; move it away to start from the seed`);
  }
}

interface StoredAgentRow {
  seq: number;
  agent_id: unknown;
  catalogue_index: unknown;
  status: unknown;
  tasks_failed: unknown;
  agent: unknown;
}

/** Checks every agent row; returns agent_id → seq (the server's index in memory). */
function checkAgents(db: DatabaseSync, expected: StateExpectations, refuse: Refuse): Map<string, number> {
  let ids: string[] | undefined;
  const agentIndex = new Map<string, number>();
  const rows = db
    .prepare('SELECT seq, agent_id, catalogue_index, status, tasks_failed, agent FROM agents')
    .iterate() as Iterable<StoredAgentRow>;
  for (const row of rows) {
    const name = String(row.agent_id).slice(0, 140);
    const checked = checkStoredAgent(row.agent);
    if (!checked.ok) refuse(`holds an invalid agent ${name}: ${checked.reason}; move it away to start from the seed`);
    const index = row.catalogue_index;
    const columnsAgree =
      checked.value.agentId === row.agent_id &&
      checked.value.status === row.status &&
      Number.isSafeInteger(row.tasks_failed) &&
      (row.tasks_failed as number) >= 0 &&
      (index === null ||
        (Number.isSafeInteger(index) && (index as number) >= 0 && (index as number) < expected.catalogueSize));
    if (!columnsAgree)
      refuse(`holds an agent ${name} whose columns disagree with its record; move it away to start from the seed`);
    if (index !== null) {
      ids ??= catalogueIds(expected.seed, expected.catalogueSize);
      if (ids[index as number] !== row.agent_id)
        refuse(
          `holds an agent ${name} that is not catalogue agent ${String(index)}; move it away to start from the seed`,
        );
    }
    if (agentIndex.has(checked.value.agentId))
      refuse(`holds the agent ${name} twice; move it away to start from the seed`);
    agentIndex.set(checked.value.agentId, row.seq);
  }
  return agentIndex;
}
