// The one small interface between the store and where its state lives: in memory (the default) or a durable backend.
// No SQL here: the core and the store only see these methods; each storage has a folder of its own beside this file
// (memory/, sqlite/ and postgres/ node only, web-storage/ in a browser).
import type { Agent, AgentStatus } from '../../spec/index.ts';
import type { AgentRecord } from './agent-record.ts';
import type { TaskRecord } from './task-lifecycle.ts';

export type { AgentRecord } from './agent-record.ts';

/** Where deployed and changed catalogue agents live. Records are changed in place, then reported with `changed`. */
export interface AgentTable {
  /** Number of deployed agents (catalogue agents excluded). */
  readonly deployedCount: number;
  get(agentId: string): AgentRecord | undefined;
  has(agentId: string): boolean;
  /** A new record (a deploy, or a catalogue agent about to change). */
  add(record: AgentRecord): void;
  /** The record was changed in place (status, performance). */
  changed(record: AgentRecord): void;
  /** Status of every changed catalogue agent, by agentId (lists walk the catalogue with it). */
  changedCatalogueStatuses(): Map<string, AgentStatus>;
  /** Deployed agents in deploy order, optionally of one status: the page asked for and how many there are in all. */
  deployedPage(offset: number, limit: number, status?: AgentStatus): { total: number; agents: Agent[] };
  clear(): void;
}

/** A task as a durable backend saves it: the record, and whether the history still shows it. */
export interface SavedTask {
  task: TaskRecord;
  /** False for a task forgotten by the bounded history that has not finished yet (it must still settle). */
  inHistory: boolean;
}

/** Where tasks are written through to; the ledger in memory stays the one that answers. */
export interface TaskLog {
  put(task: TaskRecord, inHistory: boolean): void;
  delete(taskId: string): void;
  clear(): void;
  /** Every saved task, oldest first. */
  saved(): SavedTask[];
}

/**
 * The store's storage. Every write joins the current batch; `commit` resolves once the batch is durable, so an answer
 * sent after it never lies. A batch that cannot be written is rolled back whole, the rollback listeners rebuild what
 * memory holds from what is stored, and every `commit` waiting on it rejects.
 */
export interface Storage {
  /** True when a restart keeps what was committed (an on-disk backend). */
  readonly durable: boolean;
  readonly agents: AgentTable;
  readonly tasks: TaskLog;
  /**
   * A small named JSON document (clock, scenarios, random state, coverage…), as last written; undefined when never.
   * It is `unknown` until the reader checks it: a durable one comes from a file anyone may have edited.
   */
  readDocument(name: string): unknown;
  /** Replaces a named document with a JSON-serializable value; part of the current batch. */
  writeDocument(name: string, value: unknown): void;
  /** Resolves once everything written so far is durable; rejects when the batch holding it could not be written. */
  commit(): Promise<void>;
  /**
   * Called after a failed batch was rolled back (and, for a storage other processes write too, after they changed what
   * is stored): rebuild in-memory state from what is stored.
   */
  onRollback(listener: () => void): void;
  /** Commits what is pending and releases the storage. */
  close(): Promise<void>;
}

/** Raised by `commit` when a batch could not be written; the core answers 503 for it. */
export class StorageWriteError extends Error {
  // Stryker disable next-line StringLiteral: not reached: raised only by durable storage (--state-dir, PostgreSQL); the suite runs against the in-memory fake
  override readonly name: string = 'StorageWriteError';
}

/** A batch was based on rows another replica changed first: nothing of it was applied, and the core handles it again. */
export class StorageConflictError extends StorageWriteError {
  // Stryker disable next-line StringLiteral: not reached: raised only by durable storage (--state-dir, PostgreSQL); the suite runs against the in-memory fake
  override readonly name: string = 'StorageConflictError';
}

/** A shared storage could not be read before a request (its database is unreachable): the core answers 503. */
export class StorageUnavailableError extends StorageWriteError {
  // Stryker disable next-line StringLiteral: not reached: raised only by durable storage (--state-dir, PostgreSQL); the suite runs against the in-memory fake
  override readonly name: string = 'StorageUnavailableError';
}
