// `--state store.db`: the store's storage in SQLite (node:sqlite, WAL), one transaction per tick of mutations (group commit).
// Node only: the msw adapters never import this module, so browsers and jsdom never see node:sqlite.
import { closeSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync, type StatementResultingChanges, type StatementSync } from 'node:sqlite';
import type { Agent, AgentStatus } from '../spec/index.ts';
import { catalogueIds } from './catalogue.ts';
import { consoleLogger, type Logger } from './logger.ts';
import {
  StorageWriteError,
  type AgentRecord,
  type AgentTable,
  type SavedTask,
  type Storage,
  type TaskLog,
} from './storage.ts';
import { checkDocument, checkStoredAgent, checkStoredTask } from './stored-records.ts';
import type { TaskRecord } from './task-lifecycle.ts';

/** `PRAGMA application_id` of a state database of this kit ("ARK1"), so another program's database is refused. */
const APPLICATION_ID = 0x41524b31;
/** `PRAGMA user_version`: the layout below. */
const FORMAT_VERSION = 1;
/** Agents kept parsed in memory at most; the rest are read from the database when asked for. */
export const DEFAULT_AGENT_CACHE_SIZE = 5000;
/** SQLite's page cache, in KiB (a negative cache_size is KiB). */
const PAGE_CACHE_KIB = 8192;

// The exact statements that made the tables: a database whose tables were made otherwise is not one of ours.
const TABLES: Record<string, string> = {
  meta: 'CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)',
  // No index on agent_id: ids are random, so each insert would dirty a random index page, and WAL writes whole pages
  // (measured: 13,000 inserts/s with it, 227,000 without). The server keeps agent_id → seq in memory instead.
  agents:
    'CREATE TABLE agents (seq INTEGER PRIMARY KEY, agent_id TEXT NOT NULL, catalogue_index INTEGER, status TEXT NOT NULL, tasks_failed INTEGER NOT NULL, agent TEXT NOT NULL)',
  tasks:
    'CREATE TABLE tasks (seq INTEGER PRIMARY KEY, task_id TEXT NOT NULL UNIQUE, in_history INTEGER NOT NULL, task TEXT NOT NULL)',
};

/** Changed catalogue agents are few and listed often; deploys never touch this partial index. */
const INDEXES: Record<string, string> = {
  agents_catalogue: 'CREATE INDEX agents_catalogue ON agents (catalogue_index) WHERE catalogue_index IS NOT NULL',
};

export interface SqliteStorageOptions {
  /** Seed and size of the catalogue the server serves: a database made for another one is refused. */
  seed: number;
  catalogueSize: number;
  /** The store's task bound: the database never holds more than twice it, so more is refused. */
  maxTasks: number;
  /** Parsed agents kept in memory (default 5,000). */
  agentCacheSize?: number;
  logger?: Logger;
}

