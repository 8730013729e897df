// `--state postgres://…`: the store's storage in PostgreSQL (node-postgres), shared by every replica started on it.
// Reads stay synchronous, from a mirror of the rows; before each request the replica pulls what changed since the last
// change number it saw (one round trip, shared by the requests that arrive meanwhile), so a change acknowledged by one
// replica is seen by every request any replica receives after it. Writes are group-committed per tick in one
// `ark_apply` call, which refuses a batch built on rows another replica changed first; the core then handles it again.
// Node only: the msw adapters never import this module.
import pg from 'pg';
import type { Agent, AgentStatus } from '../../../spec/index.ts';
import { AgentCache } from '../agent-cache.ts';
import { agentJson, agentRecord, agentView } from '../../state/agent-record.ts';
import { consoleLogger, type Logger } from '../../core/logger.ts';
import {
  Batch,
  batchChanges,
  batchParameters,
  type BatchChanges,
  type PendingTask,
  type TaskBase,
} from './postgres-batch.ts';
import { Mirror, MirrorRowError, type PulledRow } from './postgres-mirror.ts';
import { APPLY_BATCH, COUNT_REQUEST, prepareSchema, TOMBSTONE_LAG } from './postgres-schema.ts';
import {
  StorageConflictError,
  StorageUnavailableError,
  StorageWriteError,
  type AgentRecord,
  type AgentTable,
  type SavedTask,
  type Storage,
  type TaskLog,
} from '../storage.ts';
import type { TaskRecord } from '../../state/task-lifecycle.ts';
import { postgresUrlProblem, redactPostgresUrl } from './postgres-url.ts';
import type { ReplicaStorage } from './replica-dispatch.ts';

/** Agents kept parsed in memory at most (the mirror keeps every agent's JSON text). */
const DEFAULT_POSTGRES_AGENT_CACHE_SIZE = 5000;
/** Documents of one replica alone (its random stream, its coverage counts): stored as `name@replica`, never pulled. */
const PRIVATE_DOCUMENTS = new Set(['random', 'coverage']);
/** Connections per replica: one pulls, one commits, the others count rate limits and load. */
const DEFAULT_POOL_SIZE = 6;
/**
 * Pulls running at once. One: every request arriving while it runs shares the next, so a busy replica wakes PostgreSQL
 * once per pull, not once per request. Three at once cost PostgreSQL 12–17 µs of CPU per GET against 4–6 with one, and
 * one at a time answers 1.14–2.05× the GETs (docs/performance.md, "Replicas on PostgreSQL"). Deploys do not wait for a
 * pull: they are answered without one (replica-dispatch.ts).
 */
const MAX_PULLS = 1;
/** Agents read per query when a replica loads the whole state. */
const LOAD_PAGE = 5000;
/** Longest wait for one query of the hot path; past it the database counts as unreachable (503). */
const QUERY_TIMEOUT_MS = 10_000;
/** Longest wait for one page of a whole-state load (a large database on a busy server is slow, not gone). */
const LOAD_QUERY_TIMEOUT_MS = 300_000;

export interface PostgresStorageOptions {
  /** Seed and size of the catalogue: every replica on one database must serve the same. */
  seed: number;
  catalogueSize: number;
  /** Parsed agents kept in memory (default 5,000). */
  agentCacheSize?: number;
  /** Connections per replica (default 6; one of them pulls at a time). */
  poolSize?: number;
  logger?: Logger;
}

/**
 * The PostgreSQL storage, plus what only its owner needs: what the replica layer uses (ReplicaStorage,
 * replica-dispatch.ts) and what openPostgresState hands the core (postgres-state.ts).
 */
export interface PostgresStorage extends Storage, ReplicaStorage {
  /** The URL without its password, for messages. */
  readonly location: string;
  /** This replica's number on the database (0 for the first ever started). */
  readonly replica: number;
  /**
   * The random state this replica starts from and a reset returns to: each replica has its own stream, so the ids two
   * replicas draw never collide.
   */
  readonly randomStart: number;
  /** Called after another replica changed what is stored (after the rollback listeners; a reset may move the clock back). */
  onReplicaChange(listener: () => void): void;
  /** What this replica's pulls and commits did so far (the bench and the tests read them). */
  readonly counters: Readonly<PostgresCounters>;
}

interface PostgresCounters {
  /** Pulls that read the change counter only: nothing was committed since the change memory holds. */
  heads: number;
  /** Pulls that read the rows changed since. */
  pulls: number;
  /** Committed batches memory took as the database holds them, with no pull bringing them back. */
  taken: number;
  /** Answers given without a pull first that held (answerUnpulled). */
  unpulled: number;
  /** Batches refused because a control change reached the database after answers without a pull began. */
  stale: number;
}

