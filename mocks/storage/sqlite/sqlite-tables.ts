// The store's agent table and task log over SQLite: the statements, the agent_id → seq index kept in memory, and the
// parsed-agent cache; every write joins the batch writer's current transaction.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Agent, AgentStatus } from '../../../spec/index.ts';
import type { AgentCache } from '../agent-cache.ts';
import { agentJson, agentRecord } from '../../state/agent-record.ts';
import type { BatchWriter } from './sqlite-batch-writer.ts';
import type { AgentRecord, AgentTable, SavedTask, TaskLog } from '../../state/storage.ts';
import type { TaskRecord } from '../../state/task-lifecycle.ts';

function agentStatements(db: DatabaseSync) {
  const sql = (text: string): StatementSync => db.prepare(text);
  return {
    selectAgent: sql('SELECT agent, tasks_failed, catalogue_index FROM agents WHERE seq = ?'),
    agentSeqs: sql('SELECT seq, agent_id FROM agents'),
    addAgent: sql('INSERT INTO agents (agent_id, catalogue_index, status, tasks_failed, agent) VALUES (?, ?, ?, ?, ?)'),
    updateAgent: sql('UPDATE agents SET status = ?, tasks_failed = ?, agent = ? WHERE seq = ?'),
    clearAgents: sql('DELETE FROM agents'),
    countDeployed: sql('SELECT count(*) AS n FROM agents WHERE catalogue_index IS NULL'),
    catalogueStatuses: sql('SELECT agent_id, status FROM agents WHERE catalogue_index IS NOT NULL'),
    pageAll: sql('SELECT agent FROM agents WHERE catalogue_index IS NULL ORDER BY seq LIMIT ? OFFSET ?'),
    pageStatus: sql(
      'SELECT agent FROM agents WHERE catalogue_index IS NULL AND status = ? ORDER BY seq LIMIT ? OFFSET ?',
    ),
    countStatus: sql('SELECT count(*) AS n FROM agents WHERE catalogue_index IS NULL AND status = ?'),
  };
}

interface AgentRow {
  agent: string;
  tasks_failed: number;
  catalogue_index: number | null;
}

/**
 * Agents in SQLite: reads go through the cache, then the in-memory index and one row; writes join the current batch,
 * and a rolled-back batch's additions are forgotten again.
 * @example const agents = new SqliteAgentTable(db, writer, new AgentCache(), agentIndex);
 */
export class SqliteAgentTable implements AgentTable {
  #writer: BatchWriter;
  #cache: AgentCache;
  #statements: ReturnType<typeof agentStatements>;
  #deployedCount: number;
  /** agent_id → seq of every stored agent (an index in memory: see sqlite-open.ts). */
  #where: Map<string, number>;
  /** Agents added in this batch, to forget if it is rolled back; or the whole table was cleared in it. */
  #addedInBatch: string[] = [];
  #clearedInBatch = false;

