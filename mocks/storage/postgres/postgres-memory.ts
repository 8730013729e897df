// What one replica holds of the shared database in memory, shared by its pull (postgres-pull.ts), its group commit
// (postgres-writer.ts) and its table views (postgres-tables.ts): the mirror of the rows, the records parsed from it, the
// change numbers it has seen and who is told when what is stored changed under it.
import type { AgentCache } from '../agent-cache.ts';
import type { AgentRecord } from '../../state/storage.ts';
import type { Mirror } from './postgres-mirror.ts';

/** What a replica's pulls and commits did so far (the bench and the tests read them). */
export interface PostgresCounters {
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

/**
 * The replica's view of the database between pulls; each part changes the fields its comment names.
 * @example const memory = new ReplicaMemory(new Mirror({ seed: 42, catalogueSize: 36 }), new AgentCache(5000));
 */
export class ReplicaMemory {
  readonly mirror: Mirror;
  /** Parsed agents (the mirror keeps every agent's JSON text). */
  readonly cache: AgentCache;
  readonly counters: PostgresCounters = { heads: 0, pulls: 0, taken: 0, unpulled: 0, stale: 0 };
  /** The row version each parsed record was read at (a later update is conditional on it). */
  readonly baseOf = new WeakMap<AgentRecord, number>();
  /** The last change number pulled (-1: nothing yet, load everything). Set by a pull, a load or a batch taken. */
  seen = -1;
  /** Change numbers of this replica's own batches not pulled yet: pulling them back changes nothing. */
  readonly own = new Set<number>();
  /** The newest change a pull or load brought that changed a document or reset the state (a control change). */
  controlVersion = 0;
  /** Another replica changed an agent that a batch of this one is writing (the pull's refresh waits it out). */
  overlayStale = false;
  /** A whole load is running: it sets the mirror and the change number when it ends, so a commit may not meanwhile. */
  loading = false;
  /** Run after a rollback and after another replica's change, in order: the store rebuilds its memory. */
  readonly rollbackListeners: (() => void)[] = [];
  /** Run after another replica's change, after the rollback listeners (a reset may move the clock back). */
  readonly replicaListeners: (() => void)[] = [];

  constructor(mirror: Mirror, cache: AgentCache) {
    this.mirror = mirror;
    this.cache = cache;
  }

  /** A batch of this replica was not written: what memory parsed may be ahead of what is stored. */
  rolledBack(): void {
    this.cache.clear();
    for (const listener of this.rollbackListeners) listener();
  }

  /** Another replica changed what is stored. */
  changedElsewhere(): void {
    for (const listener of this.rollbackListeners) listener();
    for (const listener of this.replicaListeners) listener();
  }
}