/** An attempt answered without a pull first, while it runs: the change memory held when it began. */
interface UnpulledAttempt {
  base: number;
  /** A batch written since it began found no control change after `base`. */
  holds: boolean;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

// Golden-ratio spacing of the replicas' positions in mulberry32's one cycle: streams start 2^32/φ draws apart.
const randomStart = (seed: number, replica: number): number =>
  (((seed ^ 0x9e3779b9) >>> 0) + Math.imul(Math.imul(replica, 0x9e3779b9) >>> 0, 0x6d2b79f5)) >>> 0;

/**
 * Rows changed after $1, up to the counter: no row has a later number, and a range bounded on both sides is what keeps
 * the plan PostgreSQL reuses (a generic plan, made without knowing $1) on the version index: for `version > $1` alone
 * it guesses a third of the table and scans all of it.
 */
const SINCE = 'version > $1 AND version <= (SELECT version FROM ark_changes)';
const TASKS_SINCE = `SELECT 't' AS k, task_id AS id, version::text AS version, seq, NULL::text AS s, NULL::int AS ci, NULL::int AS n, in_history AS h, task AS body FROM ark_tasks WHERE ${SINCE}`;
// Documents of one replica alone (`name@replica`) are never pulled.
const DOCUMENTS_SINCE =
  "SELECT 'd', name, version::text, NULL::bigint, NULL, NULL, NULL, NULL, value FROM ark_documents WHERE version > $1 AND name NOT LIKE '%@%'";
/**
 * Settings of every connection of a replica. No parallel query: on tables not analyzed yet (a new database, the first
 * minute of a run) the planner guesses a third of the rows match and plans workers for a pull that returns one row;
 * starting them takes 300–500 ms per pull (docs/performance.md, "Replicas on PostgreSQL"). Every query here reads a
 * few rows. Plans are left to PostgreSQL's own choice between a plan per run and one reused (the pull's ranges are
 * bounded for that): forcing a plan per run re-planned every statement of `ark_apply` at every commit, which doubled
 * its cost.
 */
export const SESSION_OPTIONS = '-c max_parallel_workers_per_gather=0';
/**
 * The change counter alone: the first query of every pull. When nothing changed since the change number a replica saw
 * (every GET while nobody writes, and every request of a replica whose own commits are all there is), the pull ends
 * here: one row read through a plan made once, instead of planning and running the four-table pull below.
 */
const HEAD = 'SELECT version::text AS version, cleared::text AS cleared FROM ark_changes';
/** One statement, so one snapshot: the change counter and every row written after the change number given. */
export const PULL = `SELECT 'v' AS k, NULL AS id, version::text AS version, cleared AS seq, NULL::text AS s, NULL::int AS ci, NULL::int AS n, NULL::boolean AS h, NULL::text AS body FROM ark_changes
UNION ALL SELECT 'a', agent_id, version::text, seq, status, catalogue_index, tasks_failed, NULL, agent FROM ark_agents WHERE ${SINCE}
UNION ALL ${TASKS_SINCE}
UNION ALL ${DOCUMENTS_SINCE}
ORDER BY k, seq`;

/**
 * Connects, creates or checks the tables, takes a replica number and loads the state; refuses with one line a database
 * it cannot reach or that was made for another seed, catalogue, spec version or kit version. The storage alone: a core
 * answers on it as a replica only with what openPostgresState (postgres-state.ts) adds.
 * @example const storage = await openPostgresStorage('postgres://fake@db/fake', { seed: 42, catalogueSize: 36 });
 */
export async function openPostgresStorage(url: string, options: PostgresStorageOptions): Promise<PostgresStorage> {
  const location = redactPostgresUrl(url);
  const urlProblem = postgresUrlProblem(url);
  if (urlProblem !== undefined) throw new Error(`the state database ${location} ${urlProblem}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    connectionTimeoutMillis: 5000,
    query_timeout: QUERY_TIMEOUT_MS,
    keepAlive: true,
    application_name: 'agent-registry-kit',
    options: SESSION_OPTIONS,
  });
  // A connection that dies while idle (the database restarted) is dropped by the pool; the next query reconnects.
  pool.on('error', () => {});
  const refuse = async (why: string): Promise<never> => {
    await pool.end().catch(() => {});
    throw new Error(`the state database ${location} ${why}`);
  };
  let replica = 0;
  let why: string | undefined;
  try {
    const client = await pool.connect();
    try {
      why = await prepareSchema(client, options);
      if (why === undefined) {
        const next = await client.query<{ n: string }>("SELECT nextval('ark_replicas') AS n");
        replica = Number(next.rows[0]?.n ?? 1) - 1;
      }
    } finally {
      // Before any pool.end(): the pool waits for every client it lent.
      client.release();
    }
  } catch (error) {
    return refuse(`cannot be used (${message(error)}); check the URL, that PostgreSQL runs and the user's rights`);
  }
  if (why !== undefined) return refuse(why);
  const storage = new PostgresStorageImpl(pool, location, replica, options);
  try {
    await storage.refresh();
  } catch (error) {
    return refuse(`cannot be loaded (${message(error)})`);
  }
  return storage;
}

class PostgresStorageImpl implements PostgresStorage {
  readonly durable = true;
  readonly location: string;
  readonly replica: number;
  readonly randomStart: number;
  readonly agents: AgentTable;
  readonly tasks: TaskLog;
  readonly counters: PostgresCounters = { heads: 0, pulls: 0, taken: 0, unpulled: 0, stale: 0 };
  #pool: pg.Pool;
  #logger: Logger;
  #mirror: Mirror;
  /** The last change number pulled (-1: nothing yet, load everything). */
  #seen = -1;
  /** Change numbers of this replica's own batches not pulled yet: pulling them back changes nothing. */
  #own = new Set<number>();
  #pending = new Batch();
  #inflight: Batch | undefined;
  /**
   * Batches committed but not pulled back yet, newest first: memory shows them over the mirror, so an answer waits on
   * the commit alone (not on a pull after it), and the next batch is written as soon as this one is.
   */
  #committed: Batch[] = [];
  #scheduled = false;
  /** Pulls whose query is running, at most MAX_PULLS. */
  #pulls = 0;
  /** The pull that starts when a running one ends (requests arriving meanwhile share it). */
  #queued: Promise<void> | undefined;
  #slotFree: (() => void) | undefined;
  /** Pulls' rows are applied one after the other, in the order the pulls started. */
  #applied: Promise<void> = Promise.resolve();
  #private = new Map<string, unknown>();
  #cache: AgentCache;
  /** The row version each parsed record was read at (a later update is conditional on it). */
  #baseOf = new WeakMap<AgentRecord, number>();
  #rollbackListeners: (() => void)[] = [];
  #replicaListeners: (() => void)[] = [];
  #closed = false;
  #outage = false;
  /**
   * A write failed and none succeeded since: the failure is logged once, not once per batch (an outage of 5 s wrote the
   * same line 670 times, each batch of retried requests failing again).
   */
  #writeFailing = false;
  /** Another replica changed an agent that a batch of this one is writing (see refresh). */
  #overlayStale = false;
  /** A whole load is running: it sets the mirror and the change number when it ends, so a commit may not meanwhile. */
  #loading = false;
  /** Attempts answered without a pull first, running now (answerUnpulled). */
  #unpulled = new Set<UnpulledAttempt>();
  /** The newest change a pull or load brought that changed a document or reset the state (a control change). */
  #controlVersion = 0;

