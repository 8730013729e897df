// What sessions cost in memory, measured on the heap after a full GC: a new session shares the seed's catalogue and
// the token cache, so it costs what it changes, not --agents; and overrides count against --session-records by the
// size of their answers, so a flood of large ones is bounded like any other state.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { createMockCore } from '../../mocks/assembly/mock-core.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MB = 1024 * 1024;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('what sessions cost', () => {
  it('100 new sessions on a catalogue of 100,000 agents take under 20 MB of heap', { timeout: 120_000 }, async () => {
    const core = createMockCore({ logger: silentLogger, catalogueSize: 100_000 });
    const authorization = `Bearer ${await mintToken({ sub: 'sessions' })}`;
    const get = (session: string) =>
      core.handle({
        method: 'GET',
        path: '/v1/agents/agt_none',
        query: '',
        headers: { authorization, 'x-mock-session': session },
        body: null,
      });
    await get('warm-up');
    const before = heapAfterGc();
    for (let index = 0; index < 100; index += 1) expect((await get(`s${index}`)).status).toBe(404);
    expect(core.sessions?.size).toBe(100);
    // Each shares the seed's ids and index of the catalogue: one rebuilding its own would pass this many times over.
    expect((heapAfterGc() - before) / MB).toBeLessThan(20);
  });

  it('a flood of large unchecked overrides stays within --session-records', { timeout: 120_000 }, async () => {
    const core = createMockCore({ logger: silentLogger, sessions: { maxRecords: 10_000 } });
    const body = JSON.stringify(Array(87_000).fill({})); // 261,001 bytes: 255 records each
    const before = heapAfterGc();
    for (let session = 0; session < 20; session += 1)
      for (const operation of ['getAgent', 'deployAgent', 'executeAgentTask']) {
        const answer = await core.handle({
          method: 'PUT',
          path: '/__mock/overrides',
          query: '',
          headers: { 'content-type': 'application/json', 'x-mock-session': `flood-${session}` },
          body: new TextEncoder().encode(`{"operation":"${operation}","status":200,"unchecked":true,"body":${body}}`),
        });
        expect(answer.status).toBe(200);
      }
    const held = core.sessions?.list() ?? [];
    expect(held.reduce((sum, session) => sum + session.records, 0)).toBeLessThanOrEqual(10_000);
    // 10,000 records of overrides are 10 MB of answer text; kept parsed, or uncounted, they would pass this many times.
    expect((heapAfterGc() - before) / MB).toBeLessThan(40);
  });
});
