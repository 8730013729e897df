// Coverage counting through the core: each kind of answer bumps exactly the entries it should, and nothing else.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { operations } from '../../../spec/index.ts';
import { mintToken } from '../request/auth.ts';
import { createFixedClock } from '../../domain/clock.ts';
import { createMockCore, type MockCore } from '../../assembly/mock-core.ts';
import { Coverage, parseSnapshot, type CoverageReport } from './coverage.ts';
import { silentLogger } from '../../domain/logger.ts';
import { documentedExamples } from '../documented-response.ts';
import { PROBLEMS } from '../problems.ts';
import type { ScenarioConfig } from './scenarios.ts';

const START = Date.parse('2026-11-20T12:00:00.000Z');
let core: MockCore;
let token: string;

beforeEach(async () => {
  core = createMockCore({ seed: 42, clock: createFixedClock(START), logger: silentLogger, failureRatio: 0 });
  token = await mintToken();
});

async function send(
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; auth?: boolean } = {},
): Promise<number> {
  const response = await core.handle({
    method,
    path,
    query: '',
    headers: {
      ...(options.auth !== false && { authorization: `Bearer ${token}` }),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? null : new TextEncoder().encode(JSON.stringify(options.body)),
  });
  return response.status;
}

const counts = (report: CoverageReport): Map<string, number> =>
  new Map(report.entries.map((e) => [`${e.category} ${e.operationId ?? '-'} ${e.key}`, e.count]));

/** The entries whose count changed while `act` ran, with by how much. */
async function bumped(act: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = counts(core.coverage.report());
  await act();
  const changed: Record<string, number> = {};
  for (const [id, count] of counts(core.coverage.report())) {
    if (count !== (before.get(id) ?? 0)) changed[id] = count - (before.get(id) ?? 0);
  }
  return changed;
}

const anAgent = (status: 'active' | 'paused'): string => core.store.list({ status, limit: 1 }).agents[0]?.agentId ?? '';
const validDeploy = { name: 'a', category: 'defi', model: 'gpt-4', initialSupply: 1 };
const validTask = { task: 'summarize the market' };

describe('coverage universe', () => {
  it('holds every documented status, named example, Prefer code, scenario branch and problem kind, all unseen', () => {
    const report = new Coverage().report();
    const ids = [...counts(report).keys()];
    const expected = [...operations.values()].flatMap((operation) => [
      `scenario ${operation.operationId} latency`,
      `scenario ${operation.operationId} rate-limit`,
      ...[...operation.responses.keys()].flatMap((status) => [
        `status ${operation.operationId} ${status}`,
        `prefer ${operation.operationId} code=${status}`,
        ...(status >= 400 ? [`scenario ${operation.operationId} error ${status}`] : []),
        ...documentedExamples(operation.operationId, status).map(
          (example) => `example ${operation.operationId} ${status} ${example.name}`,
        ),
      ]),
    ]);
    expected.push(...Object.keys(PROBLEMS).map((kind) => `problem - ${kind}`));
    expect(ids.sort()).toEqual(expected.sort());
    expect(report.entries.every((e) => e.count === 0 && e.documented)).toBe(true);
    expect(report.percent).toBe(0);
    expect(report.categories.status.total).toBe([...operations.values()].reduce((n, o) => n + o.responses.size, 0));
  });
});

describe('coverage counting through the core', () => {
  const cases: {
    name: string;
    scenarios?: ScenarioConfig;
    act: () => Promise<unknown>;
    expected: Record<string, number>;
  }[] = [
    {
      name: 'a retrieve',
      act: () => send('GET', `/v1/agents/${anAgent('active')}`),
      expected: { 'status getAgent 200': 1 },
    },
    {
      name: 'an unknown agent',
      act: () => send('GET', '/v1/agents/agt_unknown'),
      expected: { 'status getAgent 404': 1, 'problem - agent-not-found': 1 },
    },
    {
      name: 'no token',
      act: () => send('POST', '/v1/agents/deploy', { body: validDeploy, auth: false }),
      expected: { 'status deployAgent 401': 1, 'problem - unauthorized': 1 },
    },
    {
      name: 'an invalid deploy',
      act: () => send('POST', '/v1/agents/deploy', { body: { name: '' } }),
      expected: { 'status deployAgent 400': 1, 'problem - validation': 1 },
    },
    {
      name: 'a deploy',
      act: () => send('POST', '/v1/agents/deploy', { body: validDeploy }),
      expected: { 'status deployAgent 201': 1 },
    },
    {
      name: 'a task for a paused agent',
      act: () => send('POST', `/v1/agents/${anAgent('paused')}/execute`, { body: validTask }),
      expected: { 'status executeAgentTask 409': 1, 'problem - agent-not-active': 1 },
    },
    {
      name: 'Prefer: code=409 (the first 409 example)',
      act: () =>
        send('POST', `/v1/agents/${anAgent('active')}/execute`, { body: validTask, headers: { prefer: 'code=409' } }),
      expected: {
        'status executeAgentTask 409': 1,
        'prefer executeAgentTask code=409': 1,
        'example executeAgentTask 409 paused': 1,
      },
    },
    {
      name: 'Prefer: example=pausedAgent',
      act: () => send('GET', `/v1/agents/${anAgent('active')}`, { headers: { prefer: 'example=pausedAgent' } }),
      expected: { 'status getAgent 200': 1, 'example getAgent 200 pausedAgent': 1 },
    },
    {
      name: 'Prefer: code=401, example=expiredToken',
      act: () => send('GET', '/v1/agents/agt_x', { headers: { prefer: 'code=401, example=expiredToken' } }),
      expected: { 'status getAgent 401': 1, 'prefer getAgent code=401': 1, 'example getAgent 401 expiredToken': 1 },
    },
    {
      name: 'Prefer: code=201 (the real deploy runs)',
      act: () => send('POST', '/v1/agents/deploy', { body: validDeploy, headers: { prefer: 'code=201' } }),
      expected: { 'status deployAgent 201': 1, 'prefer deployAgent code=201': 1 },
    },
    {
      name: 'an undocumented Prefer code',
      act: () => send('GET', '/v1/agents/agt_x', { headers: { prefer: 'code=418' } }),
      expected: { 'status getAgent 400': 1, 'problem - bad-request': 1 },
    },
    {
      name: 'scenario latency',
      scenarios: { operations: { getAgent: { latencyMs: 1 } } },
      act: () => send('GET', '/v1/agents/agt_unknown'),
      expected: { 'status getAgent 404': 1, 'scenario getAgent latency': 1, 'problem - agent-not-found': 1 },
    },
    {
      name: 'scenario forced 500 (the first 500 example)',
      scenarios: { operations: { deployAgent: { errorStatus: 500 } } },
      act: () => send('POST', '/v1/agents/deploy', { body: validDeploy }),
      expected: {
        'status deployAgent 500': 1,
        'scenario deployAgent error 500': 1,
        'example deployAgent 500 internal': 1,
      },
    },
    {
      name: 'scenario rate limit (the second request)',
      scenarios: { rateLimit: { limit: 1, windowSeconds: 60 } },
      act: async () => {
        await send('GET', '/v1/agents/agt_unknown');
        await send('GET', '/v1/agents/agt_unknown');
      },
      expected: {
        'status getAgent 404': 1,
        'problem - agent-not-found': 1,
        'status getAgent 429': 1,
        'scenario getAgent rate-limit': 1,
        'problem - rate-limited': 1,
      },
    },
    {
      name: 'a path no operation has',
      act: () => send('GET', '/v2/nothing'),
      expected: { 'problem - not-found': 1 },
    },
    {
      name: 'the control plane (not counted)',
      act: () => send('GET', '/__mock/agents'),
      expected: {},
    },
  ];

  it.each(cases)('$name', async ({ scenarios, act, expected }) => {
    if (scenarios) core.scenarios.configure(scenarios);
    expect(await bumped(act)).toEqual(expected);
  });

  it('counts the requests and the headline percentage over documented (operation, status) pairs', async () => {
    await send('GET', `/v1/agents/${anAgent('active')}`);
    await send('GET', `/v1/agents/${anAgent('active')}`);
    await send('GET', '/v1/agents/agt_unknown');
    const report = core.coverage.report();
    expect(report.requests).toBe(3);
    expect(report.categories.status.covered).toBe(2);
    expect(report.percent).toBe(Math.round((2 / report.categories.status.total) * 1000) / 10);
  });

  it('lists an undocumented status apart, outside the percentage, and forgets it on reset', () => {
    const coverage = new Coverage();
    const request = { method: 'GET', path: '/v1/agents/x', query: '', headers: {}, body: null };
    coverage.record('getAgent', request, { status: 418, headers: {}, body: '' }, undefined);
    const report = coverage.report();
    expect(report.entries.filter((e) => !e.documented)).toEqual([
      { category: 'status', operationId: 'getAgent', key: '418', count: 1, documented: false },
    ]);
    expect(report.categories.status.covered).toBe(0);
    coverage.reset();
    expect(coverage.report().entries.some((e) => !e.documented)).toBe(false);
  });
});

describe('GET and DELETE /__mock/coverage', () => {
  const document = parse(readFileSync(new URL('../../control-plane/control-plane.yaml', import.meta.url), 'utf8')) as {
    components: { schemas: Record<string, unknown> };
  };

  it('answers what mocks/control-plane/control-plane.yaml documents, and DELETE forgets it while POST /__mock/reset does not', async () => {
    await send('GET', `/v1/agents/${anAgent('active')}`);
    await send('POST', '/__mock/reset');
    const response = await core.handle({ method: 'GET', path: '/__mock/coverage', query: '', headers: {}, body: null });
    expect(response.status).toBe(200);
    const body: unknown = JSON.parse(response.body);
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'control-plane', components: document.components });
    const validate = ajv.compile({ $ref: 'control-plane#/components/schemas/Coverage' });
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect((body as CoverageReport).categories.status.covered).toBe(1);

    expect(await send('DELETE', '/__mock/coverage')).toBe(204);
    const cleared = core.coverage.report();
    expect(cleared.requests).toBe(0);
    expect(cleared.entries.every((e) => e.count === 0)).toBe(true);
  });
});

