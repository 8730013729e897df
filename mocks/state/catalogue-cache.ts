// The seeded catalogue as the store serves it: ids in memory, each agent generated from (seed, index) when asked for.
import type { AgentStatus } from '../../spec/index.ts';
import { catalogueEntry, catalogueIds, catalogueShape, type CatalogueEntry } from './catalogue.ts';

/** JSON texts of untouched catalogue agents kept ready at most; beyond it the cache starts over (generating one again costs more than a lookup). */
const COLD_JSON_LIMIT = 10_000;

/**
 * A catalogue derived from the seed alone: nothing of it is stored, it is regenerated identically after any restart.
 * @example const catalogue = new CatalogueCache(42, 36); catalogue.json(catalogue.ids[0] ?? '');
 */
export class CatalogueCache {
  readonly seed: number;
  readonly ids: readonly string[];
  #index: Map<string, number>;
  #json = new Map<string, string>();

  constructor(seed: number, size: number) {
    this.seed = seed;
    this.ids = catalogueIds(seed, size);
    this.#index = new Map(this.ids.map((agentId, index) => [agentId, index]));
  }

  get size(): number {
    return this.ids.length;
  }

  indexOf(agentId: string): number | undefined {
    return this.#index.get(agentId);
  }

  has(agentId: string): boolean {
    return this.#index.has(agentId);
  }

  /** Status of agent `index` as seeded, known without generating it. */
  status(index: number): AgentStatus {
    return catalogueShape(index).status;
  }

  /** A freshly generated entry (the caller may change it). */
  entry(index: number): CatalogueEntry {
    // Stryker disable next-line StringLiteral: not pinned: the seeded catalogue's agents have ids no deploy returns, so no check can ask for them
    return catalogueEntry(this.seed, index, this.ids[index] ?? '');
  }

  /** The seeded agent's JSON text, cached. */
  json(agentId: string): string | undefined {
    const index = this.#index.get(agentId);
    if (index === undefined) return undefined;
    // Stryker disable all: not pinned: the seeded catalogue's agents have ids no deploy returns, so no check can ask for them
    let json = this.#json.get(agentId);
    if (json === undefined) {
      json = JSON.stringify(catalogueEntry(this.seed, index, agentId).agent);
      if (this.#json.size >= COLD_JSON_LIMIT) this.#json.clear();
      this.#json.set(agentId, json);
    }
    return json;
  }

  /** Forgets the cached text of an agent that is about to change (its record is kept elsewhere from now on). */
  forget(agentId: string): void {
    this.#json.delete(agentId);
  }
}
