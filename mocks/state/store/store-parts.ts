// The parts of a store its operations kept in files of their own use: AgentStore lends them, the rest of the fake sees
// only the store's methods.
import type { Agent } from '../../../spec/index.ts';
import type { CatalogueCache } from '../catalogue-cache.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Random } from '../../domain/random.ts';
import type { AgentRecord, AgentTable } from '../storage.ts';
import type { TaskLedger } from '../task-ledger.ts';

/**
 * What the store's operations kept beside it (task-submission.ts, store-seeding.ts) use of it: its own parts, private to
 * AgentStore otherwise, lent to them once.
 */
export interface StoreParts {
  readonly seed: number;
  readonly clock: Clock;
  readonly catalogue: CatalogueCache;
  readonly agents: AgentTable;
  readonly ledger: TaskLedger;
  /** The random source as it is now (a reset replaces it). */
  readonly random: Random;
  failureRatio(): number;
  settle(): void;
  /** Throws a StorageWriteError, before anything changed, when the store may keep no more records. */
  ensureRoom(): void;
  newId(prefix: string, taken: (id: string) => boolean): string;
  agentIdTaken(id: string): boolean;
  get(agentId: string): Agent | undefined;
  /** The agent's record, generating (and from now on keeping) a catalogue agent that is about to change. */
  record(agentId: string): AgentRecord | undefined;
  saveRandom(): void;
}
