// The test API over HTTP against the standalone server (started on a free port), and the control-plane routes it uses:
// the same answers and refusals as the in-process API.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../spec/index.ts';
import { mintToken } from '../core/request/auth.ts';
import { MockInputError } from '../domain/input-error.ts';
import { silentLogger } from '../domain/logger.ts';
import { OverrideError } from '../core/steering/overrides.ts';
import { connectTestApi } from './remote-test-api.ts';
import { startMockServer, type RunningMockServer } from '../entries/server.ts';
import { createTestApi, type MockTestApi } from './test-api.ts';
import { setupServer } from 'msw/node';

let server: RunningMockServer;
let api: MockTestApi;
let token: string;

beforeAll(async () => {
  server = await startMockServer({ port: 0, logger: silentLogger, failureRatio: 0 });
  api = connectTestApi({ baseUrl: server.url });
  token = await mintToken();
});
afterAll(() => server.close());
beforeEach(() => api.reset());

const get = (path: string): Promise<Response> =>
  fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
const post = (path: string, body: unknown): Promise<Response> =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the control plane seeding routes', () => {
  it('POST /__mock/agents answers 201 with the stored record, which GET then answers', async () => {
    const created = await post('/__mock/agents', { name: 'Zero holders', statistics: { holders: 0 } });
    expect(created.status).toBe(201);
    const agent = (await created.json()) as Agent;
    expect(agent.statistics.holders).toBe(0);
    expect(await (await get(`/v1/agents/${agent.agentId}`)).json()).toEqual(agent);
  });

  it('POST /__mock/agents answers 400 problem+json naming each bad field', async () => {
    const refused = await post('/__mock/agents', { name: 'x'.repeat(300), status: 'sleeping', nmae: 1 });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const problem = (await refused.json()) as { errors: { path: string }[] };
    expect(problem.errors.map((e) => e.path).sort()).toEqual(['/name', '/nmae', '/status']);
    const long = (await (await post('/__mock/agents', { name: 'x'.repeat(300) })).json()) as {
      errors: { path: string }[];
    };
    expect(long.errors.map((e) => e.path)).toEqual(['/name']);
  });

  it('POST /__mock/tasks answers 201, 400, 404 and 409 as the seed deserves', async () => {
    const agent = await api.seedAgent();
    const paused = await api.seedAgent({ status: 'paused' });
    expect((await post('/__mock/tasks', { agentId: agent.agentId, status: 'processing' })).status).toBe(201);
    expect((await post('/__mock/tasks', { agentId: agent.agentId, status: 'done' })).status).toBe(400);
    expect((await post('/__mock/tasks', { agentId: 'agt_none', status: 'queued' })).status).toBe(404);
    expect((await post('/__mock/tasks', { agentId: paused.agentId, status: 'queued' })).status).toBe(409);
  });

  it('PUT /__mock/overrides refuses a body breaking the spec with the pointer and rule, and DELETE removes them', async () => {
    const put = (body: unknown): Promise<Response> =>
      fetch(`${server.url}/__mock/overrides`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const refused = await put({ operation: 'getAgent', status: 404, body: { type: 'x', title: 't', status: 404 } });
    expect(refused.status).toBe(400);
    const problem = (await refused.json()) as { errors: { path: string; message: string }[] };
    expect(problem.errors).toContainEqual({
      path: '/body/detail',
      message: expect.stringMatching(/rule body-schema at \/components/),
      rule: 'body-schema',
      specPointer: '/components/schemas/Problem/required',
    });
    expect((await put({ operation: 'getAgents', status: 404 })).status).toBe(400);
    expect((await put({ operation: 'getAgent', status: 415 })).status).toBe(400);
    expect((await put({ operation: 'GET /v1/agents/{agentId}', status: 404 })).status).toBe(200);
    expect((await get('/v1/agents/anything-at-all')).status).toBe(404);
    expect((await fetch(`${server.url}/__mock/overrides`, { method: 'DELETE' })).status).toBe(204);
    const agent = await api.seedAgent();
    expect((await get(`/v1/agents/${agent.agentId}`)).status).toBe(200);
  });
});

