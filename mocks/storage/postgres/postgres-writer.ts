// Group commit for a PostgreSQL replica: every write of a tick joins one batch, written in one `ark_apply` call, which
// refuses a batch built on rows another replica changed first (the core then handles it again). Batches committed but
// not pulled back yet stay in memory over the mirror, so an answer waits on its commit alone, not on a pull after it.
import type pg from 'pg';
import type { StorageWriteError } from '../../state/storage.ts';
import { StorageConflictError } from '../../state/storage.ts';
import { Batch, batchChanges, batchParameters, type BatchChanges, type TaskBase } from './postgres-batch.ts';
import type { DatabaseHealth } from './postgres-health.ts';
import type { ReplicaMemory } from './postgres-memory.ts';
import { APPLY_BATCH } from './postgres-schema.ts';

/** An attempt answered without a pull first, while it runs: the change memory held when it began. */
export interface UnpulledAttempt {
  base: number;
  /** A batch written since it began found no control change after `base`. */
  holds: boolean;
}

const NO_TASK: TaskBase = { exists: false, settled: false, inHistory: false };

/**
 * The batches of one replica: the one filling this tick, the one being written, and those committed but not pulled.
 * @example const writer = new GroupWriter(pool, memory, health, () => void puller.pullShared()); await writer.commit();
 */
export class GroupWriter {
  #pool: pg.Pool;
  #memory: ReplicaMemory;
  #health: DatabaseHealth;
  /** Starts a pull nobody waits for (after a commit another replica's change got ahead of). */
  #pullSoon: () => void;
  #pending = new Batch();
  #inflight: Batch | undefined;
  /**
   * Batches committed but not pulled back yet, newest first: memory shows them over the mirror, so an answer waits on
   * the commit alone (not on a pull after it), and the next batch is written as soon as this one is.
   */
  #committed: Batch[] = [];
  #scheduled = false;
  /** Attempts answered without a pull first, running now (answerUnpulled). */
  readonly unpulled = new Set<UnpulledAttempt>();

  constructor(pool: pg.Pool, memory: ReplicaMemory, health: DatabaseHealth, pullSoon: () => void) {
    this.#pool = pool;
    this.#memory = memory;
    this.#health = health;
    this.#pullSoon = pullSoon;
  }

  /** The batch this tick's writes join. */
  get pending(): Batch {
    return this.#pending;
  }

  /** The batch being written, if any. */
  get inflight(): Batch | undefined {
    return this.#inflight;
  }

  /** Something is still to be written (close waits for it). */
  get busy(): boolean {
    return this.#scheduled || this.#inflight !== undefined || !this.#pending.empty;
  }

  /** Resolves once everything written so far is committed; rejects when its batch was not. */
  commit(): Promise<void> {
    if (this.#pending.empty && this.#pending.waiters.length === 0) {
      const inflight = this.#inflight;
      if (!inflight) return Promise.resolve();
      return new Promise((resolve, reject) => inflight.waiters.push({ resolve, reject }));
    }
    return new Promise((resolve, reject) => {
      this.#pending.waiters.push({ resolve, reject });
      this.schedule();
    });
  }

