// What a replica knows of the shared PostgreSQL state: every row as last pulled, so the store's synchronous reads never
// wait on the network. Rows are checked: a database anyone may write to is input like any other. An agent's columns
// are checked as they arrive, its record the first time it is read (checking a million records at start-up would
// take minutes).
import { agentStatuses, type Agent, type AgentStatus } from '../../../spec/index.ts';
import { catalogueIds } from '../../state/catalogue.ts';
import type { BatchChanges } from './postgres-batch.ts';
import { checkDocument, checkStoredAgent, checkStoredTask } from '../stored-records.ts';
import type { TaskRecord } from '../../state/task-lifecycle.ts';

/** An agent row. */
export interface MirrorAgent {
  json: string;
  catalogueIndex: number | undefined;
  tasksFailed: number;
  status: AgentStatus;
  /** The change that last wrote the row: an update is applied only if nobody wrote it since. */
  version: number;
  /** Whether `json` was checked against the Agent schema and the columns (done on first read). */
  checked: boolean;
}

/** A task row; settled tasks out of the history are tombstones and are dropped. */
export interface MirrorTask {
  task: TaskRecord;
  inHistory: boolean;
}

/** One row of a pull: `v` the change counter, `a` an agent, `t` a task, `d` a document (see postgres-storage's query). */
export interface PulledRow {
  k: 'v' | 'a' | 't' | 'd';
  id: string | null;
  version: string;
  seq: string | null;
  /** An agent's status column. */
  s: string | null;
  ci: number | null;
  n: number | null;
  h: boolean | null;
  body: string | null;
}

/** What one pull changed, for the storage to tell the store and the core. */
export interface PullEffect {
  agents: string[];
  tasks: boolean;
  documents: boolean;
}

/** A row that cannot be served: the pull is refused with this reason. */
export class MirrorRowError extends Error {
  override readonly name = 'MirrorRowError';
}

/**
 * Rows by key, in the order the database numbered them (deploy order for agents, submission order for tasks).
 * @example const mirror = new Mirror({ seed: 42, catalogueSize: 36 }); mirror.apply(rows);
 */
export class Mirror {
  readonly agents = new Map<string, MirrorAgent>();
  readonly tasks = new Map<string, MirrorTask>();
  readonly documents = new Map<string, unknown>();
  /** Agents that are changed catalogue agents (lists walk the catalogue with their statuses). */
  readonly catalogueAgents = new Set<string>();
  #seed: number;
  #catalogueSize: number;
  #catalogueIds: string[] | undefined;

  constructor(identity: { seed: number; catalogueSize: number }) {
    this.#seed = identity.seed;
    this.#catalogueSize = identity.catalogueSize;
  }

  get deployedCount(): number {
    return this.agents.size - this.catalogueAgents.size;
  }

  clear(): void {
    this.agents.clear();
    this.tasks.clear();
    this.documents.clear();
    this.catalogueAgents.clear();
  }

