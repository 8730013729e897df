// The control plane through the core in-process (no HTTP needed: the adapters are tested elsewhere): its routes, an
// override it refuses, and the control plane alone on a stub host. Scenarios are scenarios.test.ts.
import { describe, expect, it } from 'vitest';
import { START, useCoreUnderTest } from '../../test/support/core-under-test.ts';
import { clockOffsetProblem, createFixedClock, createSystemClock, MAX_CLOCK_OFFSET_MS } from '../domain/clock.ts';
import { createMockCore } from '../assembly/mock-core.ts';
import type { Coverage } from '../core/steering/coverage.ts';
import { silentLogger } from '../domain/logger.ts';

const fake = useCoreUnderTest();
const { send, anActiveAgent } = fake;

describe('control plane', () => {
  it('lists agents with paging and a status filter', async () => {
    const all = (await send('GET', '/__mock/agents')).json();
    expect(all.total).toBe(36);
    const page = (await send('GET', '/__mock/agents?offset=30&limit=10')).json();
    expect((page.agents as unknown[]).length).toBe(6);
    const paused = (await send('GET', '/__mock/agents?status=paused')).json();
    expect(paused.total).toBe(3);
    expect((await send('GET', '/__mock/agents?status=sleeping')).status).toBe(400);
    expect((await send('GET', '/__mock/agents?limit=-1')).status).toBe(400);
  });

  it('resets to the seed: deploys are forgotten', async () => {
    const deployed = (
      await send('POST', '/v1/agents/deploy', { name: 'a', category: 'nft', model: 'gpt-4', initialSupply: 1 })
    ).json();
    expect((await send('POST', '/__mock/reset')).json()).toEqual({ seed: 42, agents: 36 });
    expect((await send('GET', `/v1/agents/${String(deployed.agentId)}`)).status).toBe(404);
  });

  it('sets an agent status and refuses an unknown one', async () => {
    const agentId = await anActiveAgent();
    expect((await send('PUT', `/__mock/agents/${agentId}/status`, { status: 'paused' })).json().status).toBe('paused');
    expect((await send('GET', `/v1/agents/${agentId}`)).json().status).toBe('paused');
    expect((await send('PUT', `/__mock/agents/${agentId}/status`, { status: 'asleep' })).status).toBe(400);
    expect((await send('PUT', '/__mock/agents/agt_nope/status', { status: 'paused' })).status).toBe(404);
  });

  it('advances the clock, and refuses a negative step', async () => {
    expect((await send('GET', '/__mock/clock')).json()).toEqual({ now: '2026-11-20T12:00:00.000Z', offsetMs: 0 });
    expect((await send('POST', '/__mock/clock/advance', { seconds: 90 })).json()).toEqual({
      now: '2026-11-20T12:01:30.000Z',
      offsetMs: 90_000,
    });
    expect((await send('POST', '/__mock/clock/advance', { seconds: -1 })).status).toBe(400);
    expect((await send('POST', '/__mock/clock/advance', 'soon')).status).toBe(400);
  });

  it('bounds the total offset at 100 years, keeps answering, and reset restores the offset', async () => {
    const tenYears = 315_360_000;
    for (let step = 0; step < 10; step += 1)
      expect((await send('POST', '/__mock/clock/advance', { seconds: tenYears })).status).toBe(200);
    const beyond = await send('POST', '/__mock/clock/advance', { seconds: tenYears });
    expect(beyond.status).toBe(400);
    expect(beyond.json().detail).toMatch(/100 years.*at most \d+ s are left/);
    expect((await send('GET', '/__mock/clock')).json().offsetMs).toBeLessThanOrEqual(MAX_CLOCK_OFFSET_MS);
    const agentId = await anActiveAgent();
    expect((await send('POST', `/v1/agents/${agentId}/execute`, { task: 'x' })).status).toBe(200);
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(200);
    expect((await send('POST', '/__mock/reset')).status).toBe(200);
    expect((await send('GET', '/__mock/clock')).json()).toEqual({ now: '2026-11-20T12:00:00.000Z', offsetMs: 0 });
  });

  it('never lets a clock pass the bound, whatever it is told', () => {
    for (const clock of [createSystemClock(), createFixedClock(START)]) {
      clock.advance(1e308);
      clock.advance(1e308);
      clock.advance(Number.POSITIVE_INFINITY);
      clock.advance(Number.NaN);
      expect(clock.offset).toBe(MAX_CLOCK_OFFSET_MS);
      expect(() => new Date(clock.now()).toISOString()).not.toThrow();
      clock.reset?.();
      expect(clock.offset).toBe(0);
    }
    expect(createSystemClock(Number.POSITIVE_INFINITY).offset).toBe(0);
  });

  it.each([
    [0, true],
    [MAX_CLOCK_OFFSET_MS, true],
    [MAX_CLOCK_OFFSET_MS + 1, false],
    [-1, false],
    [Number.POSITIVE_INFINITY, false],
    [Number.NaN, false],
    ['5', false],
    [null, false],
  ])('a persisted clock offset of %s is valid: %s', (offset, valid) => {
    expect(clockOffsetProblem(offset) === undefined).toBe(valid);
  });

  it('reads a task, and 404s an unknown one', async () => {
    const agentId = await anActiveAgent();
    const { taskId } = (await send('POST', `/v1/agents/${agentId}/execute`, { task: 'x' })).json() as {
      taskId: string;
    };
    expect((await send('GET', `/__mock/tasks/${taskId}`)).json()).toMatchObject({
      taskId,
      agentId,
      status: 'queued',
      priority: 'normal',
    });
    expect((await send('GET', '/__mock/tasks/tsk_nope')).status).toBe(404);
  });

  it('journals /v1 requests (method, path, status, duration, body), bounded and clearable', async () => {
    await send('GET', '/v1/agents/agt_nope');
    await send('POST', '/v1/agents/deploy', { name: 'journal' });
    const entries = (await send('GET', '/__mock/journal?limit=2')).json().entries as Record<string, unknown>[];
    expect(entries.map((entry) => [entry.method, entry.path, entry.status, entry.operationId])).toEqual([
      ['GET', '/v1/agents/agt_nope', 404, 'getAgent'],
      ['POST', '/v1/agents/deploy', 400, 'deployAgent'],
    ]);
    expect(entries[1]?.body).toBe('{"name":"journal"}');
    expect(typeof entries[0]?.durationMs).toBe('number');
    expect((await send('DELETE', '/__mock/journal')).status).toBe(204);
    expect((await send('GET', '/__mock/journal')).json().entries).toEqual([]);
  });

  it('keeps only the last N journal entries', async () => {
    fake.core = createMockCore({ seed: 1, clock: createFixedClock(START), logger: silentLogger, journalSize: 3 });
    for (let index = 0; index < 10; index += 1) await send('GET', `/v1/agents/agt_${index}`);
    const entries = (await send('GET', '/__mock/journal')).json().entries as { path: string }[];
    expect(entries.map((entry) => entry.path)).toEqual(['/v1/agents/agt_7', '/v1/agents/agt_8', '/v1/agents/agt_9']);
  });

  it('refuses a query parameter given twice with 400 naming it, rather than reading one of the two', async () => {
    const response = await send('GET', '/__mock/requests?operation=getAgent&operation=deployAgent');
    expect(response.status).toBe(400);
    expect(response.json().errors).toEqual([
      { path: '/query/operation', message: 'is given 2 times; it takes one value' },
    ]);
    expect((await send('GET', '/__mock/requests?operation=getAgent')).status).toBe(200);
  });

  it('answers unknown control paths 404 and wrong methods 405 with Allow', async () => {
    expect((await send('GET', '/__mock/nothing')).status).toBe(404);
    const wrong = await send('POST', '/__mock/journal');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('DELETE, GET');
  });

  it("removes one operation's override and leaves the others; one without an override, or no operation, is 404", async () => {
    const agent = '/v1/agents/agt_WCC01FaiMscDbRzp';
    expect((await send('PUT', '/__mock/overrides', { operation: 'getAgent', status: 404 })).status).toBe(200);
    expect((await send('PUT', '/__mock/overrides', { operation: 'executeAgentTask', status: 409 })).status).toBe(200);
    expect((await send('GET', agent)).status).toBe(404);
    expect((await send('DELETE', '/__mock/overrides/getAgent')).status).toBe(204);
    expect((await send('GET', agent)).status).toBe(200);
    expect((await send('GET', '/__mock/overrides')).json()).toEqual({
      overrides: [{ operationId: 'executeAgentTask', status: 409 }],
    });
    expect((await send('DELETE', '/__mock/overrides/getAgent')).status).toBe(204);
    const unknown = await send('DELETE', '/__mock/overrides/noSuchOperation');
    expect(unknown.status).toBe(404);
    expect(unknown.json().detail).toBe('No operation of the spec is named noSuchOperation.');
    expect((await send('DELETE', '/__mock/overrides/executeAgentTask')).status).toBe(204);
    expect((await send('GET', '/__mock/overrides')).json()).toEqual({ overrides: [] });
  });

  it('reports its health', async () => {
    expect((await send('GET', '/__mock/health')).json()).toEqual({ status: 'ok', seed: 42, agents: 36, tasks: 0 });
  });
});