  schedule(): void {
    if (this.#scheduled || this.#inflight) return;
    this.#scheduled = true;
    // Every mutation of this tick joins the batch; it is written once they are all in (group commit).
    setImmediate(() => void this.#flush());
  }

  /** The batches whose writes memory already shows over the mirror, newest first. */
  *batches(): Generator<Batch> {
    yield this.#pending;
    if (this.#inflight) yield this.#inflight;
    yield* this.#committed;
  }

  /** Whether the mirror's rows are hidden by a reset not yet pulled back. */
  mirrorCleared(): boolean {
    for (const batch of this.batches()) if (batch.cleared) return true;
    return false;
  }

  /** Whether a batch not written yet changes the agent. */
  overlaid(agentId: string): boolean {
    return this.#pending.agents.has(agentId) || (this.#inflight?.agents.has(agentId) ?? false);
  }

  /** The mirror now holds every change up to `version`: committed batches up to it need no overlay. */
  pulledUpTo(version: number): void {
    while (this.#committed.length > 0 && (this.#committed.at(-1)?.version ?? 0) <= version) this.#committed.pop();
  }

  /** Resolves once the batch being written (if any) is committed or refused. */
  inflightSettled(): Promise<void> {
    const inflight = this.#inflight;
    if (!inflight) return Promise.resolve();
    return new Promise<void>((resolve) => inflight.waiters.push({ resolve, reject: () => resolve() }));
  }

  /** What the database holds of a task: as the newest committed batch not pulled yet left it, else as pulled. */
  taskBase(taskId: string, from = 0): TaskBase {
    for (let index = from; index < this.#committed.length; index += 1) {
      const batch = this.#committed[index] as Batch;
      const task = batch.tasks.get(taskId);
      if (task) {
        const before = batch.cleared ? NO_TASK : this.taskBase(taskId, index + 1);
        // The same rules as batchChanges: a task settled and forgotten within one batch left no row.
        if (!before.exists && task.deleted) return NO_TASK;
        return { exists: true, settled: task.settled || before.settled, inHistory: task.inHistory && !task.deleted };
      }
      if (batch.cleared) return NO_TASK;
    }
    const row = this.#memory.mirror.tasks.get(taskId);
    return row ? { exists: true, settled: row.task.settled, inHistory: row.inHistory } : NO_TASK;
  }

  async #flush(): Promise<void> {
    this.#scheduled = false;
    const batch = this.#pending;
    this.#pending = new Batch();
    if (batch.doomed) return this.#fail(batch, batch.doomed);
    if (batch.empty) return batch.settle();
    this.#inflight = batch;
    // Answers given without a pull first and still running: this batch is written only if their memory was current.
    const unpulled = [...this.unpulled];
    const base = unpulled.length > 0 ? Math.min(...unpulled.map((entry) => entry.base)) : null;
    const memory = this.#memory;
    try {
      const changes = batchChanges(batch, (taskId) => this.taskBase(taskId));
      const result = await this.#pool.query<{ v: string | null }>({
        name: 'ark_apply',
        text: APPLY_BATCH,
        values: batchParameters(changes, base),
      });
      const written = result.rows[0]?.v;
      if (written === null || written === undefined) {
        memory.counters.stale += 1;
        throw new StorageConflictError(
          'a control change reached the database after requests were answered from memory',
        );
      }
      for (const entry of unpulled) entry.holds = true;
      const version = Number(written);
      batch.version = version;
      memory.own.add(version);
      for (const record of batch.agents.values()) memory.baseOf.set(record, version);
      // Committed: the answers go now and the next batch is written at once. When the batch is the change right after
      // the last one memory holds, the mirror takes its rows as the database now holds them (no pull brings them
      // back); otherwise memory shows it over the mirror until a pull brings its rows in the database's order.
      if (!this.#takeCommitted(batch, changes, version)) {
        this.#committed.unshift(batch);
        // Another replica committed meanwhile. Requests answered without a pull (deploys) would leave memory behind
        // for as long as they are all there is: a pull nobody waits for brings it up to date.
        this.#pullSoon();
      }
      this.#inflight = undefined;
      this.#health.written();
      // The next batch (the writes that arrived meanwhile) is sent before these answers are written: its commit runs
      // while this replica writes them, not after. The pool hands the query its connection on the next tick, so the
      // answers go on the tick after that.
      if (!this.#pending.empty || this.#pending.waiters.length > 0) void this.#flush();
      process.nextTick(() => batch.settle());
    } catch (error) {
      this.#inflight = undefined;
      this.#fail(batch, this.#health.writeError(error));
    } finally {
      if (!this.#pending.empty || this.#pending.waiters.length > 0) this.schedule();
    }
  }

  /** Puts a committed batch in the mirror if nothing else was committed since what it holds; false if it cannot. */
  #takeCommitted(batch: Batch, changes: BatchChanges, version: number): boolean {
    const memory = this.#memory;
    if (batch.cleared || memory.loading || memory.seen < 0 || version !== memory.seen + 1) return false;
    try {
      memory.mirror.applyCommitted(changes, version);
    } catch {
      // Not expected of rows this replica wrote; the next pull brings them back (and says what is wrong with them).
      return false;
    }
    memory.seen = version;
    memory.own.delete(version);
    memory.counters.taken += 1;
    return true;
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
      this.schedule();
    }
    this.#memory.rolledBack();
  }
}
