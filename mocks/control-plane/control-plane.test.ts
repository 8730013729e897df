// The control plane and scenarios, through the core in-process (no HTTP needed: the adapters are tested elsewhere).
import { beforeEach, describe, expect, it } from 'vitest';
import { mintToken } from '../core/request/auth.ts';
import { clockOffsetProblem, createFixedClock, createSystemClock, MAX_CLOCK_OFFSET_MS } from '../domain/clock.ts';
import { createMockCore, type MockCore } from '../assembly/mock-core.ts';
import type { Coverage } from '../core/steering/coverage.ts';
import { expectConforms } from '../test-api/expect-conforms.ts';
import { silentLogger } from '../domain/logger.ts';
import { checkResponse, type OperationId } from '../../spec/index.ts';

const START = Date.parse('2026-11-20T12:00:00.000Z');
let core: MockCore;
let token: string;

async function send(
  method: string,
  target: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string>; json: () => Record<string, unknown>; body: string }> {
  const [path = '', query = ''] = target.split('?');
  const response = await core.handle({
    method,
    path,
    query,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
  });
  if (path.startsWith('/v1'))
    expectConforms({ method, path, status: response.status, headers: response.headers, body: response.body });
  return { ...response, json: () => JSON.parse(response.body) as Record<string, unknown> };
}

async function anActiveAgent(): Promise<string> {
  const list = (await send('GET', '/__mock/agents?status=active&limit=1')).json().agents as { agentId: string }[];
  return list[0]?.agentId ?? '';
}

beforeEach(async () => {
  core = createMockCore({ seed: 42, clock: createFixedClock(START), logger: silentLogger, failureRatio: 0 });
  token = await mintToken();
});

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
    core = createMockCore({ seed: 1, clock: createFixedClock(START), logger: silentLogger, journalSize: 3 });
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

