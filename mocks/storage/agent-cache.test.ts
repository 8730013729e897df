import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AgentCache } from './agent-cache.ts';
import type { AgentRecord } from '../state/storage.ts';

const record = (agentId: string): AgentRecord =>
  ({ agentId, tasksFailed: 0, catalogueIndex: undefined, json: undefined }) as unknown as AgentRecord;

describe('AgentCache', () => {
  it('drops the least recently used record when full: a read keeps a record in', () => {
    const cache = new AgentCache(2);
    cache.remember(record('a'));
    cache.remember(record('b'));
    expect(cache.get('a')?.agentId).toBe('a');
    cache.remember(record('c'));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.agentId).toBe('a');
    expect(cache.get('c')?.agentId).toBe('c');
    expect(cache.size).toBe(2);
  });

  it('replaces a record remembered again without evicting another, and holds at least one', () => {
    const cache = new AgentCache(2);
    cache.remember(record('a'));
    cache.remember(record('b'));
    const newer = record('a');
    cache.remember(newer);
    expect(cache.get('a')).toBe(newer);
    expect(cache.get('b')).toBeDefined();
    const tiny = new AgentCache(0);
    tiny.remember(record('x'));
    expect(tiny.get('x')).toBeDefined();
  });

  it('drops a forgotten record and keeps the order of the others', () => {
    const cache = new AgentCache(3);
    for (const agentId of ['a', 'b', 'c']) cache.remember(record(agentId));
    cache.forget('b');
    cache.forget('nobody');
    expect(cache.size).toBe(2);
    cache.remember(record('d'));
    cache.remember(record('e'));
    expect(cache.get('a')).toBeUndefined();
    expect(['b', 'c', 'd', 'e'].map((agentId) => cache.get(agentId) !== undefined)).toEqual([false, true, true, true]);
  });

  it('holds what a least-recently-used list of its capacity holds, after any sequence of operations', () => {
    // Three agents and a cache of one to three: evictions, hits that change the order and clears all come often.
    const agentId = fc.constantFrom('a', 'b', 'c');
    const operation = fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant('get' as const), agentId }), weight: 4 },
      { arbitrary: fc.record({ kind: fc.constant('remember' as const), agentId }), weight: 4 },
      { arbitrary: fc.record({ kind: fc.constant('forget' as const), agentId }), weight: 1 },
      { arbitrary: fc.record({ kind: fc.constant('clear' as const), agentId: fc.constant('') }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.array(operation, { maxLength: 40 }), (capacity, operations) => {
        const cache = new AgentCache(capacity);
        // The model: agentIds from least to most recently used.
        let model: string[] = [];
        for (const { kind, agentId } of operations) {
          const known = model.includes(agentId);
          if (kind === 'get') {
            expect(cache.get(agentId)?.agentId).toBe(known ? agentId : undefined);
            if (known) model = [...model.filter((id) => id !== agentId), agentId];
          } else if (kind === 'remember') {
            cache.remember(record(agentId));
            model = [...model.filter((id) => id !== agentId), agentId];
            if (model.length > capacity) model = model.slice(1);
          } else if (kind === 'forget') {
            cache.forget(agentId);
            model = model.filter((id) => id !== agentId);
          } else {
            cache.clear();
            model = [];
          }
          expect(cache.size).toBe(model.length);
        }
      }),
      { numRuns: 300 },
    );
  });
});