describe('GET /__mock/requests', () => {
  it('lists one operation’s requests, named by operationId or METHOD /path, and refuses any other name', async () => {
    const agent = await api.seedAgent();
    await get(`/v1/agents/${agent.agentId}`);
    const list = async (query: string) => {
      const response = await fetch(`${server.url}/__mock/requests${query}`);
      return { status: response.status, body: (await response.json()) as { requests?: unknown[]; errors?: unknown[] } };
    };
    const byId = await list('?operation=getAgent');
    expect(byId.body.requests).toEqual([
      expect.objectContaining({ seq: expect.any(Number), params: { agentId: agent.agentId }, status: 200, query: '' }),
    ]);
    expect((await list(`?operation=${encodeURIComponent('GET /v1/agents/{agentId}')}`)).body).toEqual(byId.body);
    const [first] = (byId.body.requests ?? []) as { seq: number }[];
    const seq = first?.seq ?? 0;
    expect((await list(`?operation=getAgent&after=${seq - 1}`)).body).toEqual(byId.body);
    expect((await list(`?operation=getAgent&after=${seq}`)).body).toEqual({ requests: [] });
    expect(await list('?operation=getAgents')).toMatchObject({
      status: 400,
      body: { errors: [{ path: '/query/operation', message: expect.stringMatching(/neither an operationId/) }] },
    });
    expect((await list('')).status).toBe(400);
  });
});