  constructor(pool: pg.Pool, location: string, replica: number, options: PostgresStorageOptions) {
    this.#pool = pool;
    this.location = location;
    this.replica = replica;
    this.#logger = options.logger ?? consoleLogger;
    this.#mirror = new Mirror(options);
    this.#cache = new AgentCache(options.agentCacheSize ?? DEFAULT_POSTGRES_AGENT_CACHE_SIZE);
    this.randomStart = randomStart(options.seed, replica);
    this.#private.set('random', this.randomStart);
    this.agents = this.#agentTable();
    this.tasks = this.#taskLog();
  }

  readDocument(name: string): unknown {
    if (PRIVATE_DOCUMENTS.has(name)) return this.#private.get(name);
    for (const batch of this.#batches()) {
      const text = batch.documents.get(name);
      if (text !== undefined) return JSON.parse(text);
    }
    return this.#mirror.documents.get(name);
  }

  writeDocument(name: string, value: unknown): void {
    const text = JSON.stringify(value);
    if (PRIVATE_DOCUMENTS.has(name)) {
      // A replica's own stream is never rolled back: a retried deploy draws a new id, not the one that collided.
      this.#private.set(name, JSON.parse(text));
      // Nor written: nothing reads it back (a replica started again takes a new number, so a new stream), and it was
      // one more row to write with every batch.
      if (name === 'random') return;
      this.#pending.documents.set(`${name}@${this.replica}`, text);
    } else this.#pending.documents.set(name, text);
    this.#schedule();
  }

