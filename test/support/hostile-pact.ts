// Pacts built to make `pact verify` work hard within its 16 MiB input cap: each shape makes the most findings or the
// longest ones per byte read. Used by benchmarks/probes/pact/verify-cost.ts (figures in docs/performance.md) and by
// the tests that pin pact verify's bounds at a small size.
import { getAtPointer, openapiDocument } from '../../spec/index.ts';

/** What a hostile pact is made of. */
export type HostileShape =
  /** Agents whose `capabilities` are numbers where strings belong: one finding per item, a few bytes each. */
  | 'wrong-items'
  /** Agents with long undocumented members: each finding repeats the member's name in its pointer and message. */
  | 'long-keys'
  /** The smallest interactions there are, as many as fit: the report's size per interaction. */
  | 'tiny';

const agent = getAtPointer(openapiDocument, '/components/examples/AgentTrading/value') as Record<string, unknown>;

function pactOf(interactions: readonly unknown[]): string {
  return JSON.stringify({
    consumer: { name: 'hostile-web' },
    provider: { name: 'agent-registry' },
    interactions,
    metadata: { pactSpecification: { version: '2.0.0' } },
  });
}

function retrieve(index: number, body: unknown): unknown {
  return {
    description: `retrieve ${index}`,
    request: { method: 'GET', path: `/v1/agents/agt_${index}`, headers: { Authorization: `Bearer tok.${index}.sig` } },
    response: { status: 200, headers: { 'Content-Type': 'application/json' }, body },
  };
}

/** One interaction of the shape, `size` its share of bytes (items or key length). */
function interactionOf(shape: HostileShape, index: number, size: number): unknown {
  if (shape === 'wrong-items') return retrieve(index, { ...agent, capabilities: new Array<number>(size).fill(1) });
  if (shape === 'long-keys') return retrieve(index, { ...agent, [`x${'k'.repeat(size)}`]: 1 });
  return { description: '', request: { method: 'GET', path: '/' }, response: {} };
}

/**
 * A pact of about `bytes` bytes of the given shape, in `interactions` interactions (tiny: as many as fit).
 * @example writeFileSync('hostile.json', hostilePact('wrong-items', 16 * 2 ** 20 - 4096, 160));
 */
export function hostilePact(shape: HostileShape, bytes: number, interactions = 1): string {
  if (shape === 'tiny') {
    const one = JSON.stringify(interactionOf('tiny', 0, 0)).length + 1;
    const count = Math.max(1, Math.floor((bytes - 200) / one));
    return pactOf(Array.from({ length: count }, (_, index) => interactionOf('tiny', index, 0)));
  }
  const overhead = pactOf([interactionOf(shape, 0, 1)]).length;
  // wrong-items: `1,` is two bytes an item; long-keys: one byte a character of the key.
  const share = Math.max(
    1,
    Math.floor((bytes - overhead * interactions) / interactions / (shape === 'wrong-items' ? 2 : 1)),
  );
  return pactOf(Array.from({ length: interactions }, (_, index) => interactionOf(shape, index, share)));
}
