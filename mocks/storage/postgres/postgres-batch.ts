// One group commit of a PostgreSQL replica: the writes of a tick, folded to one final state per row, sent as one call.
import { agentJson } from '../../state/agent-record.ts';
import type { AgentRecord, StorageWriteError } from '../../state/storage.ts';

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
  /** The new agents that are deployed ones (not catalogue agents written at a reset): counted on every deploy. */
  readonly newDeployed = new Set<string>();
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

const jsonOf = (record: AgentRecord): string => record.json ?? agentJson(record);

interface AgentRow {
  id: string;
  status: string;
  failed: number;
  agent: string;
}

/** What one batch changes, row by row (batchParameters makes `ark_apply`'s arguments of it). */
export interface BatchChanges {
  clear: boolean;
  newAgents: (AgentRow & { ci: number | null })[];
  /** Changed agents, each with the row version it was read at (the update is conditional on it). */
  agents: (AgentRow & { seen: number; ci: number | null })[];
  newTasks: { id: string; h: boolean; settled: boolean; task: string }[];
  settled: { id: string; h: boolean; task: string }[];
  forgotten: { id: string }[];
  documents: { name: string; value: string }[];
}

/** The rows a batch writes; `taskBase` says what a task was before it. */
export function batchChanges(batch: Batch, taskBase: (taskId: string) => TaskBase): BatchChanges {
  const changes: BatchChanges = {
    clear: batch.cleared,
    newAgents: [],
    agents: [],
    newTasks: [],
    settled: [],
    forgotten: [],
    documents: [...batch.documents].map(([name, value]) => ({ name, value })),
  };
  for (const [agentId, record] of batch.agents) {
    const row = { id: agentId, status: record.status, failed: record.tasksFailed, agent: jsonOf(record) };
    const ci = record.catalogueIndex ?? null;
    if (batch.newAgents.has(agentId)) changes.newAgents.push({ ...row, ci });
    else {
      const base = batch.bases.get(agentId);
      changes.agents.push({ ...row, ci, seen: typeof base === 'number' ? base : (base?.version ?? -1) });
    }
  }
  for (const [taskId, task] of batch.tasks) {
    const base: TaskBase = batch.cleared ? { exists: false, settled: false, inHistory: false } : taskBase(taskId);
    const inHistory = task.inHistory && !task.deleted;
    if (!base.exists) {
      // A task settled and forgotten within the batch left nothing to keep: its outcome is in its agent's row.
      if (!task.deleted) changes.newTasks.push({ id: taskId, h: inHistory, settled: task.settled, task: task.text });
    } else if (task.settled && !base.settled) changes.settled.push({ id: taskId, h: inHistory, task: task.text });
    else if (!inHistory && base.inHistory) changes.forgotten.push({ id: taskId });
  }
  return changes;
}

/** Records as `ark_apply` takes them: each after a newline (JSON text never holds one), so none is encoded again. */
function records(texts: readonly string[]): string {
  let joined = '';
  for (const text of texts) {
    // Every record is JSON.stringify's output; a newline in one would shift the rows after it (ark_apply counts them).
    if (text.includes('\n')) throw new Error('a record to write holds a newline');
    joined += `\n${text}`;
  }
  return joined;
}

/**
 * The parameters of APPLY_BATCH (mocks/storage/postgres/postgres-schema.ts), in order: the agents (new ones first, in deploy order, with
 * no `seen` version), the tasks with their kind, the documents, and the change number answers without a pull started
 * from (null: no such answer is waiting on this batch).
 */
export function batchParameters(changes: BatchChanges, unpulledBase: number | null = null): unknown[] {
  const agents = [...changes.newAgents.map((agent) => ({ ...agent, seen: null })), ...changes.agents];
  const tasks = [
    ...changes.newTasks.map((task) => ({ ...task, kind: 'new' })),
    ...changes.settled.map((task) => ({ ...task, settled: true, kind: 'settled' })),
    ...changes.forgotten.map(({ id }) => ({ id, h: false, settled: false, task: '', kind: 'forgotten' })),
  ];
  return [
    changes.clear,
    agents.map((agent) => agent.id),
    agents.map((agent) => agent.ci),
    agents.map((agent) => agent.status),
    agents.map((agent) => agent.failed),
    agents.map((agent) => agent.seen),
    records(agents.map((agent) => agent.agent)),
    tasks.map((task) => task.id),
    tasks.map((task) => task.kind),
    tasks.map((task) => task.h),
    tasks.map((task) => task.settled),
    records(tasks.map((task) => task.task)),
    changes.documents.map((document) => document.name),
    records(changes.documents.map((document) => document.value)),
    unpulledBase,
  ];
}