/** The SQLite storage, plus what only its owner needs. */
export interface SqliteStorage extends Storage {
  readonly path: string;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** What the file starts with: nothing (new), an SQLite database, an old JSON state, or something else. */
function sniff(path: string): 'missing' | 'sqlite' | 'json' | 'other' {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw new Error(
      `cannot read the state database ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}); check its permissions`,
    );
  }
  try {
    const head = Buffer.alloc(16);
    const length = readSync(descriptor, head, 0, 16, 0);
    if (length === 0) return 'missing';
    if (head.subarray(0, length).toString('latin1') === 'SQLite format 3\0') return 'sqlite';
    return /^\s*\{/.test(head.subarray(0, length).toString('latin1')) ? 'json' : 'other';
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Opens (or creates) a state database and checks all it holds; refuses, with one message saying what to do, a file that
 * is not one of ours, an old JSON state, a database another server has open, or content that breaks the spec's schemas.
 * @example const storage = openSqliteStorage('store.db', { seed: 42, catalogueSize: 36, maxTasks: 10_000 });
 */
export function openSqliteStorage(file: string, options: SqliteStorageOptions): SqliteStorage {
  const path = resolve(file);
  const refuse = (why: string): never => {
    throw new Error(`the state database ${path} ${why}`);
  };
  const kind = sniff(path);
  if (kind === 'json')
    refuse(
      'is JSON, not SQLite: JSON state files of earlier versions are not read (the state is kept in SQLite now); pass a new path (e.g. --state store.db) to start from the seed',
    );
  if (kind === 'other') refuse('is not an SQLite database; pass another --state path (or move this file away)');
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    refuse(`cannot be created (${message(error)}); pick another --state path`);
  }
  let db: DatabaseSync;
  let agentIndex: Map<string, number>;
  try {
    db = new DatabaseSync(path, { timeout: 0 });
  } catch (error) {
    return refuse(`cannot be opened (${message(error)}); check the path and its permissions`);
  }
  try {
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
    // transactions only). FULL would also survive a power loss, at one fsync per batch: measured here, that halved
    // deploy req/s, and this is a fake backend whose state can be re-seeded.
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
    const tables = db
      .prepare("SELECT name, sql FROM sqlite_schema WHERE type IN ('table', 'index') AND sql IS NOT NULL")
      .all() as {
      name: string;
      sql: string;
    }[];
    const expected: Record<string, string> = { ...TABLES, ...INDEXES };
    const applicationId = (db.prepare('PRAGMA application_id').get() as { application_id: number }).application_id;
    if (tables.length === 0) {
      db.exec('BEGIN');
      for (const sql of Object.values(expected)) db.exec(sql);
      db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
      db.exec(`PRAGMA user_version = ${FORMAT_VERSION}`);
      db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(
        'catalogue',
        JSON.stringify({ seed: options.seed, size: options.catalogueSize }),
      );
      db.exec('COMMIT');
    } else {
      const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
      const sameTables =
        tables.length === Object.keys(expected).length && tables.every((table) => expected[table.name] === table.sql);
      if (applicationId !== APPLICATION_ID || version !== FORMAT_VERSION || !sameTables)
        refuse('is not a state database of this kit (or of this version); pass another --state path');
    }
    agentIndex = checkContent(db, options, refuse);
  } catch (error) {
    db.close();
    if (error instanceof Error && error.message.startsWith('the state database')) throw error;
    return refuse(`cannot be read (${message(error)}); move it away to start from the seed`);
  }
  return new SqliteStorageImpl(db, path, options, agentIndex);
}

/**
 * Every document, task and agent, checked before anything is served; the first fault refuses the database.
 * Returns where each agent is (agent_id → seq), which the server keeps in memory instead of an index.
 */
function checkContent(
  db: DatabaseSync,
  options: SqliteStorageOptions,
  refuse: (why: string) => never,
): Map<string, number> {
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
      if (seed !== options.seed || size !== options.catalogueSize)
        refuse(
          `was made for --seed ${seed} --agents ${size}, not --seed ${options.seed} --agents ${options.catalogueSize}; start with those, or pick another --state path`,
        );
    }
  }
  if (!documents.some((document) => document.key === 'catalogue')) refuse('has no catalogue document; move it away');

  const taskCount = (db.prepare('SELECT count(*) AS n FROM tasks').get() as { n: number }).n;
  if (taskCount > 2 * options.maxTasks)
    refuse(`holds ${taskCount} tasks, more than --max-tasks ${options.maxTasks} keeps (twice it); raise --max-tasks`);
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

