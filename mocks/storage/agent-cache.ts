// The parsed agents a storage keeps in memory, bounded: the least recently used one goes when it is full.
import type { AgentRecord } from '../state/storage.ts';

/** Agents kept parsed in memory at most; the rest are read from the database when asked for. */
const DEFAULT_AGENT_CACHE_SIZE = 5000;

/** One cached record, linked to the next more and less recently used ones. */
interface Entry {
  record: AgentRecord;
  newer: Entry | undefined;
  older: Entry | undefined;
}

/**
 * A least-recently-used cache of agent records by agentId. Recency is a linked list beside the Map, so a hit moves
 * pointers and never touches the Map: moving a key to the Map's end (delete, then set) is far dearer a hit in V8, and
 * evicting through `keys().next()` walks the holes deletions leave. What this cache costs a hit and a remember:
 * `benchmarks/probes/agent-cache.ts`, docs/performance.md, "Replicas on PostgreSQL".
 * @example const cache = new AgentCache(2); cache.remember(record); cache.get(record.agentId);
 */
export class AgentCache {
  #entries = new Map<string, Entry>();
  #newest: Entry | undefined;
  #oldest: Entry | undefined;
  readonly #capacity: number;

  constructor(capacity = DEFAULT_AGENT_CACHE_SIZE) {
    this.#capacity = Math.max(1, capacity);
  }

  get size(): number {
    return this.#entries.size;
  }

  get(agentId: string): AgentRecord | undefined {
    const entry = this.#entries.get(agentId);
    if (entry === undefined) return undefined;
    this.#touch(entry);
    return entry.record;
  }

  remember(record: AgentRecord): void {
    const known = this.#entries.get(record.agentId);
    if (known) {
      known.record = record;
      this.#touch(known);
      return;
    }
    if (this.#entries.size >= this.#capacity && this.#oldest) this.forget(this.#oldest.record.agentId);
    const entry: Entry = { record, newer: undefined, older: this.#newest };
    if (this.#newest) this.#newest.newer = entry;
    this.#newest = entry;
    this.#oldest ??= entry;
    this.#entries.set(record.agentId, entry);
  }

  /** Drops one record (another process changed it). */
  forget(agentId: string): void {
    const entry = this.#entries.get(agentId);
    if (entry === undefined) return;
    this.#unlink(entry);
    this.#entries.delete(agentId);
  }

  clear(): void {
    this.#entries.clear();
    this.#newest = undefined;
    this.#oldest = undefined;
  }

  #touch(entry: Entry): void {
    if (entry === this.#newest) return;
    this.#unlink(entry);
    entry.older = this.#newest;
    entry.newer = undefined;
    if (this.#newest) this.#newest.newer = entry;
    this.#newest = entry;
    this.#oldest ??= entry;
  }

  #unlink(entry: Entry): void {
    if (entry.newer) entry.newer.older = entry.older;
    else this.#newest = entry.older;
    if (entry.older) entry.older.newer = entry.newer;
    else this.#oldest = entry.newer;
    entry.newer = undefined;
    entry.older = undefined;
  }
}
