import { describe, expect, it } from 'vitest';
import { AgentCache } from './agent-cache.ts';
import type { AgentRecord } from './storage.ts';

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
});
