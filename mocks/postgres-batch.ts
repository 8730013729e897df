// One group commit of a PostgreSQL replica: the writes of a tick, folded to one final state per row, sent as one call.
import type { AgentRecord, StorageWriteError } from './storage.ts';

/** A task as the batch last saw it: its JSON, and whether the history still shows it or it was forgotten whole. */
export interface PendingTask {
  text: string;
  settled: boolean;
  inHistory: boolean;
  deleted: boolean;
}

/** What the database holds of a task before this batch. */
export interface TaskBase {
  exists: boolean;
  settled: boolean;
  inHistory: boolean;
}

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

/** The writes of one tick (or of every tick while the previous batch was being written). */
export class Batch {
  /** The tables were cleared (a reset): every row below is new. */
  cleared = false;
  /** Set when an earlier batch failed: this one may build on what it wrote, so it fails with the same error. */
  doomed: StorageWriteError | undefined;
  readonly agents = new Map<string, AgentRecord>();
  readonly newAgents = new Set<string>();
  /** The version each changed agent was read at, or the batch that changed it first (its version once committed). */
  readonly bases = new Map<string, number | Batch>();
  readonly tasks = new Map<string, PendingTask>();
  readonly documents = new Map<string, string>();
  readonly waiters: Waiter[] = [];
  /** The change number the database gave this batch, once committed. */
  version: number | undefined;

  get empty(): boolean {
    return (
      !this.cleared &&
      this.agents.size === 0 &&
      this.tasks.size === 0 &&
      this.documents.size === 0 &&
      this.doomed === undefined
    );
  }

  settle(error?: Error): void {
    for (const waiter of this.waiters.splice(0)) {
      if (error) waiter.reject(error);
      else waiter.resolve();
    }
  }
}

const agentJson = (record: AgentRecord): string => record.json ?? JSON.stringify(record.agent);

/** The argument of `ark_apply` (mocks/postgres-schema.ts) for a batch; `taskBase` says what a task was before it. */
export function batchPayload(batch: Batch, taskBase: (taskId: string) => TaskBase): string {
  const newAgents: unknown[] = [];
  const agents: unknown[] = [];
  for (const [agentId, record] of batch.agents) {
    const row = { id: agentId, status: record.agent.status, failed: record.tasksFailed, agent: agentJson(record) };
    if (batch.newAgents.has(agentId)) newAgents.push({ ...row, ci: record.catalogueIndex ?? null });
    else {
      const base = batch.bases.get(agentId);
      agents.push({ ...row, seen: typeof base === 'number' ? base : (base?.version ?? -1) });
    }
  }
  const newTasks: unknown[] = [];
  const settled: unknown[] = [];
  const forgotten: unknown[] = [];
  for (const [taskId, task] of batch.tasks) {
    const base: TaskBase = batch.cleared ? { exists: false, settled: false, inHistory: false } : taskBase(taskId);
    const inHistory = task.inHistory && !task.deleted;
    if (!base.exists) {
      // A task settled and forgotten within the batch left nothing to keep: its outcome is in its agent's row.
      if (!task.deleted) newTasks.push({ id: taskId, h: inHistory, settled: task.settled, task: task.text });
    } else if (task.settled && !base.settled) settled.push({ id: taskId, h: inHistory, task: task.text });
    else if (!inHistory && base.inHistory) forgotten.push({ id: taskId });
  }
  const documents = [...batch.documents].map(([name, value]) => ({ name, value }));
  return JSON.stringify({ clear: batch.cleared, newAgents, agents, newTasks, settled, forgotten, documents });
}
