// What a store is made with (StoreOptions and the defaults of its bounds) and what its calls answer (a task submitted,
// a seeding call's outcome, a line of the agent list).
import type { Agent, AgentStatus, TaskSubmission, ValidationError } from '../../../spec/index.ts';
import type { CatalogueCache } from '../catalogue-cache.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Storage } from '../storage.ts';
import type { TaskRecord } from '../task-lifecycle.ts';

/**
 * Default bound of the task history (the oldest are forgotten beyond it) and of unfinished tasks (beyond it the one that
 * would finish first is settled ahead of time), so memory stays flat under any load.
 */
export const DEFAULT_MAX_TASKS = 10_000;
/**
 * Deployed agents kept at most (`--max-agents`); a deploy beyond it is answered 503 until a reset. An agent costs
 * about 0.55 KB of heap (1.4 KB of RSS) as typically deployed, 4.7 KB of heap (9.2 KB of RSS) at the schema's maximum
 * field sizes (benchmarks/probes/agent-memory.ts; docs/security.md).
 */
export const DEFAULT_MAX_AGENTS = 1_000_000;
/** Default share of tasks that fail, decided per task from the seeded random source. */
export const DEFAULT_FAILURE_RATIO = 0.1;

export interface StoreOptions {
  /** Seed of the catalogue and of every later random choice (ids, addresses, task outcomes). */
  seed: number;
  clock: Clock;
  /** Number of seeded agents (default 36). */
  catalogueSize?: number;
  /** Share of tasks that end `failed`, 0..1, asked at each submission (default 0.1; the core passes the scenarios'). */
  failureRatio?: number | (() => number);
  /** Bound of the task history (default 10,000). */
  maxTasks?: number;
  /** Deployed agents kept at most (default DEFAULT_MAX_AGENTS); the seeded catalogue does not count. */
  maxAgents?: number;
  /**
   * Where agents, tasks and the random state live, plugged in where the fake is assembled (the core's default is the
   * memory storage): the store knows only the interface. A durable one is resumed from.
   */
  storage: Storage;
  /**
   * The random state the store starts from and every reset returns to (default: the seed's stream). Processes sharing
   * one storage each take their own, so the ids they draw never collide.
   */
  randomStart?: number;
  /**
   * The seeded catalogue to serve (default: made from `seed` and `catalogueSize`). It is read-only to the store, so the
   * sessions of one fake share their seed's one copy, each keeping only the agents it changed.
   */
  catalogue?: CatalogueCache;
  /**
   * Whether the store may keep one more record (default: always; deploys stay bounded by `maxAgents`). A session's
   * store asks its share of `--session-records`; beyond it whatever would add a record throws a StorageWriteError
   * before changing anything, which the core answers 503 `state-not-saved`.
   */
  hasRoom?: () => boolean;
}

/** One line of the agent list of the control plane. */
export type AgentSummary = Pick<Agent, 'agentId' | 'name' | 'category' | 'model' | 'status'>;

export type SubmitResult =
  | { ok: true; submission: TaskSubmission; task: TaskRecord }
  | { ok: false; reason: 'agent-not-found' }
  | { ok: false; reason: 'agent-not-active'; status: AgentStatus };

/** What a seeding call made, or why not: the status a control-plane answer takes and each bad field. */
export type SeedOutcome<T> = { ok: true; value: T } | { ok: false; status: 400 | 404 | 409; errors: ValidationError[] };
