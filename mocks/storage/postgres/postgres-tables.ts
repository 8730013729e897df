// The store's two tables on a PostgreSQL replica, as memory shows them: the mirror's rows under the batches written
// since (pending, being written, committed but not pulled back), newest first; a reset in a batch hides what is below.
import type { Agent, AgentStatus } from '../../../spec/index.ts';
import { agentJson, agentRecord, agentView } from '../../state/agent-record.ts';
import type { TaskRecord } from '../../state/task-lifecycle.ts';
import type { AgentRecord, AgentTable, SavedTask, TaskLog } from '../../state/storage.ts';
import type { PendingTask } from './postgres-batch.ts';
import type { DatabaseHealth } from './postgres-health.ts';
import type { ReplicaMemory } from './postgres-memory.ts';
import { MirrorRowError } from './postgres-mirror.ts';
import type { GroupWriter } from './postgres-writer.ts';

/** What the table views read and write through. */
interface Parts {
  memory: ReplicaMemory;
  writer: GroupWriter;
  health: DatabaseHealth;
}

/** An agent as the mirror holds it, checked on first read: a row that cannot be served answers 503. */
function mirrorAgent({ memory, health }: Parts, agentId: string): Agent | undefined {
  try {
    return memory.mirror.agent(agentId);
  } catch (error) {
    if (!(error instanceof MirrorRowError)) throw error;
    throw health.unservable(error);
  }
}

/** The record memory shows for an agent: a written one, or one parsed from the mirror. */
function record(parts: Parts, agentId: string): AgentRecord | undefined {
  const { memory, writer } = parts;
  const cached = memory.cache.get(agentId);
  if (cached) return cached;
  for (const batch of writer.batches()) {
    const written = batch.agents.get(agentId);
    if (written) return written;
    if (batch.cleared) return undefined;
  }
  const row = memory.mirror.agents.get(agentId);
  if (!row) return undefined;
  const parsed = agentRecord(mirrorAgent(parts, agentId) as Agent, row.tasksFailed, row.catalogueIndex);
  parsed.json = row.json;
  memory.baseOf.set(parsed, row.version);
  memory.cache.remember(parsed);
  return parsed;
}

/** Deployed agents as memory shows them, in deploy order: the mirror's, then those written since. */
function* deployed(parts: Parts): Generator<{ status: AgentStatus; agent: () => Agent }> {
  const { memory, writer } = parts;
  const overlay = (agentId: string): AgentRecord | undefined => {
    for (const batch of writer.batches()) {
      const written = batch.agents.get(agentId);
      if (written) return written;
    }
    return undefined;
  };
  const hidden = writer.mirrorCleared();
  if (!hidden)
    for (const [agentId, row] of memory.mirror.agents) {
      if (row.catalogueIndex !== undefined) continue;
      const written = overlay(agentId);
      yield written
        ? { status: written.status, agent: () => agentView(written) }
        : { status: row.status, agent: () => mirrorAgent(parts, agentId) as Agent };
    }
  const batches = [...writer.batches()].reverse();
  const start = Math.max(
    0,
    batches.findLastIndex((batch) => batch.cleared),
  );
  for (const batch of batches.slice(start))
    for (const agentId of batch.newAgents) {
      const written = batch.agents.get(agentId);
      if (!written || written.catalogueIndex !== undefined || (!hidden && memory.mirror.agents.has(agentId))) continue;
      const latest = overlay(agentId) ?? written;
      yield { status: latest.status, agent: () => agentView(latest) };
    }
}

/**
 * The mirror's deployed agents (unless a reset hides them) and those written since: no walk over the mirror. Runs on
 * every deploy (`--max-agents`), so it walks only each batch's deployed new agents, newest batch first, down to the
 * newest reset (a reset hides the batches before it).
 */
function deployedCount({ memory, writer }: Parts): number {
  const hidden = writer.mirrorCleared();
  let count = hidden ? 0 : memory.mirror.deployedCount;
  for (const batch of writer.batches()) {
    if (hidden) count += batch.newDeployed.size;
    else for (const agentId of batch.newDeployed) if (!memory.mirror.agents.has(agentId)) count += 1;
    if (batch.cleared) break;
  }
  return count;
}