describe('coverage snapshot', () => {
  it('restores what toJSON wrote, and drops an entry the spec no longer has', async () => {
    await send('GET', '/v1/agents/agt_unknown', { headers: { prefer: 'code=404' } });
    const snapshot = JSON.parse(JSON.stringify(core.coverage)) as ReturnType<Coverage['toJSON']>;
    snapshot.entries.push({ category: 'example', operationId: 'getAgent', key: '200 goneExample', count: 4 });
    const restored = new Coverage();
    restored.restore(snapshot);
    expect(restored.report()).toEqual(core.coverage.report());
  });

  it.each([
    ['not an object', 'x', /not an object/],
    ['another version', { version: 2, requests: 0, entries: [] }, /version 1/],
    ['a negative request count', { version: 1, requests: -1, entries: [] }, /request count/],
    ['no entries', { version: 1, requests: 0 }, /entries array/],
    [
      'an unknown category',
      { version: 1, requests: 0, entries: [{ category: 'x', operationId: null, key: 'k', count: 1 }] },
      /\/entries\/0/,
    ],
    [
      'a fractional count',
      { version: 1, requests: 0, entries: [{ category: 'problem', operationId: null, key: 'internal', count: 0.5 }] },
      /\/entries\/0/,
    ],
    [
      'a status that is not one',
      { version: 1, requests: 0, entries: [{ category: 'status', operationId: 'getAgent', key: 'abc', count: 1 }] },
      /\/entries\/0/,
    ],
  ])('refuses %s', (_name, value, message) => {
    expect(() => parseSnapshot(value)).toThrow(message);
    expect(() => new Coverage().restore(value)).toThrow(message);
  });
});