describe('scenarios', () => {
  it('forces a documented error status on one operation', async () => {
    const agentId = await anActiveAgent();
    expect((await send('PUT', '/__mock/scenarios', { operations: { getAgent: { errorStatus: 500 } } })).status).toBe(
      200,
    );
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(500);
    expect((await send('POST', `/v1/agents/${agentId}/execute`, { task: 'x' })).status).toBe(200);
    expect((await send('DELETE', '/__mock/scenarios')).status).toBe(204);
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(200);
  });

  it('applies an error ratio deterministically per seed', async () => {
    const agentId = await anActiveAgent();
    const run = async (): Promise<number[]> => {
      core = createMockCore({ seed: 9, clock: createFixedClock(START), logger: silentLogger });
      await send('PUT', '/__mock/scenarios', { operations: { getAgent: { errorStatus: 500, errorRatio: 0.5 } } });
      const statuses: number[] = [];
      for (let index = 0; index < 40; index += 1) statuses.push((await send('GET', `/v1/agents/${agentId}`)).status);
      return statuses;
    };
    const first = await run();
    expect(first).toEqual(await run());
    expect(first.filter((status) => status === 500).length).toBeGreaterThan(5);
    expect(first.filter((status) => status === 500).length).toBeLessThan(35);
  });

  it('rate-limits with 429 and Retry-After on the mock clock', async () => {
    const agentId = await anActiveAgent();
    await send('PUT', '/__mock/scenarios', { rateLimit: { limit: 2, windowSeconds: 10 } });
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(200);
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(200);
    const limited = await send('GET', `/v1/agents/${agentId}`);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('10');
    core.clock.advance(10_000);
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(200);
  });

  it('sends the RateLimit headers on every answer while the rate limit is on, and none otherwise', async () => {
    const agentId = await anActiveAgent();
    const limitHeaders = (answer: Awaited<ReturnType<typeof send>>): (string | undefined)[] => [
      answer.headers['ratelimit-limit'],
      answer.headers['ratelimit-remaining'],
      answer.headers['ratelimit-reset'],
    ];
    expect(limitHeaders(await send('GET', `/v1/agents/${agentId}`))).toEqual([undefined, undefined, undefined]);
    await send('PUT', '/__mock/scenarios', { rateLimit: { limit: 2, windowSeconds: 10 } });
    const answers = [await send('GET', `/v1/agents/${agentId}`)];
    core.clock.advance(4_000);
    answers.push(await send('GET', '/v1/agents/agt_none'), await send('GET', `/v1/agents/${agentId}`));
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 429]);
    expect(answers.map(limitHeaders)).toEqual([
      ['2', '1', '10'],
      ['2', '0', '6'],
      ['2', '0', '6'],
    ]);
    for (const { status, headers, body } of answers) {
      const check = checkResponse({
        operationId: 'getAgent',
        status,
        contentType: headers['content-type'],
        body,
        headers,
      });
      expect(check.violations).toEqual([]);
    }
  });

  it('waits the global plus the per-operation latency before answering', async () => {
    // The sleeper is injected: the test sees what the core waits for, and whether the answer waits for it, without timing.
    const waits: number[] = [];
    let release = (): void => {};
    core = createMockCore({
      seed: 42,
      clock: createFixedClock(START),
      logger: silentLogger,
      sleep: (ms) => {
        waits.push(ms);
        return new Promise((resolve) => {
          release = resolve;
        });
      },
    });
    const agentId = await anActiveAgent();
    // Verified tokens are cached: after this the answer takes only microtasks, so "not answered yet" means "waiting".
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(200);
    await send('PUT', '/__mock/scenarios', { latencyMs: 300, operations: { getAgent: { latencyMs: 100 } } });
    expect(waits).toEqual([]);
    let answered = false;
    const pending = send('GET', `/v1/agents/${agentId}`).then((answer) => {
      answered = true;
      return answer;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(waits).toEqual([400]);
    expect(answered).toBe(false);
    release();
    expect((await pending).status).toBe(200);
    let deployed = false;
    const deploy = send('POST', '/v1/agents/deploy', { name: 'a', category: 'nft', model: 'gpt-4', initialSupply: 1 });
    void deploy.then(() => {
      deployed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(waits).toEqual([400, 300]);
    expect(deployed).toBe(false);
    release();
    expect((await deploy).status).toBe(201);
  });

  it('sets the task failure ratio', async () => {
    const agentId = await anActiveAgent();
    await send('PUT', '/__mock/scenarios', { taskFailureRatio: 1 });
    const { taskId } = (await send('POST', `/v1/agents/${agentId}/execute`, { task: 'x' })).json() as {
      taskId: string;
    };
    core.clock.advance(600_000);
    expect((await send('GET', `/__mock/tasks/${taskId}`)).json().status).toBe('failed');
  });

  it('refuses an invalid scenario with every reason', async () => {
    const answer = await send('PUT', '/__mock/scenarios', {
      latencyMs: -1,
      operations: { getAgent: { errorStatus: 409 }, nope: {} },
      rateLimit: { limit: 0 },
      extra: 1,
    });
    expect(answer.status).toBe(400);
    expect((answer.json().errors as { path: string }[]).map((error) => error.path).sort()).toEqual([
      '/extra',
      '/latencyMs',
      '/operations/getAgent/errorStatus',
      '/operations/nope',
      '/rateLimit/limit',
      '/rateLimit/windowSeconds',
    ]);
  });
});

describe('determinism', () => {
  it('the same seed gives byte-identical agents and the same ids for the same requests', async () => {
    const run = async (): Promise<string> => {
      core = createMockCore({ seed: 'demo', clock: createFixedClock(START), logger: silentLogger });
      const list = (await send('GET', '/__mock/agents?limit=1000')).body;
      const deployed = (
        await send('POST', '/v1/agents/deploy', { name: 'a', category: 'nft', model: 'gpt-4', initialSupply: 1 })
      ).body;
      const agentId = (JSON.parse(deployed) as { agentId: string }).agentId;
      const task = (await send('POST', `/v1/agents/${agentId}/execute`, { task: 'x' })).body;
      const agents = await Promise.all(
        (JSON.parse(list) as { agents: { agentId: string }[] }).agents.map(
          async (agent) => (await send('GET', `/v1/agents/${agent.agentId}`)).body,
        ),
      );
      return [list, deployed, task, ...agents].join('\n');
    };
    expect(await run()).toBe(await run());
  });
});

describe('Prefer answers every documented status and example of every operation within the spec', () => {
  it('passes the response checker for each (operation, status, example)', async () => {
    const { getAtPointer, isJsonObject, openapiDocument, operations, resolveValue } = await import(
      '../../spec/index.ts'
    );
    const { documentedExamples } = await import('../core/documented-response.ts');
    const { fillPath, findPathValues } = await import('../../verifier-client/requests/path-parameters.ts');
    const { primaryCreation } = await import('../../verifier-client/requests/linked-operations.ts');
    const firstExample = (operationId: OperationId): unknown => {
      const pointer = operations.get(operationId)?.requestSchemaPointer;
      const examples = pointer ? getAtPointer(openapiDocument, pointer.replace(/\/schema$/, '/examples')) : undefined;
      const example = resolveValue(isJsonObject(examples) ? Object.values(examples)[0] : undefined);
      return isJsonObject(example) ? example.value : undefined;
    };
    // Paths are filled the way the spec's links say (a task's id from an execute on the active agent), not by hand.
    const create = async (creator: OperationId, values: Readonly<Record<string, string>>): Promise<unknown> =>
      (await send(operations.get(creator)?.method ?? 'POST', fillPath(creator, values), firstExample(creator))).json();
    const known = { [primaryCreation().parameter]: await anActiveAgent() };
    let checked = 0;
    // Every operation of the spec, on its own method and path, with its first documented request example as the body.
    for (const [operationId, operation] of operations) {
      const { method } = operation;
      const path = fillPath(operationId, await findPathValues(operationId, create, known));
      const body = firstExample(operationId);
      for (const status of operation.responses.keys()) {
        const names = documentedExamples(operationId, status).map((example) => example.name);
        for (const name of [undefined, ...names]) {
          const prefer = name === undefined ? `code=${status}` : `code=${status}, example=${name}`;
          const response = await send(method, path, body, { prefer });
          expect(response.status, `${operationId} ${prefer}`).toBe(status);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(25);
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