/**
 * The agent table of a replica: reads from memory, writes into the pending batch.
 * @example const agents = postgresAgentTable({ memory, writer, health }); agents.get('agt_…');
 */
export function postgresAgentTable(parts: Parts): AgentTable {
  const { memory, writer } = parts;
  return {
    get deployedCount() {
      return deployedCount(parts);
    },
    get: (agentId) => record(parts, agentId),
    has: (agentId) => record(parts, agentId) !== undefined,
    add(added) {
      added.json = agentJson(added);
      const id = added.agentId;
      writer.pending.agents.set(id, added);
      writer.pending.newAgents.add(id);
      if (added.catalogueIndex === undefined) writer.pending.newDeployed.add(id);
      memory.cache.remember(added);
      writer.schedule();
    },
    changed(changed) {
      changed.json = agentJson(changed);
      const id = changed.agentId;
      const pending = writer.pending;
      if (!pending.newAgents.has(id) && !pending.bases.has(id)) {
        const inflight = writer.inflight;
        pending.bases.set(
          id,
          inflight?.agents.has(id)
            ? inflight
            : (memory.baseOf.get(changed) ?? memory.mirror.agents.get(id)?.version ?? -1),
        );
      }
      pending.agents.set(id, changed);
      writer.schedule();
    },
    changedCatalogueStatuses() {
      const statuses = new Map<string, AgentStatus>();
      if (!writer.mirrorCleared())
        for (const agentId of memory.mirror.catalogueAgents) {
          const row = memory.mirror.agents.get(agentId);
          if (row) statuses.set(agentId, row.status);
        }
      for (const batch of [...writer.batches()].reverse())
        for (const written of batch.agents.values())
          if (written.catalogueIndex !== undefined) statuses.set(written.agentId, written.status);
      return statuses;
    },
    deployedPage(offset, limit, status) {
      const agents: Agent[] = [];
      let total = 0;
      for (const entry of deployed(parts)) {
        if (status && entry.status !== status) continue;
        if (total >= offset && agents.length < limit) agents.push(entry.agent());
        total += 1;
      }
      return { total, agents };
    },
    clear() {
      const pending = writer.pending;
      pending.cleared = true;
      pending.agents.clear();
      pending.newAgents.clear();
      pending.newDeployed.clear();
      pending.bases.clear();
      pending.tasks.clear();
      memory.cache.clear();
      writer.schedule();
    },
  };
}

/** Every task memory shows, oldest first, as copies (the ledger changes its tasks in place). */
function savedTasks({ memory, writer }: Parts): Map<string, SavedTask> {
  const saved = new Map<string, SavedTask>();
  if (!writer.mirrorCleared())
    for (const [taskId, row] of memory.mirror.tasks)
      saved.set(taskId, { task: { ...row.task }, inHistory: row.inHistory });
  const batches = [...writer.batches()].reverse();
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

/**
 * The task log of a replica: every put joins the pending batch; `saved` is what memory shows.
 * @example const tasks = postgresTaskLog({ memory, writer, health }); tasks.saved();
 */
export function postgresTaskLog(parts: Parts): TaskLog {
  const { writer } = parts;
  const put = (taskId: string, task: PendingTask): void => {
    writer.pending.tasks.set(taskId, task);
    writer.schedule();
  };
  return {
    put: (task, inHistory) =>
      put(task.taskId, { text: JSON.stringify(task), settled: task.settled, inHistory, deleted: false }),
    delete(taskId) {
      // Only settled tasks are forgotten whole; the row keeps the settled record as a tombstone.
      const known = savedTasks(parts).get(taskId)?.task;
      const text = known ? JSON.stringify({ ...known, settled: true }) : '';
      put(taskId, { text, settled: true, inHistory: false, deleted: true });
    },
    clear() {
      writer.pending.cleared = true;
      writer.pending.tasks.clear();
      writer.schedule();
    },
    saved: () => [...savedTasks(parts).values()],
  };
}
