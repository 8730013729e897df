// The SQLite storage's parsed agents in memory, bounded: the least recently used one goes when it is full.
import type { AgentRecord } from './storage.ts';

/** Agents kept parsed in memory at most; the rest are read from the database when asked for. */
export const DEFAULT_AGENT_CACHE_SIZE = 5000;

/**
 * A least-recently-used cache of agent records by agentId (a Map keeps insertion order: a hit moves to the end).
 * @example const cache = new AgentCache(2); cache.remember(record); cache.get(record.agentId);
 */
export class AgentCache {
  #records = new Map<string, AgentRecord>();
  readonly #capacity: number;

  constructor(capacity = DEFAULT_AGENT_CACHE_SIZE) {
    this.#capacity = Math.max(1, capacity);
  }

  get size(): number {
    return this.#records.size;
  }

  get(agentId: string): AgentRecord | undefined {
    const record = this.#records.get(agentId);
    if (record === undefined) return undefined;
    this.#records.delete(agentId);
    this.#records.set(agentId, record);
    return record;
  }

  remember(record: AgentRecord): void {
    const agentId = record.agentId;
    this.#records.delete(agentId);
    if (this.#records.size >= this.#capacity) {
      const oldest = this.#records.keys().next();
      if (!oldest.done) this.#records.delete(oldest.value);
    }
    this.#records.set(agentId, record);
  }

  clear(): void {
    this.#records.clear();
  }
}