  constructor(db: DatabaseSync, writer: BatchWriter, cache: AgentCache, where: Map<string, number>) {
    this.#writer = writer;
    this.#cache = cache;
    this.#where = where;
    this.#statements = agentStatements(db);
    this.#deployedCount = this.#countDeployed();
    writer.onCommit(() => {
      this.#addedInBatch = [];
      this.#clearedInBatch = false;
    });
    writer.onRollback(() => this.#afterRollback());
  }

  get deployedCount(): number {
    return this.#deployedCount;
  }

  get(agentId: string): AgentRecord | undefined {
    const cached = this.#cache.get(agentId);
    if (cached) return cached;
    const seq = this.#where.get(agentId);
    const row = seq === undefined ? undefined : (this.#statements.selectAgent.get(seq) as AgentRow | undefined);
    if (!row) return undefined;
    // Checked when the database was opened, or written by this process since.
    const record = agentRecord(JSON.parse(row.agent) as Agent, row.tasks_failed, row.catalogue_index ?? undefined);
    record.json = row.agent;
    this.#cache.remember(record);
    return record;
  }

  has(agentId: string): boolean {
    return this.#where.has(agentId);
  }

  add(record: AgentRecord): void {
    const json = agentJson(record);
    record.json = json;
    const { agentId, catalogueIndex, tasksFailed } = record;
    const result = this.#writer.write(
      this.#statements.addAgent,
      agentId,
      catalogueIndex ?? null,
      record.status,
      tasksFailed,
      json,
    );
    // Without a result the batch has already failed: the entry goes at its rollback.
    this.#where.set(agentId, result ? Number(result.lastInsertRowid) : -1);
    this.#addedInBatch.push(agentId);
    if (catalogueIndex === undefined) this.#deployedCount += 1;
    this.#cache.remember(record);
  }

  changed(record: AgentRecord): void {
    record.json = agentJson(record);
    const seq = this.#where.get(record.agentId);
    if (seq !== undefined)
      this.#writer.write(this.#statements.updateAgent, record.status, record.tasksFailed, record.json, seq);
  }

  changedCatalogueStatuses(): Map<string, AgentStatus> {
    const rows = this.#statements.catalogueStatuses.all() as { agent_id: string; status: AgentStatus }[];
    return new Map(rows.map((row) => [row.agent_id, row.status]));
  }

  deployedPage(offset: number, limit: number, status?: AgentStatus): { total: number; agents: Agent[] } {
    const rows = (
      status === undefined
        ? this.#statements.pageAll.all(limit, offset)
        : this.#statements.pageStatus.all(status, limit, offset)
    ) as { agent: string }[];
    const total =
      status === undefined ? this.#deployedCount : (this.#statements.countStatus.get(status) as { n: number }).n;
    return { total, agents: rows.map((row) => JSON.parse(row.agent) as Agent) };
  }

  clear(): void {
    this.#writer.write(this.#statements.clearAgents);
    this.#cache.clear();
    this.#deployedCount = 0;
    this.#where.clear();
    this.#clearedInBatch = true;
  }

  #countDeployed(): number {
    return (this.#statements.countDeployed.get() as { n: number }).n;
  }

  /** Memory follows the database again: cached records may hold the undone changes. */
  #afterRollback(): void {
    this.#cache.clear();
    if (this.#clearedInBatch) {
      this.#where.clear();
      for (const row of this.#statements.agentSeqs.iterate() as Iterable<{ seq: number; agent_id: string }>)
        this.#where.set(row.agent_id, row.seq);
    } else {
      for (const agentId of this.#addedInBatch) this.#where.delete(agentId);
    }
    this.#addedInBatch = [];
    this.#clearedInBatch = false;
    this.#deployedCount = this.#countDeployed();
  }
}

/**
 * Tasks written through to SQLite (the ledger in memory answers; this copy is read back at the next start).
 * @example const tasks = sqliteTaskLog(db, writer); tasks.put(record, true);
 */
export function sqliteTaskLog(db: DatabaseSync, writer: BatchWriter): TaskLog {
  const putTask = db.prepare(
    'INSERT INTO tasks (task_id, in_history, task) VALUES (?, ?, ?) ON CONFLICT (task_id) DO UPDATE SET in_history = excluded.in_history, task = excluded.task',
  );
  const deleteTask = db.prepare('DELETE FROM tasks WHERE task_id = ?');
  const clearTasks = db.prepare('DELETE FROM tasks');
  const savedTasks = db.prepare('SELECT in_history, task FROM tasks ORDER BY seq');
  return {
    put: (task, inHistory) => writer.write(putTask, task.taskId, inHistory ? 1 : 0, JSON.stringify(task)),
    delete: (taskId) => writer.write(deleteTask, taskId),
    clear: () => writer.write(clearTasks),
    saved(): SavedTask[] {
      const rows = savedTasks.all() as { in_history: number; task: string }[];
      return rows.map((row) => ({ task: JSON.parse(row.task) as TaskRecord, inHistory: row.in_history === 1 }));
    },
  };
}