  let ids: string[] | undefined;
  const agentIndex = new Map<string, number>();
  for (const row of db
    .prepare('SELECT seq, agent_id, catalogue_index, status, tasks_failed, agent FROM agents')
    .iterate() as Iterable<{
    seq: number;
    agent_id: unknown;
    catalogue_index: unknown;
    status: unknown;
    tasks_failed: unknown;
    agent: unknown;
  }>) {
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
        (Number.isSafeInteger(index) && (index as number) >= 0 && (index as number) < options.catalogueSize));
    if (!columnsAgree)
      refuse(`holds an agent ${name} whose columns disagree with its record; move it away to start from the seed`);
    if (index !== null) {
      ids ??= catalogueIds(options.seed, options.catalogueSize);
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

interface AgentRow {
  agent: string;
  tasks_failed: number;
  catalogue_index: number | null;
}

/** Every statement the storage runs, prepared once. */
function prepareStatements(db: DatabaseSync) {
  const sql = (text: string): StatementSync => db.prepare(text);
  return {
    getAgent: sql('SELECT agent, tasks_failed, catalogue_index FROM agents WHERE seq = ?'),
    agentSeqs: sql('SELECT seq, agent_id FROM agents'),
    addAgent: sql('INSERT INTO agents (agent_id, catalogue_index, status, tasks_failed, agent) VALUES (?, ?, ?, ?, ?)'),
    updateAgent: sql('UPDATE agents SET status = ?, tasks_failed = ?, agent = ? WHERE seq = ?'),
    clearAgents: sql('DELETE FROM agents'),
    countDeployed: sql('SELECT count(*) AS n FROM agents WHERE catalogue_index IS NULL'),
    catalogueStatuses: sql('SELECT agent_id, status FROM agents WHERE catalogue_index IS NOT NULL'),
    pageAll: sql('SELECT agent FROM agents WHERE catalogue_index IS NULL ORDER BY seq LIMIT ? OFFSET ?'),
    pageStatus: sql(
      'SELECT agent FROM agents WHERE catalogue_index IS NULL AND status = ? ORDER BY seq LIMIT ? OFFSET ?',
    ),
    countStatus: sql('SELECT count(*) AS n FROM agents WHERE catalogue_index IS NULL AND status = ?'),
    putTask: sql(
      'INSERT INTO tasks (task_id, in_history, task) VALUES (?, ?, ?) ON CONFLICT (task_id) DO UPDATE SET in_history = excluded.in_history, task = excluded.task',
    ),
    deleteTask: sql('DELETE FROM tasks WHERE task_id = ?'),
    clearTasks: sql('DELETE FROM tasks'),
    savedTasks: sql('SELECT in_history, task FROM tasks ORDER BY seq'),
    getDocument: sql('SELECT value FROM meta WHERE key = ?'),
    putDocument: sql(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ),
  };
}
type Statements = ReturnType<typeof prepareStatements>;

class SqliteStorageImpl implements SqliteStorage {
  readonly durable = true;
  readonly path: string;
  readonly agents: AgentTable;
  readonly tasks: TaskLog;
  #db: DatabaseSync;
  #logger: Logger;
  #statements: Statements;
  /** A transaction is open: this tick's batch. */
  #open = false;
  #scheduled = false;
  /** The first write of this batch that failed: the batch is then rolled back whole, and later writes skipped. */
  #failure: unknown;
  /** Set when memory could not be rebuilt after a rollback: nothing more is written, every commit is refused. */
  #broken: string | undefined;
  #documents = new Map<string, string>();
  #waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  #rollbackListeners: (() => void)[] = [];
  #cache = new Map<string, AgentRecord>();
  #cacheSize: number;
  #deployedCount: number;
  /** agent_id → seq of every stored agent (an index in memory: see TABLES). */
  #where: Map<string, number>;
  /** Agents added in this batch, to forget if it is rolled back; or the whole table was cleared in it. */
  #addedInBatch: string[] = [];
  #clearedInBatch = false;

  constructor(db: DatabaseSync, path: string, options: SqliteStorageOptions, where: Map<string, number>) {
    this.#db = db;
    this.#where = where;
    this.path = path;
    this.#logger = options.logger ?? consoleLogger;
    this.#cacheSize = Math.max(1, options.agentCacheSize ?? DEFAULT_AGENT_CACHE_SIZE);
    this.#statements = prepareStatements(db);
    this.#deployedCount = this.#countDeployed();
    this.agents = this.#agentTable();
    this.tasks = this.#taskLog();
  }

  readDocument(name: string): unknown {
    const pending = this.#documents.get(name);
    const text = pending ?? (this.#run('getDocument', name) as { value: string } | undefined)?.value;
    return text === undefined ? undefined : JSON.parse(text);
  }

  writeDocument(name: string, value: unknown): void {
    this.#documents.set(name, JSON.stringify(value));
    this.#schedule();
  }

  commit(): Promise<void> {
    if (this.#broken) return Promise.reject(new StorageWriteError(this.#broken));
    if (!this.#open && this.#documents.size === 0 && this.#failure === undefined) return Promise.resolve();
    return new Promise((resolvePromise, reject) => {
      this.#waiters.push({ resolve: resolvePromise, reject });
      this.#schedule();
    });
  }

  onRollback(listener: () => void): void {
    this.#rollbackListeners.push(listener);
  }

  async close(): Promise<void> {
    if (!this.#db.isOpen) return;
    this.#flush();
    this.#db.close();
  }

  /** Runs one statement of the current batch, opening it if needed; after a failure the rest of the batch is skipped. */
  #write(name: keyof Statements, ...values: (string | number | null)[]): StatementResultingChanges | undefined {
    let result: StatementResultingChanges | undefined;
    if (this.#broken || this.#failure !== undefined) return undefined;
    try {
      if (!this.#open) {
        this.#db.exec('BEGIN');
        this.#open = true;
      }
      result = this.#statements[name].run(...values);
    } catch (error) {
      this.#failure = error;
    }
    this.#schedule();
    return result;
  }

  #run(name: keyof Statements, ...values: (string | number | null)[]): unknown {
    return this.#statements[name].get(...values);
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // Every mutation of this tick joins the batch; the commit runs once they are all in (group commit).
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#scheduled = false;
    // A flush scheduled before close() ran finds nothing left: close() flushed it.
    if (!this.#db.isOpen) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    try {
      if (this.#failure !== undefined) throw this.#failure;
      if (this.#documents.size > 0) {
        if (!this.#open) {
          this.#db.exec('BEGIN');
          this.#open = true;
        }
        for (const [name, text] of this.#documents) this.#statements.putDocument.run(name, text);
      }
      if (this.#open) this.#db.exec('COMMIT');
      this.#open = false;
      this.#documents.clear();
      this.#addedInBatch = [];
      this.#clearedInBatch = false;
      for (const waiter of waiters) waiter.resolve();
    } catch (error) {
      const why = message(error);
      this.#logger.error(`could not write the state database ${this.path} (${why}); the change was rolled back`);
      this.#rollback();
      for (const waiter of waiters) waiter.reject(new StorageWriteError(why));
    }
  }

  /** Undoes the batch on disk, then lets memory follow what is stored. */
  #rollback(): void {
    try {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
    } catch {
      // SQLite may have rolled back on its own (a full disk does); either way nothing of the batch is stored.
    }
    this.#open = false;
    this.#failure = undefined;
    this.#documents.clear();
    this.#cache.clear();
    try {
      if (this.#clearedInBatch) {
        this.#where.clear();
        for (const row of this.#statements.agentSeqs.iterate() as Iterable<{ seq: number; agent_id: string }>)
          this.#where.set(row.agent_id, row.seq);
      } else {
        for (const agentId of this.#addedInBatch) this.#where.delete(agentId);
      }
      this.#addedInBatch = [];
      this.#clearedInBatch = false;
      this.#deployedCount = this.#countDeployed();
      for (const listener of this.#rollbackListeners) listener();
    } catch (error) {
      this.#broken = `the state database could not be read back after a failed write (${message(error)}); restart the server`;
      this.#logger.error(this.#broken);
    }
  }

  #countDeployed(): number {
    return (this.#run('countDeployed') as { n: number }).n;
  }

  #remember(record: AgentRecord): void {
    if (this.#cache.size >= this.#cacheSize) {
      const oldest = this.#cache.keys().next();
      if (!oldest.done) this.#cache.delete(oldest.value);
    }
    this.#cache.set(record.agent.agentId, record);
  }

  #agentTable(): AgentTable {
    const storage = this;
    return {
      get deployedCount() {
        return storage.#deployedCount;
      },
      get(agentId) {
        const cached = storage.#cache.get(agentId);
        if (cached) return cached;
        const seq = storage.#where.get(agentId);
        const row = seq === undefined ? undefined : (storage.#run('getAgent', seq) as AgentRow | undefined);
        if (!row) return undefined;
        // Checked when the database was opened, or written by this process since.
        const record: AgentRecord = {
          agent: JSON.parse(row.agent) as Agent,
          tasksFailed: row.tasks_failed,
          catalogueIndex: row.catalogue_index ?? undefined,
          json: row.agent,
        };
        storage.#remember(record);
        return record;
      },
      has(agentId) {
        return storage.#where.has(agentId);
      },
      add(record) {
        record.json = JSON.stringify(record.agent);
        const result = storage.#write(
          'addAgent',
          record.agent.agentId,
          record.catalogueIndex ?? null,
          record.agent.status,
          record.tasksFailed,
          record.json,
        );
        // Without a result the batch has already failed: the entry goes at its rollback.
        storage.#where.set(record.agent.agentId, result ? Number(result.lastInsertRowid) : -1);
        storage.#addedInBatch.push(record.agent.agentId);
        if (record.catalogueIndex === undefined) storage.#deployedCount += 1;
        storage.#remember(record);
      },
      changed(record) {
        record.json = JSON.stringify(record.agent);
        const seq = storage.#where.get(record.agent.agentId);
        if (seq !== undefined) storage.#write('updateAgent', record.agent.status, record.tasksFailed, record.json, seq);
      },
      changedCatalogueStatuses() {
        const rows = storage.#statements.catalogueStatuses.all() as { agent_id: string; status: AgentStatus }[];
        return new Map(rows.map((row) => [row.agent_id, row.status]));
      },
      deployedPage(offset, limit, status) {
        const rows = (
          status === undefined
            ? storage.#statements.pageAll.all(limit, offset)
            : storage.#statements.pageStatus.all(status, limit, offset)
        ) as { agent: string }[];
        const total =
          status === undefined ? storage.#deployedCount : (storage.#run('countStatus', status) as { n: number }).n;
        return { total, agents: rows.map((row) => JSON.parse(row.agent) as Agent) };
      },
      clear() {
        storage.#write('clearAgents');
        storage.#cache.clear();
        storage.#deployedCount = 0;
        storage.#where.clear();
        storage.#clearedInBatch = true;
      },
    };
  }

  #taskLog(): TaskLog {
    const storage = this;
    return {
      put(task, inHistory) {
        storage.#write('putTask', task.taskId, inHistory ? 1 : 0, JSON.stringify(task));
      },
      delete(taskId) {
        storage.#write('deleteTask', taskId);
      },
      clear() {
        storage.#write('clearTasks');
      },
      saved(): SavedTask[] {
        const rows = storage.#statements.savedTasks.all() as { in_history: number; task: string }[];
        return rows.map((row) => ({ task: JSON.parse(row.task) as TaskRecord, inHistory: row.in_history === 1 }));
      },
    };
  }
}
