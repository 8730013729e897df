// How a PostgreSQL replica keeps memory up to what every replica committed: before each request it pulls what changed
// since the last change number it saw (one round trip, shared by the requests that arrive meanwhile), so a change
// acknowledged by one replica is seen by every request any replica receives after it; at start, after a reset or when
// far behind it loads every row in one snapshot.
import type pg from 'pg';
import type { DatabaseHealth } from './postgres-health.ts';
import type { ReplicaMemory } from './postgres-memory.ts';
import { MirrorRowError, type PulledRow } from './postgres-mirror.ts';
import { TOMBSTONE_LAG } from './postgres-schema.ts';
import type { GroupWriter } from './postgres-writer.ts';
import { StorageUnavailableError } from '../../state/storage.ts';

/**
 * Pulls running at once. One: every request arriving while it runs shares the next, so a busy replica wakes PostgreSQL
 * once per pull, not once per request; docs/performance.md ("Replicas on PostgreSQL") has the figures against more at
 * once. Deploys do not wait for a pull: they are answered without one (replica-dispatch.ts).
 */
const MAX_PULLS = 1;
/** Agents read per query when a replica loads the whole state. */
const LOAD_PAGE = 5000;
/** Longest wait for one page of a whole-state load (a large database on a busy server is slow, not gone). */
const LOAD_QUERY_TIMEOUT_MS = 300_000;

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
 * minute of a run) the planner guesses a third of the rows match and plans workers for a pull that returns one row,
 * and starting them costs far more than the pull (docs/performance.md, "Replicas on PostgreSQL"). Every query here
 * reads a few rows. Plans are left to PostgreSQL's own choice between a plan per run and one reused (the pull's ranges
 * are bounded for that): forcing a plan per run re-planned every statement of `ark_apply` at every commit.
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

const NO_COLUMNS = { s: null, ci: null, n: null, h: null, body: null } as const;

/**
 * The pulls of one replica: at most MAX_PULLS at once, their rows applied in the order they started.
 * @example const puller = new Puller(pool, memory, writer, health); await puller.refresh();
 */
export class Puller {
  #pool: pg.Pool;
  #memory: ReplicaMemory;
  #writer: GroupWriter;
  #health: DatabaseHealth;
  /** Pulls whose query is running, at most MAX_PULLS. */
  #pulls = 0;
  /** The pull that starts when a running one ends (requests arriving meanwhile share it). */
  #queued: Promise<void> | undefined;
  #slotFree: (() => void) | undefined;
  /** Pulls' rows are applied one after the other, in the order the pulls started. */
  #applied: Promise<void> = Promise.resolve();

  constructor(pool: pg.Pool, memory: ReplicaMemory, writer: GroupWriter, health: DatabaseHealth) {
    this.#pool = pool;
    this.#memory = memory;
    this.#writer = writer;
    this.#health = health;
  }