  /**
   * Applies pulled rows (agents and tasks in the order the database numbered them); `checked` when this replica wrote
   * the agents itself (their records are the store's own).
   */
  apply(rows: readonly PulledRow[], checked = false): PullEffect {
    const effect: PullEffect = { agents: [], tasks: false, documents: false };
    for (const row of rows) {
      if (row.k === 'a') effect.agents.push(this.#agent(row, checked));
      else if (row.k === 't') {
        this.#task(row);
        effect.tasks = true;
      } else if (row.k === 'd') {
        this.#document(row);
        effect.documents = true;
      }
    }
    return effect;
  }

  /**
   * The record of an agent row, checked the first time it is read; throws MirrorRowError for a row that cannot be
   * served.
   */
  agent(agentId: string): Agent | undefined {
    const row = this.agents.get(agentId);
    if (!row) return undefined;
    if (row.checked) return JSON.parse(row.json) as Agent;
    const name = agentId.slice(0, 140);
    const checked = checkStoredAgent(row.json);
    if (!checked.ok) throw new MirrorRowError(`holds an invalid agent ${name}: ${checked.reason}`);
    if (checked.value.agentId !== agentId || checked.value.status !== row.status)
      throw new MirrorRowError(`holds an agent ${name} whose columns disagree with its record`);
    row.checked = true;
    return checked.value;
  }

  /**
   * Applies a batch this replica committed as change `version` while the mirror held every change before it: the rows
   * a pull would bring back, in the database's order (rows already there first, new rows as they were numbered).
   */
  applyCommitted(changes: BatchChanges, version: number): void {
    const v = String(version);
    const rows: PulledRow[] = [];
    const none = { seq: null, s: null, ci: null, n: null, h: null };
    for (const agent of [...changes.agents, ...changes.newAgents])
      rows.push({
        k: 'a',
        id: agent.id,
        version: v,
        seq: null,
        s: agent.status,
        ci: agent.ci,
        n: agent.failed,
        h: null,
        body: agent.agent,
      });
    for (const task of changes.settled)
      rows.push({ ...none, k: 't', id: task.id, version: v, h: task.h, body: task.task });
    // A forgotten task keeps the text it had; a settled one is then a tombstone, which the mirror drops.
    for (const { id } of changes.forgotten) {
      const row = this.tasks.get(id);
      if (row) rows.push({ ...none, k: 't', id, version: v, h: false, body: JSON.stringify(row.task) });
    }
    for (const task of changes.newTasks)
      rows.push({ ...none, k: 't', id: task.id, version: v, h: task.h, body: task.task });
    for (const document of changes.documents)
      if (!document.name.includes('@'))
        rows.push({ ...none, k: 'd', id: document.name, version: v, body: document.value });
    this.apply(rows, true);
  }

  #agent(row: PulledRow, checked: boolean): string {
    const name = String(row.id).slice(0, 140);
    const index = row.ci;
    const columnsAgree =
      typeof row.id === 'string' &&
      typeof row.body === 'string' &&
      agentStatuses.includes(row.s as AgentStatus) &&
      Number.isSafeInteger(row.n) &&
      (row.n as number) >= 0 &&
      (index === null || (index >= 0 && index < this.#catalogueSize));
    if (!columnsAgree) throw new MirrorRowError(`holds an agent ${name} whose columns disagree with its record`);
    if (index !== null) {
      this.#catalogueIds ??= catalogueIds(this.#seed, this.#catalogueSize);
      if (this.#catalogueIds[index] !== row.id)
        throw new MirrorRowError(`holds an agent ${name} that is not catalogue agent ${index}`);
      this.catalogueAgents.add(row.id as string);
    }
    const agentId = row.id as string;
    const previous = this.agents.get(agentId);
    const entry: MirrorAgent = {
      json: row.body as string,
      catalogueIndex: index ?? undefined,
      tasksFailed: row.n as number,
      status: row.s as AgentStatus,
      version: Number(row.version),
      checked,
    };
    if (previous) Object.assign(previous, entry);
    else this.agents.set(agentId, entry);
    return agentId;
  }

  #task(row: PulledRow): void {
    const name = String(row.id).slice(0, 140);
    const checked = checkStoredTask(row.body);
    if (!checked.ok) throw new MirrorRowError(`holds an invalid task ${name}: ${checked.reason}`);
    if (checked.value.taskId !== row.id || typeof row.h !== 'boolean')
      throw new MirrorRowError(`holds a task ${name} whose columns disagree with its record`);
    // A settled task out of the history is a tombstone: every replica forgets it.
    if (!row.h && checked.value.settled) this.tasks.delete(checked.value.taskId);
    else this.tasks.set(checked.value.taskId, { task: checked.value, inHistory: row.h });
  }

  #document(row: PulledRow): void {
    const name = String(row.id).slice(0, 140);
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(row.body));
    } catch {
      throw new MirrorRowError(`holds a document ${name} that is not valid JSON`);
    }
    const checked = checkDocument(name.replace(/@\d+$/, ''), parsed);
    if (!checked.ok) throw new MirrorRowError(`holds an invalid ${name} document: ${checked.reason}`);
    this.documents.set(name, parsed);
  }
}