describe('connectTestApi', () => {
  it('seeds, overrides, sets scenarios, moves the clock and resets a running server', async () => {
    const agent = await api.seedAgent({ name: 'Remote' });
    expect(agent.name).toBe('Remote');
    const task = await api.seedTask({ agentId: agent.agentId, status: 'queued', outcome: 'completed' });
    await api.advanceClock(3_600_000);
    expect(await (await get(`/__mock/tasks/${task.taskId}`)).json()).toMatchObject({ status: 'completed' });
    await api.override('executeAgentTask', 409);
    expect((await post(`/v1/agents/${agent.agentId}/execute`, { task: 'x' })).status).toBe(409);
    await api.setScenarios({ operations: { getAgent: { errorStatus: 500 } } });
    expect((await get(`/v1/agents/${agent.agentId}`)).status).toBe(500);
    expect((await api.setAgentStatus(agent.agentId, 'paused')).status).toBe('paused');
    await api.reset();
    expect((await get(`/v1/agents/${agent.agentId}`)).status).toBe(404);
    expect(server.core.overrides.size).toBe(0);
  });

  it('throws the errors the in-process API throws, with the server’s field errors', async () => {
    const seed = await api.seedAgent({ name: '' }).catch((e: unknown) => e);
    expect(seed).toBeInstanceOf(MockInputError);
    expect((seed as MockInputError).errors[0]?.path).toBe('/name');
    const scenario = await api.setScenarios({ latencyMs: -5 }).catch((e: unknown) => e);
    expect((scenario as MockInputError).errors[0]?.path).toBe('/latencyMs');
    const override = await api.override('getAgent', 415 as 500).catch((e: unknown) => e);
    expect(override).toBeInstanceOf(OverrideError);
    expect((override as OverrideError).problems[0]).toMatchObject({ path: '', rule: 'status-documented' });
  });

  it('refuses an override with the same problems as in process: path, message, rule and spec pointer', async () => {
    const local = createTestApi(server.core);
    const mistakes = [
      () => ['getAgent', 200, { agentId: 1, statistics: { holders: 'many' } }] as const,
      () => ['getAgent', 415, undefined] as const,
      () => ['deployAgents', 201, undefined] as const,
    ];
    for (const mistake of mistakes) {
      const [operation, status, body] = mistake();
      const remote = await api.override(operation as 'getAgent', status as 200, body as never).catch((e: unknown) => e);
      const inProcess = await local
        .override(operation as 'getAgent', status as 200, body as never)
        .catch((e: unknown) => e);
      expect(remote).toBeInstanceOf(OverrideError);
      expect((remote as OverrideError).problems).toEqual((inProcess as OverrideError).problems);
    }
    const broken = (await api
      .override('getAgent', 200, { statistics: { holders: 'x' } } as never)
      .catch((e: unknown) => e)) as OverrideError;
    expect(broken.problems).toContainEqual(
      expect.objectContaining({
        path: '/statistics/holders',
        specPointer: expect.stringMatching(/^\/components\/schemas\//),
      }),
    );
    expect(broken.message).not.toMatch(/ at \]/);
  });

  it('moves the clock only by a finite step from 0, refusing as the in-process API does', async () => {
    const local = createTestApi(server.core);
    for (const ms of [-1, -3_600_000, Number.NaN, Number.POSITIVE_INFINITY]) {
      const remote = await api.advanceClock(ms).catch((e: unknown) => e);
      const inProcess = await local.advanceClock(ms).catch((e: unknown) => e);
      expect(remote).toBeInstanceOf(MockInputError);
      expect(inProcess).toBeInstanceOf(MockInputError);
      expect((remote as MockInputError).message).toBe((inProcess as MockInputError).message);
    }
    expect(server.core.clock.offset).toBe(0);
  });

  it('lists and waits for what the app sent, each session apart', async () => {
    const alice = connectTestApi({ baseUrl: server.url, headers: { 'x-mock-session': 'alice' } });
    const body = { name: 'Remote', category: 'defi', model: 'gpt-4', initialSupply: 5, revenueShare: 0.1 };
    const sent = (session?: string) =>
      fetch(`${server.url}/v1/agents/deploy`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(session !== undefined && { 'x-mock-session': session }),
        },
        body: JSON.stringify(body),
      });
    expect((await sent('alice')).status).toBe(201);
    const waited = alice.waitForRequest('deployAgent', { body: { name: 'Remote' } });
    expect(await waited).toMatchObject({ status: 201, body: { ...body, pricePerToken: expect.any(Number) } });
    expect(await api.requests('deployAgent')).toEqual([]);
    await sent();
    expect(await api.requests('deployAgent', { body: { revenueShare: 0.1 }, status: 201 })).toHaveLength(1);
    await expect(alice.waitForRequest('deployAgent', undefined, { timeout: 100 })).rejects.toThrow(
      /no deployAgent request came within 100 ms: the fake took 1 deployAgent request \(answered 201\)/,
    );
  });
});

describe('connectTestApi: once, the task, the body as sent', () => {
  it('answers an override once over HTTP, reads a task back, and lists sentBody and forcedBy', async () => {
    const agent = await api.seedAgent({ name: 'Remote once' });
    await api.override('getAgent', 503, undefined, { once: true });
    expect((await get(`/v1/agents/${agent.agentId}`)).status).toBe(503);
    expect((await get(`/v1/agents/${agent.agentId}`)).status).toBe(200);
    expect((await api.requests('getAgent')).map((request) => request.forcedBy)).toEqual(['override', undefined]);
    await expect(api.override('getAgent', 503, undefined, { times: 0 })).rejects.toThrow(/\/times must be >= 1/);
    const task = await api.seedTask({ agentId: agent.agentId, status: 'queued', outcome: 'completed' });
    expect(await api.task(task.taskId)).toEqual(task);
    await api.advanceClock(3_600_000);
    expect((await api.task(task.taskId)).status).toBe('completed');
    await expect(api.task('tsk_nobody')).rejects.toThrow(MockInputError);
    const deploy = { name: 'Sent', category: 'defi', model: 'gpt-4', initialSupply: 1000, capabilities: ['swap'] };
    expect((await post('/v1/agents/deploy', deploy)).status).toBe(201);
    const [sent] = await api.requests('deployAgent', { sentBody: { name: 'Sent' } });
    expect(sent?.sentBody).toEqual(deploy);
    expect(sent?.body?.revenueShare).toBe(0);
  });
});