  /**
   * Brings memory up to what every replica committed. When another replica changed an agent this one is still
   * writing, its own batch is bound to be refused: it waits for that outcome rather than answer from it.
   */
  async refresh(): Promise<void> {
    await this.pullShared();
    const writer = this.#writer;
    while (this.#memory.overlayStale && (writer.inflight || !writer.pending.empty))
      await writer.commit().catch(() => {});
    this.#memory.overlayStale = false;
  }

  /**
   * Pulls what changed. A request must be answered from a pull that started after it arrived (read-your-writes across
   * replicas), so each call starts one; while MAX_PULLS run, the calls made meanwhile share the pull that starts when
   * one ends.
   */
  pullShared(): Promise<void> {
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
    const after = this.#memory.seen;
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
    const counters = this.#memory.counters;
    try {
      // Named: each connection parses them once (they run before every request).
      const head = (await this.#pool.query<{ version: string; cleared: string }>({ name: 'ark_head', text: HEAD }))
        .rows[0];
      const version = Number(head?.version);
      // One change not known yet while a batch of this replica is being written: most likely that batch, committed
      // and its answer on the way. Once it is in memory, the rows need no pull.
      if (version > after && this.#oneUnknown(after, version)) await this.#writer.inflightSettled();
      // Nothing committed since what memory holds (or a counter that went back, which #applyPull answers with a load).
      if (head && version <= Math.max(after, this.#memory.seen)) {
        counters.heads += 1;
        return [{ ...NO_COLUMNS, k: 'v', id: null, version: head.version, seq: head.cleared }];
      }
      counters.pulls += 1;
      return (await this.#pool.query<PulledRow>({ name: 'ark_pull', text: PULL, values: [after] })).rows;
    } catch (error) {
      throw this.#health.unavailable(error);
    }
  }

  /**
   * Waits for the batch being written when a pull brought rows of a change this replica does not know yet: they may be
   * that batch's own (committed, its answer not read yet), which are not another replica's change. Taken for one, they
   * made every request wait for the batches after it (refresh) and dropped the parsed records.
   */
  async #inflightOutcome(rows: readonly PulledRow[]): Promise<void> {
    const memory = this.#memory;
    const unknown = (row: PulledRow): boolean =>
      row.k !== 'v' && Number(row.version) > memory.seen && !memory.own.has(Number(row.version));
    if (this.#writer.inflight && rows.some(unknown)) await this.#writer.inflightSettled();
  }

  /** Whether a batch is being written and exactly one change in (after, version] is not known to be this replica's. */
  #oneUnknown(after: number, version: number): boolean {
    if (!this.#writer.inflight || version - after > 8) return false;
    let unknown = 0;
    for (let change = after + 1; change <= version; change += 1) if (!this.#memory.own.has(change)) unknown += 1;
    return unknown === 1;
  }

  /** Applies the rows of a pull that asked for changes after `after`, unless a pull applied before saw later ones. */
  async #applyPull(rows: PulledRow[], after: number): Promise<void> {
    const memory = this.#memory;
    if (memory.seen < 0) return this.#load();
    const head = rows.find((row) => row.k === 'v');
    const version = Number(head?.version ?? 0);
    const cleared = Number(head?.seq ?? 0);
    // A database whose counter went back was replaced: load it whole.
    if (version < after) return this.#load();
    if (version <= memory.seen && cleared <= memory.seen) {
      this.#health.recovered();
      return;
    }
    if (cleared > memory.seen || version - after > TOMBSTONE_LAG) return this.#load();
    this.#health.recovered();
    // Rows up to what memory has seen were applied already, by a pull that started earlier.
    const fresh = after < memory.seen ? rows.filter((row) => Number(row.version) > memory.seen) : rows;
    const foreign = fresh.some((row) => row.k !== 'v' && !memory.own.has(Number(row.version)));
    const effect = memory.mirror.apply(fresh);
    if (foreign && effect.documents) memory.controlVersion = version;
    memory.seen = version;
    this.#writer.pulledUpTo(version);
    for (const own of memory.own) if (own <= version) memory.own.delete(own);
    if (!foreign) return;
    for (const agentId of effect.agents)
      if (this.#writer.overlaid(agentId)) memory.overlayStale = true;
      else memory.cache.forget(agentId);
    if (effect.tasks || effect.documents) memory.changedElsewhere();
  }

  /** Loads every row in one consistent snapshot (at start, after a reset, or when far behind). */
  async #load(): Promise<void> {
    const memory = this.#memory;
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw this.#health.unavailable(error);
    }
    memory.loading = true;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const head = await client.query<{ version: string }>('SELECT version::text AS version FROM ark_changes');
      const mirror = memory.mirror;
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
      memory.seen = Number(head.rows[0]?.version ?? 0);
      memory.controlVersion = memory.seen;
      this.#writer.pulledUpTo(memory.seen);
      for (const own of memory.own) if (own <= memory.seen) memory.own.delete(own);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error instanceof MirrorRowError
        ? new StorageUnavailableError(`the state database ${this.#health.location} ${error.message}`)
        : this.#health.unavailable(error);
    } finally {
      memory.loading = false;
      client.release();
    }
    this.#health.recovered();
    memory.cache.clear();
    memory.changedElsewhere();
  }
}
