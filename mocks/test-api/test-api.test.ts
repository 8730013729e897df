// The test API over an in-process core: seeding, overrides, scenarios, clock and the one reset, each checked through
// what the API then answers.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Agent, TaskSubmission } from '../../spec/index.ts';
import { mintToken } from '../core/request/auth.ts';
import { createFixedClock } from '../domain/clock.ts';
import { createMockCore, type MockCore } from '../assembly/mock-core.ts';
import { expectConforms } from './expect-conforms.ts';
import { MockInputError } from '../domain/input-error.ts';
import { silentLogger } from '../domain/logger.ts';
import { OverrideError } from '../core/steering/overrides.ts';
import { createTestApi, type MockTestApi } from './test-api.ts';

const START = Date.parse('2026-11-20T12:00:00.000Z');
let core: MockCore;
let api: MockTestApi;
let token: string;

async function send(method: string, path: string, body?: unknown): Promise<{ status: number; json: () => unknown }> {
  const response = await core.handle({
    method,
    path,
    query: '',
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
  });
  if (path.startsWith('/v1'))
    expectConforms({ method, path, status: response.status, headers: response.headers, body: response.body });
  return { status: response.status, json: () => JSON.parse(response.body) as unknown };
}

async function refusal(call: Promise<unknown>): Promise<MockInputError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(MockInputError);
  return error as MockInputError;
}

beforeEach(async () => {
  core = createMockCore({ seed: 42, clock: createFixedClock(START), logger: silentLogger, failureRatio: 0 });
  api = createTestApi(core);
  token = await mintToken();
});

describe('seedAgent', () => {
  it('stores an agent with the given fields, the rest generated, and GET answers exactly the stored record', async () => {
    const agent = await api.seedAgent({
      name: 'N'.repeat(100),
      status: 'deprecated',
      performance: { tasksCompleted: 40 },
      statistics: { holders: 0 },
    });
    expect(agent).toMatchObject({ name: 'N'.repeat(100), status: 'deprecated', statistics: { holders: 0 } });
    expect(agent.performance).toMatchObject({ tasksCompleted: 40, successRate: 1 });
    const retrieved = await send('GET', `/v1/agents/${agent.agentId}`);
    expect(retrieved.status).toBe(200);
    expect(retrieved.json()).toEqual(agent);
  });

  it('is active by default, derives marketCap and circulatingSupply from what is given, and is deterministic', async () => {
    const agent = await api.seedAgent({ tokenomics: { totalSupply: 1000, price: 0.5 } });
    expect(agent.status).toBe('active');
    expect(agent.tokenomics).toMatchObject({ totalSupply: 1000, circulatingSupply: 1000, price: 0.5, marketCap: 500 });
    core.reset();
    expect(await api.seedAgent({ tokenomics: { totalSupply: 1000, price: 0.5 } })).toEqual(agent);
  });

  it.each([
    ['a 300-character name', { name: 'x'.repeat(300) }, '/name'],
    ['a status outside the enum', { status: 'sleeping' }, '/status'],
    ['an undocumented field', { nmae: 'typo' }, '/nmae'],
    [
      'more in circulation than supplied',
      { tokenomics: { totalSupply: 10, circulatingSupply: 20 } },
      '/tokenomics/circulatingSupply',
    ],
    ['a marketCap that is not price × supply', { tokenomics: { marketCap: -1 } }, '/tokenomics/marketCap'],
    [
      'a success rate with no completed task',
      { performance: { tasksCompleted: 0, successRate: 0.5 } },
      '/performance/successRate',
    ],
    [
      'a success rate its counts contradict',
      { tasksFailed: 10, performance: { tasksCompleted: 10, successRate: 0.9 } },
      '/performance/successRate',
    ],
    ['a taken id', { agentId: 'agt_taken' }, '/agentId'],
  ])('refuses %s, naming the field', async (_name, seed, path) => {
    if (path === '/agentId') await api.seedAgent({ agentId: 'agt_taken' });
    const error = await refusal(api.seedAgent(seed as never));
    expect(error.errors.map((e) => e.path)).toContain(path);
  });
});

