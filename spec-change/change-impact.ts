// Who a spec change breaks, and the one list of changes the classifier's rules report into (merged by kind and place).

/** Who a change breaks: a client written against the base version, a server written against it, both, or nobody. */
export type Impact = 'breaking-for-clients' | 'breaking-for-servers' | 'breaking-for-both' | 'compatible';

/** Which way data flows through a schema: clients write requests and read responses. */
export type Direction = 'request' | 'response';

/** One classified change. */
export interface SpecChange {
  /** e.g. `operation-removed`, `enum-value-added`, `field-made-required`, `bound-tightened`. */
  kind: string;
  impact: Impact;
  /** Where the change is: a JSON Pointer into the head document, or into the base one when the thing was removed. */
  pointer: string;
  in: 'base' | 'head';
  /** One readable line: what changed and why it breaks whom. */
  message: string;
  /** The operations and parts it reaches, e.g. `POST /v1/agents/deploy request body`. */
  usedBy: string[];
}

function impactOf(clients: boolean, servers: boolean): Impact {
  if (clients && servers) return 'breaking-for-both';
  if (clients) return 'breaking-for-clients';
  if (servers) return 'breaking-for-servers';
  return 'compatible';
}

function flagsOf(impact: Impact): { clients: boolean; servers: boolean } {
  return {
    clients: impact === 'breaking-for-clients' || impact === 'breaking-for-both',
    servers: impact === 'breaking-for-servers' || impact === 'breaking-for-both',
  };
}

/** Narrowing what may be sent breaks whoever sends it: clients for a request, servers for a response. */
export function narrowed(direction: Direction): Impact {
  return direction === 'request' ? 'breaking-for-clients' : 'breaking-for-servers';
}

/** Widening what may be sent breaks whoever reads it: servers for a request, clients for a response. */
export function widened(direction: Direction): Impact {
  return direction === 'request' ? 'breaking-for-servers' : 'breaking-for-clients';
}

/**
 * Changes by kind and place: the same change reached twice (a component used by a request and by a response) is one
 * change that breaks both sides and names both uses.
 * @example const changes = new ChangeList(); changes.record(change); changes.sorted()
 */
export class ChangeList {
  #changes = new Map<string, SpecChange>();

  record(change: SpecChange): void {
    const key = `${change.kind} ${change.in} ${change.pointer}`;
    const existing = this.#changes.get(key);
    if (!existing) {
      this.#changes.set(key, { ...change, usedBy: [...change.usedBy] });
      return;
    }
    const a = flagsOf(existing.impact);
    const b = flagsOf(change.impact);
    existing.impact = impactOf(a.clients || b.clients, a.servers || b.servers);
    for (const use of change.usedBy) if (!existing.usedBy.includes(use)) existing.usedBy.push(use);
  }

  /** Breaking first (both, clients, servers), then compatible; by pointer within each. */
  sorted(): SpecChange[] {
    const rank: Record<Impact, number> = {
      'breaking-for-both': 0,
      'breaking-for-clients': 1,
      'breaking-for-servers': 2,
      compatible: 3,
    };
    return [...this.#changes.values()].sort(
      (a, b) => rank[a.impact] - rank[b.impact] || a.pointer.localeCompare(b.pointer),
    );
  }
}