describe('an override whose body holds a long array of wrong items', () => {
  it('is a 400 naming the items, not a 500 (400,000 numbers where capabilities are strings)', async () => {
    const capabilities = Array.from({ length: 400_000 }, () => 1);
    const answer = await send('PUT', '/__mock/overrides', {
      operation: 'getAgent',
      status: 200,
      body: { capabilities },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('/capabilities/0');
  });
});

describe('the control plane through its narrow host interface', () => {
  it('needs no core: a stub host answers health, the clock and the journal', async () => {
    const { handleControlRequest } = await import('./control-plane.ts');
    let resets = 0;
    const host = {
      seed: 9,
      store: {
        agentCount: 3,
        taskCount: 1,
        maxTasks: 10,
        list: () => ({ total: 0, agents: [] }),
        setStatus: () => undefined,
        findTask: () => undefined,
        listTasks: () => [],
        getJson: () => undefined,
        seedAgent: () => ({ ok: false as const, status: 400 as const, errors: [] }),
        seedTask: () => ({ ok: false as const, status: 400 as const, errors: [] }),
        statusOf: () => undefined,
      },
      clock: { now: () => START, offset: 0 },
      journal: { capacity: 5, entries: () => [], entriesAfter: () => [], clear: () => {}, subscribe: () => () => {} },
      coverage: { report: () => ({}) as ReturnType<Coverage['report']>, reset: () => {} },
      pact: { parts: async () => [], clear: () => {} },
      scenarios: { config: {}, taskFailureRatio: 0.5 },
      advanceClock: () => Promise.resolve(),
      configureScenarios: () => Promise.resolve(),
      overrides: new Map(),
      setOverride: async () => {},
      clearOverrides: async () => {},
      removeOverride: async () => false,
      reset: () => {
        resets += 1;
      },
      persist: () => Promise.resolve(),
    };
    const request = (method: string, path: string) => ({ method, path, query: '', headers: {}, body: null });
    const health = await handleControlRequest(host, request('GET', '/__mock/health'));
    expect(JSON.parse(health.body)).toEqual({ status: 'ok', seed: 9, agents: 3, tasks: 1 });
    expect((await handleControlRequest(host, request('POST', '/__mock/reset'))).status).toBe(200);
    expect(resets).toBe(1);
    const task = await handleControlRequest(host, request('GET', '/__mock/tasks/tsk_x'));
    expect(task.status).toBe(404);
    expect(JSON.parse(task.body)).toMatchObject({ detail: expect.stringContaining('last 10') });
  });
});