describe('seedTask', () => {
  it('stores a task in each status on the mock clock; a finished one counts in its agent at once', async () => {
    const agent = await api.seedAgent({ performance: { tasksCompleted: 0 } });
    const statuses = ['queued', 'processing', 'completed', 'failed'] as const;
    for (const status of statuses) {
      const task = await api.seedTask({ agentId: agent.agentId, status });
      expect(task.status).toBe(status);
      expect((await send('GET', `/__mock/tasks/${task.taskId}`)).json()).toMatchObject({ status });
    }
    const after = (await send('GET', `/v1/agents/${agent.agentId}`)).json() as Agent;
    expect(after.performance).toMatchObject({ tasksCompleted: 1, successRate: 0.5 });
  });

  it('drives a queued task to the outcome asked for when the clock moves', async () => {
    const agent = await api.seedAgent();
    const task = await api.seedTask({ agentId: agent.agentId, status: 'queued', outcome: 'failed' });
    await api.advanceClock(3_600_000);
    expect((await send('GET', `/__mock/tasks/${task.taskId}`)).json()).toMatchObject({ status: 'failed' });
  });

  it('refuses a bad status, an unknown agent, and a queued task on a paused agent', async () => {
    const paused = await api.seedAgent({ status: 'paused' });
    expect((await refusal(api.seedTask({ agentId: paused.agentId, status: 'done' as never }))).errors[0]?.path).toBe(
      '/status',
    );
    expect((await refusal(api.seedTask({ agentId: 'agt_none', status: 'queued' }))).errors[0]?.path).toBe('/agentId');
    expect((await refusal(api.seedTask({ agentId: paused.agentId, status: 'queued' }))).message).toMatch(/paused/);
    expect((await api.seedTask({ agentId: paused.agentId, status: 'completed' })).status).toBe('completed');
  });

  it('refuses a misspelt outcome with one message, the control plane’s', async () => {
    const agent = await api.seedAgent();
    const seed = { agentId: agent.agentId, status: 'queued', outcome: 'complete' } as never;
    expect((await refusal(api.seedTask(seed))).errors).toEqual([
      { path: '/outcome', message: 'must be one of completed, failed' },
    ]);
    const answered = await core.handle({
      method: 'POST',
      path: '/__mock/tasks',
      query: '',
      headers: { 'content-type': 'application/json' },
      body: new TextEncoder().encode(JSON.stringify(seed)),
    });
    expect((JSON.parse(answered.body) as { errors: unknown }).errors).toEqual([
      { path: '/outcome', message: 'must be one of completed, failed' },
    ]);
  });
});

describe('setAgentStatus', () => {
  it('pauses an agent, and refuses a status outside the enum or an unknown agent', async () => {
    const agent = await api.seedAgent();
    expect((await api.setAgentStatus(agent.agentId, 'paused')).status).toBe('paused');
    expect((await send('POST', `/v1/agents/${agent.agentId}/execute`, { task: 'x' })).status).toBe(409);
    expect((await refusal(api.setAgentStatus(agent.agentId, 'sleeping' as never))).errors[0]?.path).toBe('/status');
    expect((await refusal(api.setAgentStatus('agt_none', 'active'))).errors[0]?.path).toBe('/agentId');
  });
});

