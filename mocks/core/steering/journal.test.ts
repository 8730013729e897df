// The journal's memory: what it keeps of a request must not keep the whole request alive.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { mintToken } from '../request/auth.ts';
import { createFixedClock } from '../../domain/clock.ts';
import { createMockCore } from '../../assembly/mock-core.ts';
import { Journal, JOURNAL_BODY_LIMIT, journalText } from './journal.ts';
import { silentLogger } from '../../domain/logger.ts';

/** A full garbage collection, without starting the worker with --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('journal', () => {
  it('keeps a short copy of a large body, not the whole request: 100 bodies of 1 MB add far less than 100 MB', async () => {
    const core = createMockCore({ seed: 1, journalSize: 100, logger: silentLogger, clock: createFixedClock(0) });
    const authorization = `Bearer ${await mintToken()}`;
    const agentId = (core.store.list({ offset: 0, limit: 1 }).agents[0]?.agentId ?? '') as string;
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < 100; index += 1) {
      const text = `{"task":"${String(index).padEnd(1_000_000, 'x')}"}`;
      const response = await core.handle({
        method: 'POST',
        path: `/v1/agents/${agentId}/execute`,
        query: '',
        headers: { authorization, 'content-type': 'application/json' },
        body: new TextEncoder().encode(text),
      });
      expect(response.status).toBe(400); // the task is too long: answered, and journaled with its body
    }
    collectGarbage();
    const grownMb = (process.memoryUsage().heapUsed - before) / 1e6;
    const entries = core.journal.entries();
    expect(entries).toHaveLength(100);
    expect(entries.every((entry) => entry.bodyTruncated && entry.body?.length === JOURNAL_BODY_LIMIT)).toBe(true);
    // Slices of the bodies would pin all 100 MB; flat copies hold 100 × 4 KiB (the bound leaves room for noise).
    expect(grownMb).toBeLessThan(25);
  });

  it('journalText cuts at the limit and leaves short text as it is', () => {
    expect(journalText('a'.repeat(5000))).toBe('a'.repeat(JOURNAL_BODY_LIMIT));
    expect(journalText('abc')).toBe('abc');
    expect(journalText('abcdef', 3)).toBe('abc');
  });

  it('numbers each request it took, oldest first, and never reuses a number, not even after clearing', () => {
    const journal = new Journal(2);
    const entry = {
      atMs: 0,
      method: 'GET',
      path: '/v1',
      query: '',
      operationId: null,
      status: 404,
      durationMs: 0,
      body: null,
      bodyTruncated: false,
    };
    journal.add(entry);
    journal.add(entry);
    journal.add(entry);
    expect(journal.entries().map((e) => e.seq)).toEqual([2, 3]);
    expect(journal.entries(1).map((e) => e.seq)).toEqual([3]);
    journal.clear();
    journal.add(entry);
    expect(journal.entries().map((e) => e.seq)).toEqual([4]);
  });
});