describe('connectTestApi beside an msw server that errors on unhandled requests', () => {
  it('drives the standalone fake: its calls pass msw untouched', async () => {
    const mswServer = setupServer();
    mswServer.listen({ onUnhandledFrame: 'error' });
    try {
      const agent = await connectTestApi({ baseUrl: server.url }).seedAgent({ name: 'Past msw' });
      expect(agent.name).toBe('Past msw');
    } finally {
      mswServer.close();
    }
  });
});

describe('the real-time clock under the standalone server', () => {
  it('moves by what POST /__mock/clock/advance adds (no injected clock: the wall clock plus an offset)', async () => {
    const before = Date.now();
    const advanced = await post('/__mock/clock/advance', { seconds: 86_400 });
    expect(advanced.status).toBe(200);
    const { now, offsetMs } = (await (await get('/__mock/clock')).json()) as { now: string; offsetMs: number };
    expect(offsetMs).toBe(86_400_000);
    expect(Date.parse(now)).toBeGreaterThanOrEqual(before + 86_400_000);
    expect(Date.parse(now)).toBeLessThan(Date.now() + 86_400_000 + 1000);
  });
});

describe('writePact over the control plane', () => {
  it('writes the bytes GET /__mock/pact answers, creating the folder, and refuses a bad option before any request', async () => {
    const work = await mkdtemp(join(tmpdir(), 'remote-pact-'));
    try {
      const agent = await api.seedAgent({ status: 'paused' });
      expect((await get(`/v1/agents/${agent.agentId}`)).status).toBe(200);
      const file = join(work, 'pacts', 'web.json');
      const written = await api.writePact({ consumer: 'web', provider: 'registry', file, pactSpecification: 3 });
      expect(written.file).toBe(file);
      expect(written.interactions).toBeGreaterThan(0);
      const served = await (await get('/__mock/pact?consumer=web&provider=registry&version=3')).text();
      expect(await readFile(file, 'utf8')).toBe(served);
      expect(served).toContain('"name": "an agent exists with status paused"');
      await expect(api.writePact({ consumer: 'web', provider: 'x'.repeat(300), file })).rejects.toBeInstanceOf(
        MockInputError,
      );
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});

describe('connectTestApi against a fake that stopped answering', () => {
  /** A fetch that never answers, as a hung server, until its signal aborts it (as a real fetch does). */
  const hung: typeof fetch = (_input, init) =>
    new Promise((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    });

  it('ends waitForRequest at its timeout even while a poll is still unanswered', async () => {
    const api = connectTestApi({ baseUrl: 'http://127.0.0.1:9', fetch: hung });
    await expect(api.waitForRequest('deployAgent', undefined, { timeout: 300 })).rejects.toThrow(
      /within 300 ms \(the fake did not answer in time\)/,
    );
  }, 5000);

  it('ends every other call at the connection timeout', async () => {
    const api = connectTestApi({ baseUrl: 'http://127.0.0.1:9', fetch: hung, timeout: 300 });
    await expect(api.requests('deployAgent')).rejects.toThrow(/did not answer within 300 ms/);
    await expect(api.seedAgent()).rejects.toThrow(/did not answer within 300 ms/);
  }, 5000);

  it('refuses a timeout a timer cannot keep (0, -1, NaN, Infinity, 1e10, 30 days) with a MockInputError', async () => {
    const api = connectTestApi({ baseUrl: 'http://127.0.0.1:9', fetch: hung });
    for (const timeout of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 1e10, 30 * 24 * 3600 * 1000]) {
      await expect(api.waitForRequest('deployAgent', undefined, { timeout })).rejects.toBeInstanceOf(MockInputError);
      expect(() => connectTestApi({ baseUrl: 'http://127.0.0.1:9', timeout })).toThrow(MockInputError);
    }
  });
});