describe('override', () => {
  it('answers the operation with a documented status, the spec example when no body is given', async () => {
    const agent = await api.seedAgent();
    await api.override('executeAgentTask', 409);
    const answer = await send('POST', `/v1/agents/${agent.agentId}/execute`, { task: 'x' });
    expect(answer.status).toBe(409);
    await api.override('GET /v1/agents/{agentId}', 200, { ...agent, name: 'Overridden' });
    expect(((await send('GET', '/v1/agents/anything')).json() as Agent).name).toBe('Overridden');
  });

  it('fails loudly on a body that breaks the spec, with the JSON Pointer and the rule', async () => {
    const agent = await api.seedAgent();
    const thrown = await api
      .override('getAgent', 200, { ...agent, tokenomics: { ...agent.tokenomics, price: -1 } })
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(OverrideError);
    expect((thrown as OverrideError).problems).toContainEqual(
      expect.objectContaining({ path: '/tokenomics/price', rule: 'body-schema' }),
    );
    const misspelt = await api.override('getAgent', 200, { ...agent, nmae: 'x' } as Agent).catch((e: unknown) => e);
    expect((misspelt as OverrideError).problems).toContainEqual(
      expect.objectContaining({ path: '/nmae', rule: 'undocumented-field' }),
    );
    const undocumented = await api.override('getAgent', 415 as 500).catch((e: unknown) => e);
    expect((undocumented as OverrideError).problems[0]?.rule).toBe('status-documented');
    expect((await send('GET', `/v1/agents/${agent.agentId}`)).status).toBe(200);
  });

  it('answers with the path of the request it answers, and a Retry-After its body agrees with', async () => {
    const agent = await api.seedAgent();
    await api.override('getAgent', 500);
    expect((await send('GET', `/v1/agents/${agent.agentId}`)).json()).toMatchObject({
      instance: `/v1/agents/${agent.agentId}`,
    });
    await api.override('getAgent', 429, undefined, { headers: { 'retry-after': '5' } });
    const limited = await core.handle({ method: 'GET', path: '/v1/agents/a', query: '', headers: {}, body: null });
    expect(limited.headers['retry-after']).toBe('5');
    const { detail } = JSON.parse(limited.body) as { detail: string };
    expect(detail).not.toMatch(/\d+ seconds?/);
    expect(detail).toMatch(/Retry-After/);
  });

  it.each([
    ['deployAgent', '/v1/agents/deploy', 'POST'],
    ['executeAgentTask', '/v1/agents/agt_x/execute', 'POST'],
    ['getAgent', '/v1/agents/agt_x', 'GET'],
  ] as const)('answers %s 503 with Retry-After and a body that names no storage', async (operation, path, method) => {
    await api.override(operation, 503);
    const unavailable = await send(method, path, method === 'POST' ? {} : undefined);
    expect(unavailable.status).toBe(503);
    expect(JSON.stringify(unavailable.json())).not.toMatch(/database|disk|stor/i);
    const answer = await core.handle({ method, path, query: '', headers: {}, body: null });
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('labels a problem by what it is about: the status, not the body', async () => {
    const thrown = (await api.override('getAgent', 418 as 500).catch((e: unknown) => e)) as OverrideError;
    expect(thrown.message).toMatch(/\(the status\) status 418/);
    expect(thrown.message).not.toMatch(/\(the body\)/);
  });

  it('serves a deliberately broken answer through the escape hatch', async () => {
    await api.overrideUnchecked('getAgent', 418, { agentId: 1 });
    const response = await core.handle({ method: 'GET', path: '/v1/agents/a', query: '', headers: {}, body: null });
    expect(response.status).toBe(418);
    expect(JSON.parse(response.body)).toEqual({ agentId: 1 });
  });
});

describe('setScenarios', () => {
  it.each([
    ['a negative latency', { latencyMs: -5 }, '/latencyMs'],
    ['an undocumented 418', { operations: { getAgent: { errorStatus: 418 } } }, '/operations/getAgent/errorStatus'],
    [
      '415 on getAgent, which does not document it',
      { operations: { getAgent: { errorStatus: 415 } } },
      '/operations/getAgent/errorStatus',
    ],
    ['an unknown operation', { operations: { getAgents: {} } }, '/operations/getAgents'],
  ])('refuses %s exactly as PUT /__mock/scenarios does', async (_name, config, path) => {
    const error = await refusal(api.setScenarios(config as never));
    expect(error.errors.map((e) => e.path)).toContain(path);
    const http = await send('PUT', '/__mock/scenarios', config);
    expect(http.status).toBe(400);
    expect((http.json() as { errors: unknown[] }).errors).toEqual(error.errors);
    expect(core.scenarios.active).toBe(false);
  });

  it('says what it refuses in a sentence that reads', async () => {
    const error = await refusal(api.setScenarios({ latencyMs: -5 }));
    expect(error.message).toMatch(/^The scenario configuration is refused: \/latencyMs/);
    const unknown = await refusal(api.setAgentStatus('agt_none', 'paused'));
    expect(unknown.message).toBe('Agent agt_none is refused: /agentId names no agent the fake holds');
  });

  it('applies a documented error status', async () => {
    const agent = await api.seedAgent();
    await api.setScenarios({ operations: { getAgent: { errorStatus: 500 } } });
    expect((await send('GET', `/v1/agents/${agent.agentId}`)).status).toBe(500);
  });
});

describe('advanceClock', () => {
  it.each([
    ['-1 ms', -1],
    ['an hour back', -3_600_000],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('refuses %s with the MockInputError the control plane’s client throws, the clock unmoved', async (_name, ms) => {
    const error = await refusal(api.advanceClock(ms));
    expect(error.errors).toEqual([{ path: '/ms', message: expect.stringMatching(/^must be a finite number/) }]);
    expect(core.clock.offset).toBe(0);
  });
});

describe('reset', () => {
  it('restores overrides and handlers, state, scenarios, clock and journal at once', async () => {
    let handlersReset = 0;
    api = createTestApi(core, { resetHandlers: () => (handlersReset += 1) });
    const agent = await api.seedAgent();
    await api.override('deployAgent', 500);
    await api.setScenarios({ latencyMs: 1 });
    await api.advanceClock(60_000);
    await send('GET', `/v1/agents/${agent.agentId}`);
    await api.reset();
    expect(handlersReset).toBe(1);
    expect(core.overrides.size).toBe(0);
    expect(core.scenarios.active).toBe(false);
    expect(core.clock.now()).toBe(START);
    expect(core.journal.entries(10)).toEqual([]);
    expect((await send('GET', `/v1/agents/${agent.agentId}`)).status).toBe(404);
    const deployed = await send('POST', '/v1/agents/deploy', {
      name: 'n',
      category: 'nft',
      model: 'gpt-4',
      initialSupply: 1,
    });
    expect(deployed.status).toBe(201);
  });
});

describe('store.deploy', () => {
  it('checks its request against the spec like the API does (a 300-character name is refused)', () => {
    const request = { name: 'x'.repeat(300), category: 'defi' as const, model: 'gpt-4' as const, initialSupply: 1 };
    expect(() => core.store.deploy(request, 'alice')).toThrow(MockInputError);
    expect(() => core.store.deploy(request, 'alice')).toThrow(/\/name/);
    const ok = core.store.deploy({ ...request, name: 'fine' }, 'alice');
    expect(core.store.get(ok.agentId)?.tokenomics.price).toBe(0.01);
  });

  it('leaves the executed task submission typed as the spec says', async () => {
    const agent = await api.seedAgent();
    const answer = await send('POST', `/v1/agents/${agent.agentId}/execute`, { task: 'x' });
    expect((answer.json() as TaskSubmission).status).toBe('queued');
  });
});

describe('override once and times', () => {
  it('answers once (or n times), then lets the operation answer again, each answer marked in the journal', async () => {
    const agentId = (await api.seedAgent({ name: 'Held' })).agentId;
    await api.override('getAgent', 503, undefined, { once: true });
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(503);
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(200);
    await api.override('GET /v1/agents/{agentId}', 500, undefined, { times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await send('GET', `/v1/agents/${agentId}`)).status);
    expect(statuses).toEqual([500, 500, 200]);
    const seen = await api.requests('getAgent');
    expect(seen.map((request) => [request.status, request.forcedBy])).toEqual([
      [503, 'override'],
      [200, undefined],
      [500, 'override'],
      [500, 'override'],
      [200, undefined],
    ]);
  });

  it('refuses a count that is not a whole number from 1, or once beside another count', async () => {
    for (const options of [{ times: 0 }, { times: 1.5 }, { times: Number.POSITIVE_INFINITY }, { once: true, times: 3 }])
      await expect(api.override('getAgent', 500, undefined, options)).rejects.toThrow(OverrideError);
    await expect(api.override('getAgent', 500, undefined, { times: 0 })).rejects.toThrow(
      /times must be a whole number from 1/,
    );
  });
});

describe('requests: the body as sent', () => {
  const deploy = { name: 'As Sent', category: 'defi', model: 'gpt-4', initialSupply: 1000, capabilities: ['swap'] };
  it('gives sentBody without the defaults the validated body has, and filters on either', async () => {
    expect((await send('POST', '/v1/agents/deploy', deploy)).status).toBe(201);
    expect((await send('POST', '/v1/agents/deploy', { ...deploy, revenueShare: 0 })).status).toBe(201);
    const [omitted, zero] = await api.requests('deployAgent');
    expect(omitted?.body?.revenueShare).toBe(0);
    expect(omitted?.sentBody).toEqual(deploy);
    expect(omitted?.sentBody && 'revenueShare' in omitted.sentBody).toBe(false);
    expect(zero?.sentBody?.revenueShare).toBe(0);
    expect(await api.requests('deployAgent', { sentBody: { revenueShare: 0 } })).toHaveLength(1);
    expect(await api.requests('deployAgent', { body: { revenueShare: 0 } })).toHaveLength(2);
  });

  it('keeps what was sent when the body broke the schema, and when an override answered', async () => {
    expect((await send('POST', '/v1/agents/deploy', { ...deploy, name: 7 })).status).toBe(400);
    await api.override('deployAgent', 500);
    expect((await send('POST', '/v1/agents/deploy', deploy)).status).toBe(500);
    const [broken, overridden] = await api.requests('deployAgent');
    expect(broken?.sentBody).toEqual({ ...deploy, name: 7 });
    expect(broken?.bodyErrors?.[0]?.path).toBe('/name');
    expect(overridden).toMatchObject({ status: 500, forcedBy: 'override', sentBody: deploy });
  });
});

describe('task', () => {
  it('reads a task back as the fake holds it, on the mock clock, and refuses an id it does not hold', async () => {
    const agent = await api.seedAgent({ status: 'active' });
    const seeded = await api.seedTask({ agentId: agent.agentId, status: 'queued', outcome: 'failed' });
    expect(await api.task(seeded.taskId)).toEqual(seeded);
    await api.advanceClock(3_600_000);
    expect((await api.task(seeded.taskId)).status).toBe('failed');
    const error = await refusal(api.task('tsk_nobody'));
    expect(error.errors[0]?.path).toBe('/taskId');
  });
});
