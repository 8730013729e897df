// `--state postgres://…`: the store's storage in PostgreSQL (node-postgres), shared by every replica started on it.
// Reads stay synchronous, from a mirror of the rows; before each request the replica pulls what changed since the last
// change number it saw (one round trip, shared by the requests that arrive meanwhile), so a change acknowledged by one
// replica is seen by every request any replica receives after it. Writes are group-committed per tick in one
// `ark_apply` call, which refuses a batch built on rows another replica changed first; the core then handles it again.
// The parts: postgres-pull.ts (pulls and loads), postgres-writer.ts (group commit), postgres-tables.ts (the two table
// views), postgres-health.ts (outage state, the shared rate counter) over postgres-memory.ts (what memory holds).
// Node only: the msw adapters never import this module.
import pg from 'pg';
import { AgentCache } from '../agent-cache.ts';
import { consoleLogger, type Logger } from '../../domain/logger.ts';
import type { AgentTable, Storage, TaskLog } from '../../state/storage.ts';
import { countRequest, DatabaseHealth, message } from './postgres-health.ts';
import { ReplicaMemory, type PostgresCounters } from './postgres-memory.ts';
import { Mirror } from './postgres-mirror.ts';
import { Puller, SESSION_OPTIONS } from './postgres-pull.ts';
import { prepareSchema } from './postgres-schema.ts';
import { postgresAgentTable, postgresTaskLog } from './postgres-tables.ts';
import { postgresUrlProblem, redactPostgresUrl } from './postgres-url.ts';
import { GroupWriter, type UnpulledAttempt } from './postgres-writer.ts';
import type { ReplicaStorage } from './replica-dispatch.ts';

/** Agents kept parsed in memory at most (the mirror keeps every agent's JSON text). */
const DEFAULT_POSTGRES_AGENT_CACHE_SIZE = 5000;
/** Documents of one replica alone (its random stream, its coverage counts): stored as `name@replica`, never pulled. */
const PRIVATE_DOCUMENTS = new Set(['random', 'coverage']);
/** Connections per replica: one pulls, one commits, the others count rate limits and load. */
const DEFAULT_POOL_SIZE = 6;
/** Longest wait for one query of the hot path; past it the database counts as unreachable (503). */
const QUERY_TIMEOUT_MS = 10_000;

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

// Golden-ratio spacing of the replicas' positions in mulberry32's one cycle: streams start 2^32/φ draws apart.
const randomStart = (seed: number, replica: number): number =>
  (((seed ^ 0x9e3779b9) >>> 0) + Math.imul(Math.imul(replica, 0x9e3779b9) >>> 0, 0x6d2b79f5)) >>> 0;

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
  #pool: pg.Pool;
  #memory: ReplicaMemory;
  #health: DatabaseHealth;
  #writer: GroupWriter;
  #puller: Puller;
  #private = new Map<string, unknown>();
  #closed = false;

  constructor(pool: pg.Pool, location: string, replica: number, options: PostgresStorageOptions) {
    this.#pool = pool;
    this.location = location;
    this.replica = replica;
    const memory = new ReplicaMemory(
      new Mirror(options),
      new AgentCache(options.agentCacheSize ?? DEFAULT_POSTGRES_AGENT_CACHE_SIZE),
    );
    this.#memory = memory;
    this.#health = new DatabaseHealth(location, options.logger ?? consoleLogger);
    this.#writer = new GroupWriter(pool, memory, this.#health, () => void this.#puller.pullShared().catch(() => {}));
    this.#puller = new Puller(pool, memory, this.#writer, this.#health);
    this.randomStart = randomStart(options.seed, replica);
    this.#private.set('random', this.randomStart);
    const parts = { memory, writer: this.#writer, health: this.#health };
    this.agents = postgresAgentTable(parts);
    this.tasks = postgresTaskLog(parts);
  }

  get counters(): Readonly<PostgresCounters> {
    return this.#memory.counters;
  }

  readDocument(name: string): unknown {
    if (PRIVATE_DOCUMENTS.has(name)) return this.#private.get(name);
    for (const batch of this.#writer.batches()) {
      const text = batch.documents.get(name);
      if (text !== undefined) return JSON.parse(text);
    }
    return this.#memory.mirror.documents.get(name);
  }

  writeDocument(name: string, value: unknown): void {
    const text = JSON.stringify(value);
    if (PRIVATE_DOCUMENTS.has(name)) {
      // A replica's own stream is never rolled back: a retried deploy draws a new id, not the one that collided.
      this.#private.set(name, JSON.parse(text));
      // Nor written: nothing reads it back (a replica started again takes a new number, so a new stream), and it was
      // one more row to write with every batch.
      if (name === 'random') return;
      this.#writer.pending.documents.set(`${name}@${this.replica}`, text);
    } else this.#writer.pending.documents.set(name, text);
    this.#writer.schedule();
  }

  commit(): Promise<void> {
    return this.#writer.commit();
  }

  onRollback(listener: () => void): void {
    this.#memory.rollbackListeners.push(listener);
  }

  onReplicaChange(listener: () => void): void {
    this.#memory.replicaListeners.push(listener);
  }

  countRequest(now: number, windowMs: number, key: string): Promise<{ start: number; count: number }> {
    return countRequest(this.#pool, this.#health, now, windowMs, key);
  }

  async answerUnpulled<T>(attempt: () => Promise<T>): Promise<{ value: T; holds: boolean }> {
    const entry: UnpulledAttempt = { base: this.#memory.seen, holds: false };
    this.#writer.unpulled.add(entry);
    let value: T;
    try {
      value = await attempt();
    } finally {
      this.#writer.unpulled.delete(entry);
    }
    // It wrote nothing, and no batch was written meanwhile: a pull that starts now says whether memory was current.
    if (!entry.holds) {
      await this.refresh();
      entry.holds = this.#memory.controlVersion <= entry.base;
    }
    if (entry.holds) this.#memory.counters.unpulled += 1;
    return { value, holds: entry.holds };
  }

  refresh(): Promise<void> {
    return this.#puller.refresh();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    while (this.#writer.busy) {
      await this.commit().catch(() => {});
      await new Promise(setImmediate);
    }
    await this.#pool.end();
  }
}