  commit(): Promise<void> {
    if (this.#pending.empty && this.#pending.waiters.length === 0) {
      const inflight = this.#inflight;
      if (!inflight) return Promise.resolve();
      return new Promise((resolve, reject) => inflight.waiters.push({ resolve, reject }));
    }
    return new Promise((resolve, reject) => {
      this.#pending.waiters.push({ resolve, reject });
      this.#schedule();
    });
  }

  onRollback(listener: () => void): void {
    this.#rollbackListeners.push(listener);
  }

  onReplicaChange(listener: () => void): void {
    this.#replicaListeners.push(listener);
  }

  async countRequest(now: number, windowMs: number, key: string): Promise<{ start: number; count: number }> {
    let row: { start: string; count: string } | undefined;
    try {
      row = (await this.#pool.query<{ start: string; count: string }>(COUNT_REQUEST, [now, windowMs, key])).rows[0];
    } catch (error) {
      throw this.#unavailable(error);
    }
    return { start: Number(row?.start ?? now), count: Number(row?.count ?? 1) };
  }

  async answerUnpulled<T>(attempt: () => Promise<T>): Promise<{ value: T; holds: boolean }> {
    const entry: UnpulledAttempt = { base: this.#seen, holds: false };
    this.#unpulled.add(entry);
    let value: T;
    try {
      value = await attempt();
    } finally {
      this.#unpulled.delete(entry);
    }
    // It wrote nothing, and no batch was written meanwhile: a pull that starts now says whether memory was current.
    if (!entry.holds) {
      await this.refresh();
      entry.holds = this.#controlVersion <= entry.base;
    }
    if (entry.holds) this.counters.unpulled += 1;
    return { value, holds: entry.holds };
  }

  /**
   * Brings memory up to what every replica committed. When another replica changed an agent this one is still
   * writing, its own batch is bound to be refused: it waits for that outcome rather than answer from it.
   */
  async refresh(): Promise<void> {
    await this.#pullShared();
    while (this.#overlayStale && (this.#inflight || !this.#pending.empty)) await this.commit().catch(() => {});
    this.#overlayStale = false;
  }

  /**
   * Pulls what changed. A request must be answered from a pull that started after it arrived (read-your-writes across
   * replicas), so each call starts one; while MAX_PULLS run, the calls made meanwhile share the pull that starts when
   * one ends.
   */
  #pullShared(): Promise<void> {
    if (this.#queued) return this.#queued;
    if (this.#pulls < MAX_PULLS) return this.#startPull();
    this.#queued = new Promise<void>((resolve) => {
      this.#slotFree = resolve;
    }).then(() => {
      this.#queued = undefined;
      return this.#startPull();
    });
    return this.#queued;
  }

  #startPull(): Promise<void> {
    this.#pulls += 1;
    const after = this.#seen;
    const fetched = after < 0 ? Promise.resolve(undefined) : this.#fetch(after);
    const release = (): void => {
      this.#pulls -= 1;
      const free = this.#slotFree;
      this.#slotFree = undefined;
      free?.();
    };
    fetched.then(release, release);
    const previous = this.#applied;
    const done = fetched.then(async (rows) => {
      await previous;
      if (rows === undefined) return this.#load();
      await this.#inflightOutcome(rows);
      return this.#applyPull(rows, after);
    });
    this.#applied = done.catch(() => {});
    return done;
  }

  async #fetch(after: number): Promise<PulledRow[]> {
    try {
      // Named: each connection parses them once (they run before every request).
      const head = (await this.#pool.query<{ version: string; cleared: string }>({ name: 'ark_head', text: HEAD }))
        .rows[0];
      const version = Number(head?.version);
      // One change not known yet while a batch of this replica is being written: most likely that batch, committed
      // and its answer on the way. Once it is in memory, the rows need no pull.
      if (version > after && this.#oneUnknown(after, version)) await this.#inflightSettled();
      // Nothing committed since what memory holds (or a counter that went back, which #applyPull answers with a load).
      if (head && version <= Math.max(after, this.#seen)) {
        this.counters.heads += 1;
        return [{ ...NO_COLUMNS, k: 'v', id: null, version: head.version, seq: head.cleared }];
      }
      this.counters.pulls += 1;
      return (await this.#pool.query<PulledRow>({ name: 'ark_pull', text: PULL, values: [after] })).rows;
    } catch (error) {
      throw this.#unavailable(error);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    while (this.#scheduled || this.#inflight || !this.#pending.empty) {
      await this.commit().catch(() => {});
      await new Promise(setImmediate);
    }
    await this.#pool.end();
  }

  /** The batches whose writes memory already shows over the mirror, newest first. */
  *#batches(): Generator<Batch> {
    yield this.#pending;
    if (this.#inflight) yield this.#inflight;
    yield* this.#committed;
  }

  /** Whether the mirror's rows are hidden by a reset not yet pulled back. */
  #mirrorCleared(): boolean {
    for (const batch of this.#batches()) if (batch.cleared) return true;
    return false;
  }

  /** The mirror now holds every change up to `version`: committed batches up to it need no overlay. */
  #pulledUpTo(version: number): void {
    while (this.#committed.length > 0 && (this.#committed.at(-1)?.version ?? 0) <= version) this.#committed.pop();
  }

  /**
   * Waits for the batch being written when a pull brought rows of a change this replica does not know yet: they may be
   * that batch's own (committed, its answer not read yet), which are not another replica's change. Taken for one, they
   * made every request wait for the batches after it (refresh) and dropped the parsed records.
   */
  async #inflightOutcome(rows: readonly PulledRow[]): Promise<void> {
    const unknown = (row: PulledRow): boolean =>
      row.k !== 'v' && Number(row.version) > this.#seen && !this.#own.has(Number(row.version));
    if (this.#inflight && rows.some(unknown)) await this.#inflightSettled();
  }

  /** Resolves once the batch being written (if any) is committed or refused. */
  #inflightSettled(): Promise<void> {
    const inflight = this.#inflight;
    if (!inflight) return Promise.resolve();
    return new Promise<void>((resolve) => inflight.waiters.push({ resolve, reject: () => resolve() }));
  }

  /** Whether a batch is being written and exactly one change in (after, version] is not known to be this replica's. */
  #oneUnknown(after: number, version: number): boolean {
    if (!this.#inflight || version - after > 8) return false;
    let unknown = 0;
    for (let change = after + 1; change <= version; change += 1) if (!this.#own.has(change)) unknown += 1;
    return unknown === 1;
  }

  /** Applies the rows of a pull that asked for changes after `after`, unless a pull applied before saw later ones. */
  async #applyPull(rows: PulledRow[], after: number): Promise<void> {
    if (this.#seen < 0) return this.#load();
    const head = rows.find((row) => row.k === 'v');
    const version = Number(head?.version ?? 0);
    const cleared = Number(head?.seq ?? 0);
    // A database whose counter went back was replaced: load it whole.
    if (version < after) return this.#load();
    if (version <= this.#seen && cleared <= this.#seen) {
      this.#recovered();
      return;
    }
    if (cleared > this.#seen || version - after > TOMBSTONE_LAG) return this.#load();
    this.#recovered();
    // Rows up to what memory has seen were applied already, by a pull that started earlier.
    const fresh = after < this.#seen ? rows.filter((row) => Number(row.version) > this.#seen) : rows;
    const foreign = fresh.some((row) => row.k !== 'v' && !this.#own.has(Number(row.version)));
    const effect = this.#mirror.apply(fresh);
    if (foreign && effect.documents) this.#controlVersion = version;
    this.#seen = version;
    this.#pulledUpTo(version);
    for (const own of this.#own) if (own <= version) this.#own.delete(own);
    if (!foreign) return;
    for (const agentId of effect.agents)
      if (this.#overlaid(agentId)) this.#overlayStale = true;
      else this.#cache.forget(agentId);
    if (effect.tasks || effect.documents) this.#changedElsewhere();
  }

  /** Loads every row in one consistent snapshot (at start, after a reset, or when far behind). */
  async #load(): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw this.#unavailable(error);
    }
    this.#loading = true;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const head = await client.query<{ version: string }>('SELECT version::text AS version FROM ark_changes');
      const mirror = this.#mirror;
      mirror.clear();
      let after = '0';
      for (;;) {
        // pg reads query_timeout from the query's config too (its types leave it out). The order is the column's
        // (ark_agents.seq, by the index), not the text column `seq` of the output: that sorted every row per page as
        // text and made pages skip rows past the first.
        const query = {
          text: `SELECT 'a' AS k, agent_id AS id, version::text AS version, seq::text AS seq, status AS s, catalogue_index AS ci, tasks_failed AS n, NULL::boolean AS h, agent AS body FROM ark_agents WHERE seq > $1 ORDER BY ark_agents.seq LIMIT ${LOAD_PAGE}`,
          values: [after],
          query_timeout: LOAD_QUERY_TIMEOUT_MS,
        };
        const page = await client.query<PulledRow>(query);
        mirror.apply(page.rows);
        const last = page.rows.at(-1);
        if (!last || page.rows.length < LOAD_PAGE) break;
        after = last.seq ?? after;
      }
      const rest = await client.query<PulledRow>(`${TASKS_SINCE} UNION ALL ${DOCUMENTS_SINCE} ORDER BY k, seq`, [-1]);
      mirror.apply(rest.rows);
      await client.query('COMMIT');
      this.#seen = Number(head.rows[0]?.version ?? 0);
      this.#controlVersion = this.#seen;
      this.#pulledUpTo(this.#seen);
      for (const own of this.#own) if (own <= this.#seen) this.#own.delete(own);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error instanceof Error && error.name === 'MirrorRowError'
        ? new StorageUnavailableError(`the state database ${this.location} ${error.message}`)
        : this.#unavailable(error);
    } finally {
      this.#loading = false;
      client.release();
    }
    this.#recovered();
    this.#cache.clear();
    this.#changedElsewhere();
  }

  /** An agent as the mirror holds it, checked on first read: a row that cannot be served answers 503. */
  #mirrorAgent(agentId: string): Agent | undefined {
    try {
      return this.#mirror.agent(agentId);
    } catch (error) {
      if (!(error instanceof MirrorRowError)) throw error;
      this.#logger.error(`the state database ${this.location} ${error.message}`);
      throw new StorageUnavailableError(`the state database ${error.message}`);
    }
  }

  #unavailable(error: unknown): StorageUnavailableError {
    if (!this.#outage) this.#logger.error(`the state database ${this.location} cannot be reached (${message(error)})`);
    this.#outage = true;
    return new StorageUnavailableError(`the state database cannot be reached: ${message(error)}`);
  }

  #recovered(): void {
    if (this.#outage) this.#logger.info(`the state database ${this.location} is reachable again`);
    this.#outage = false;
  }

  #changedElsewhere(): void {
    for (const listener of this.#rollbackListeners) listener();
    for (const listener of this.#replicaListeners) listener();
  }

  #overlaid(agentId: string): boolean {
    return this.#pending.agents.has(agentId) || (this.#inflight?.agents.has(agentId) ?? false);
  }

  #schedule(): void {
    if (this.#scheduled || this.#inflight) return;
    this.#scheduled = true;
    // Every mutation of this tick joins the batch; it is written once they are all in (group commit).
    setImmediate(() => void this.#flush());
  }

  async #flush(): Promise<void> {
    this.#scheduled = false;
    const batch = this.#pending;
    this.#pending = new Batch();
    if (batch.doomed) return this.#fail(batch, batch.doomed);
    if (batch.empty) return batch.settle();
    this.#inflight = batch;
    // Answers given without a pull first and still running: this batch is written only if their memory was current.
    const unpulled = [...this.#unpulled];
    const base = unpulled.length > 0 ? Math.min(...unpulled.map((entry) => entry.base)) : null;
    try {
      const changes = batchChanges(batch, (taskId) => this.#taskBase(taskId));
      const result = await this.#pool.query<{ v: string | null }>({
        name: 'ark_apply',
        text: APPLY_BATCH,
        values: batchParameters(changes, base),
      });
      const written = result.rows[0]?.v;
      if (written === null || written === undefined) {
        this.counters.stale += 1;
        throw new StorageConflictError(
          'a control change reached the database after requests were answered from memory',
        );
      }
      for (const entry of unpulled) entry.holds = true;
      const version = Number(written);
      batch.version = version;
      this.#own.add(version);
      for (const record of batch.agents.values()) this.#baseOf.set(record, version);
      // Committed: the answers go now and the next batch is written at once. When the batch is the change right after
      // the last one memory holds, the mirror takes its rows as the database now holds them (no pull brings them
      // back); otherwise memory shows it over the mirror until a pull brings its rows in the database's order.
      if (!this.#takeCommitted(batch, changes, version)) {
        this.#committed.unshift(batch);
        // Another replica committed meanwhile. Requests answered without a pull (deploys) would leave memory behind
        // for as long as they are all there is: a pull nobody waits for brings it up to date.
        void this.#pullShared().catch(() => {});
      }
      this.#inflight = undefined;
      this.#writeFailing = false;
      // The next batch (the writes that arrived meanwhile) is sent before these answers are written: its commit runs
      // while this replica writes them, not after. The pool hands the query its connection on the next tick, so the
      // answers go on the tick after that.
      if (!this.#pending.empty || this.#pending.waiters.length > 0) void this.#flush();
      process.nextTick(() => batch.settle());
    } catch (error) {
      this.#inflight = undefined;
      this.#fail(batch, this.#writeError(error));
    } finally {
      if (!this.#pending.empty || this.#pending.waiters.length > 0) this.#schedule();
    }
  }

  /** Puts a committed batch in the mirror if nothing else was committed since what it holds; false if it cannot. */
  #takeCommitted(batch: Batch, changes: BatchChanges, version: number): boolean {
    if (batch.cleared || this.#loading || this.#seen < 0 || version !== this.#seen + 1) return false;
    try {
      this.#mirror.applyCommitted(changes, version);
    } catch {
      // Not expected of rows this replica wrote; the next pull brings them back (and says what is wrong with them).
      return false;
    }
    this.#seen = version;
    this.#own.delete(version);
    this.counters.taken += 1;
    return true;
  }

  #writeError(error: unknown): StorageWriteError {
    if (error instanceof StorageConflictError) return error;
    if ((error as { code?: unknown }).code === 'AR001') return new StorageConflictError(message(error));
    const why = message(error);
    if (!this.#writeFailing)
      this.#logger.error(
        `could not write the state database ${this.location} (${why}); the change was rolled back (logged once until a write succeeds)`,
      );
    this.#writeFailing = true;
    return new StorageWriteError(why);
  }

  /** A batch was not written: its answers fail, the next batch (built on it) too, and memory follows the mirror. */
  #fail(batch: Batch, error: StorageWriteError): void {
    batch.settle(error);
    const next = this.#pending;
    if (!next.empty || next.waiters.length > 0) {
      const doomed = new Batch();
      doomed.doomed = error;
      doomed.waiters.push(...next.waiters.splice(0));
      this.#pending = doomed;
      this.#schedule();
    }
    this.#cache.clear();
    for (const listener of this.#rollbackListeners) listener();
  }

  /** What the database holds of a task: as the newest committed batch not pulled yet left it, else as pulled. */
  #taskBase(taskId: string, from = 0): TaskBase {
    for (let index = from; index < this.#committed.length; index += 1) {
      const batch = this.#committed[index] as Batch;
      const task = batch.tasks.get(taskId);
      if (task) {
        const before = batch.cleared ? NO_TASK : this.#taskBase(taskId, index + 1);
        // The same rules as batchChanges: a task settled and forgotten within one batch left no row.
        if (!before.exists && task.deleted) return NO_TASK;
        return { exists: true, settled: task.settled || before.settled, inHistory: task.inHistory && !task.deleted };
      }
      if (batch.cleared) return NO_TASK;
    }
    const row = this.#mirror.tasks.get(taskId);
    return row ? { exists: true, settled: row.task.settled, inHistory: row.inHistory } : NO_TASK;
  }

  /** The record memory shows for an agent: a written one, or one parsed from the mirror. */
  #record(agentId: string): AgentRecord | undefined {
    const cached = this.#cache.get(agentId);
    if (cached) return cached;
    for (const batch of this.#batches()) {
      const record = batch.agents.get(agentId);
      if (record) return record;
      if (batch.cleared) return undefined;
    }
    const row = this.#mirror.agents.get(agentId);
    if (!row) return undefined;
    const record = agentRecord(this.#mirrorAgent(agentId) as Agent, row.tasksFailed, row.catalogueIndex);
    record.json = row.json;
    this.#baseOf.set(record, row.version);
    this.#cache.remember(record);
    return record;
  }

  /** Deployed agents as memory shows them, in deploy order: the mirror's, then those written since. */
  *#deployed(): Generator<{ status: AgentStatus; agent: () => Agent }> {
    const overlay = (agentId: string): AgentRecord | undefined => {
      for (const batch of this.#batches()) {
        const record = batch.agents.get(agentId);
        if (record) return record;
      }
      return undefined;
    };
    const hidden = this.#mirrorCleared();
    if (!hidden)
      for (const [agentId, row] of this.#mirror.agents) {
        if (row.catalogueIndex !== undefined) continue;
        const record = overlay(agentId);
        yield record
          ? { status: record.status, agent: () => agentView(record) }
          : { status: row.status, agent: () => this.#mirrorAgent(agentId) as Agent };
      }
    const batches = [...this.#batches()].reverse();
    const start = Math.max(
      0,
      batches.findLastIndex((batch) => batch.cleared),
    );
    for (const batch of batches.slice(start))
      for (const agentId of batch.newAgents) {
        const record = batch.agents.get(agentId);
        if (!record || record.catalogueIndex !== undefined || (!hidden && this.#mirror.agents.has(agentId))) continue;
        const latest = overlay(agentId) ?? record;
        yield { status: latest.status, agent: () => agentView(latest) };
      }
  }

  /**
   * The mirror's deployed agents (unless a reset hides them) and those written since: no walk over the mirror. Runs on
   * every deploy (`--max-agents`), so it walks only each batch's deployed new agents, newest batch first, down to the
   * newest reset (a reset hides the batches before it).
   */
  #deployedCount(): number {
    const hidden = this.#mirrorCleared();
    let count = hidden ? 0 : this.#mirror.deployedCount;
    for (const batch of this.#batches()) {
      if (hidden) count += batch.newDeployed.size;
      else for (const agentId of batch.newDeployed) if (!this.#mirror.agents.has(agentId)) count += 1;
      if (batch.cleared) break;
    }
    return count;
  }

  #agentTable(): AgentTable {
    const storage = this;
    return {
      get deployedCount() {
        return storage.#deployedCount();
      },
      get: (agentId) => storage.#record(agentId),
      has: (agentId) => storage.#record(agentId) !== undefined,
      add(record) {
        record.json = agentJson(record);
        const id = record.agentId;
        storage.#pending.agents.set(id, record);
        storage.#pending.newAgents.add(id);
        if (record.catalogueIndex === undefined) storage.#pending.newDeployed.add(id);
        storage.#cache.remember(record);
        storage.#schedule();
      },
      changed(record) {
        record.json = agentJson(record);
        const id = record.agentId;
        const pending = storage.#pending;
        if (!pending.newAgents.has(id) && !pending.bases.has(id)) {
          const inflight = storage.#inflight;
          pending.bases.set(
            id,
            inflight?.agents.has(id)
              ? inflight
              : (storage.#baseOf.get(record) ?? storage.#mirror.agents.get(id)?.version ?? -1),
          );
        }
        pending.agents.set(id, record);
        storage.#schedule();
      },
      changedCatalogueStatuses() {
        const statuses = new Map<string, AgentStatus>();
        if (!storage.#mirrorCleared())
          for (const agentId of storage.#mirror.catalogueAgents) {
            const row = storage.#mirror.agents.get(agentId);
            if (row) statuses.set(agentId, row.status);
          }
        for (const batch of [...storage.#batches()].reverse())
          for (const record of batch.agents.values())
            if (record.catalogueIndex !== undefined) statuses.set(record.agentId, record.status);
        return statuses;
      },
      deployedPage(offset, limit, status) {
        const agents: Agent[] = [];
        let total = 0;
        for (const entry of storage.#deployed()) {
          if (status && entry.status !== status) continue;
          if (total >= offset && agents.length < limit) agents.push(entry.agent());
          total += 1;
        }
        return { total, agents };
      },
      clear() {
        const pending = storage.#pending;
        pending.cleared = true;
        pending.agents.clear();
        pending.newAgents.clear();
        pending.newDeployed.clear();
        pending.bases.clear();
        pending.tasks.clear();
        storage.#cache.clear();
        storage.#schedule();
      },
    };
  }

  #taskLog(): TaskLog {
    const storage = this;
    const put = (taskId: string, task: PendingTask): void => {
      storage.#pending.tasks.set(taskId, task);
      storage.#schedule();
    };
    return {
      put: (task, inHistory) =>
        put(task.taskId, { text: JSON.stringify(task), settled: task.settled, inHistory, deleted: false }),
      delete(taskId) {
        // Only settled tasks are forgotten whole; the row keeps the settled record as a tombstone.
        const known = storage.#savedTasks().get(taskId)?.task;
        const text = known ? JSON.stringify({ ...known, settled: true }) : '';
        put(taskId, { text, settled: true, inHistory: false, deleted: true });
      },
      clear() {
        storage.#pending.cleared = true;
        storage.#pending.tasks.clear();
        storage.#schedule();
      },
      saved: () => [...storage.#savedTasks().values()],
    };
  }

  /** Every task memory shows, oldest first, as copies (the ledger changes its tasks in place). */
  #savedTasks(): Map<string, SavedTask> {
    const saved = new Map<string, SavedTask>();
    if (!this.#mirrorCleared())
      for (const [taskId, row] of this.#mirror.tasks)
        saved.set(taskId, { task: { ...row.task }, inHistory: row.inHistory });
    const batches = [...this.#batches()].reverse();
    const start = Math.max(
      0,
      batches.findLastIndex((batch) => batch.cleared),
    );
    for (const batch of batches.slice(start))
      for (const [taskId, task] of batch.tasks) {
        if (task.deleted) saved.delete(taskId);
        else saved.set(taskId, { task: JSON.parse(task.text) as TaskRecord, inHistory: task.inHistory });
      }
    return saved;
  }
}

const NO_TASK: TaskBase = { exists: false, settled: false, inHistory: false };
const NO_COLUMNS = { s: null, ci: null, n: null, h: null, body: null } as const;
