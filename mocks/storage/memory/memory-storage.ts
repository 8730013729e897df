// The in-memory storage: the default, which keeps nothing beyond the process (and the table Web Storage extends).
import type { Agent, AgentStatus } from '../../../spec/index.ts';
import { agentView, type AgentRecord } from '../../state/agent-record.ts';
import type { AgentTable, Storage } from '../../state/storage.ts';

/**
 * Agents in a Map: the in-memory store's table (insertion order is deploy order).
 * @example const table = new MemoryAgentTable(); table.add(record); table.get(record.agentId);
 */
export class MemoryAgentTable implements AgentTable {
  #records = new Map<string, AgentRecord>();
  #catalogue = 0;

  get deployedCount(): number {
    return this.#records.size - this.#catalogue;
  }

  get(agentId: string): AgentRecord | undefined {
    return this.#records.get(agentId);
  }

  has(agentId: string): boolean {
    return this.#records.has(agentId);
  }

  add(record: AgentRecord): void {
    this.#records.set(record.agentId, record);
    if (record.catalogueIndex !== undefined) this.#catalogue += 1;
  }

  changed(record: AgentRecord): void {
    record.json = undefined;
  }

  changedCatalogueStatuses(): Map<string, AgentStatus> {
    const statuses = new Map<string, AgentStatus>();
    if (this.#catalogue === 0) return statuses;
    for (const [agentId, record] of this.#records)
      if (record.catalogueIndex !== undefined) statuses.set(agentId, record.status);
    return statuses;
  }

  deployedPage(offset: number, limit: number, status?: AgentStatus): { total: number; agents: Agent[] } {
    const agents: Agent[] = [];
    let total = 0;
    for (const record of this.#records.values()) {
      if (record.catalogueIndex !== undefined || (status && record.status !== status)) continue;
      if (total >= offset && agents.length < limit) agents.push(agentView(record));
      total += 1;
    }
    return { total, agents };
  }

  clear(): void {
    this.#records.clear();
    this.#catalogue = 0;
  }
}

/**
 * Storage that keeps nothing beyond the process: the default, as fast as the store itself (every commit is immediate).
 * @example const core = createMockCore({ storage: createMemoryStorage() });
 */
export function createMemoryStorage(): Storage {
  const documents = new Map<string, unknown>();
  const agents = new MemoryAgentTable();
  return {
    durable: false,
    agents,
    // The ledger in memory is the only copy: nothing to write through to.
    tasks: { put: () => {}, delete: () => {}, clear: () => {}, saved: () => [] },
    readDocument: (name) => documents.get(name),
    writeDocument: (name, value) => {
      documents.set(name, value);
    },
    commit: () => Promise.resolve(),
    onRollback: () => {},
    close: () => Promise.resolve(),
  };
}
