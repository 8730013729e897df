// `requests` and `waitForRequest` over an in-process core: what the app sent to an operation, read from the journal,
// each body as the fake validated it; the wait finds requests made before it was called and after, each once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mintToken } from '../core/request/auth.ts';
import { createFixedClock } from '../domain/clock.ts';
import { createMockCore, type MockCore } from '../assembly/mock-core.ts';
import { MockInputError } from '../domain/input-error.ts';
import { silentLogger } from '../domain/logger.ts';
import { createTestApi, type MockTestApi } from './test-api.ts';

const START = Date.parse('2026-11-20T12:00:00.000Z');
let core: MockCore;
let api: MockTestApi;
let token: string;

async function send(method: string, path: string, body?: unknown, query = ''): Promise<number> {
  const response = await core.handle({
    method,
    path,
    query,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
  });
  return response.status;
}

const deploy = (body: unknown): Promise<number> => send('POST', '/v1/agents/deploy', body);
const form = { name: 'Form agent', category: 'defi', model: 'gpt-4', initialSupply: 1000, revenueShare: 0.1 };

beforeEach(async () => {
  core = createMockCore({ seed: 42, clock: createFixedClock(START), logger: silentLogger, failureRatio: 0 });
  api = createTestApi(core);
  token = await mintToken();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('requests', () => {
  it('lists what the app sent to one operation, oldest first: body with defaults, status and time; never the token', async () => {
    expect(await deploy(form)).toBe(201);
    await core.advanceClock(1000);
    expect(await deploy({ ...form, name: 'Second' })).toBe(201);
    const agentId = core.store.list({ offset: 0, limit: 1 }).agents[0]?.agentId ?? '';
    await send('GET', `/v1/agents/${agentId}`);
    const sent = await api.requests('deployAgent');
    expect(sent.map((request) => request.body?.name)).toEqual(['Form agent', 'Second']);
    expect(sent[0]).toMatchObject({
      operationId: 'deployAgent',
      method: 'POST',
      path: '/v1/agents/deploy',
      params: {},
      status: 201,
      at: '2026-11-20T12:00:00.000Z',
      body: { ...form, pricePerToken: expect.any(Number) },
    });
    expect(sent[1]?.at).toBe('2026-11-20T12:00:01.000Z');
    expect(JSON.stringify(sent)).not.toContain(token);
    expect(await api.requests('GET /v1/agents/{agentId}')).toEqual([
      expect.objectContaining({ params: { agentId }, status: 200, method: 'GET' }),
    ]);
  });

  it('filters by a partial body, path parameters, status or a predicate', async () => {
    await deploy(form);
    await deploy({ ...form, name: 'Other', revenueShare: 0.2 });
    await deploy({ ...form, name: '' });
    expect((await api.requests('deployAgent', { body: { revenueShare: 0.1 } })).map((r) => r.body?.name)).toEqual([
      'Form agent',
    ]);
    expect(await api.requests('deployAgent', { status: 400 })).toEqual([
      expect.objectContaining({ status: 400, bodyErrors: [expect.objectContaining({ path: '/name' })] }),
    ]);
    expect(await api.requests('deployAgent', (request) => request.body?.name === 'Other')).toHaveLength(1);
    expect(await api.requests('getAgent', { params: { agentId: 'agt_none' } })).toEqual([]);
  });

  it('keeps what a session of the core got apart, and a reset empties it', async () => {
    await deploy(form);
    expect(await api.requests('deployAgent')).toHaveLength(1);
    await api.reset();
    expect(await api.requests('deployAgent')).toEqual([]);
  });

  it('refuses an operation the spec does not have, naming it', async () => {
    const refused = await api.requests('deployAgents' as 'deployAgent').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MockInputError);
    expect((refused as MockInputError).message).toMatch(/"deployAgents" is refused: \/operation is neither/);
  });
});

describe('waitForRequest', () => {
  it('resolves with a request made before it was called, then with the next one made after, each once', async () => {
    await deploy(form);
    const first = await api.waitForRequest('deployAgent');
    expect(first.body?.name).toBe('Form agent');
    const next = api.waitForRequest('deployAgent');
    setTimeout(() => void deploy({ ...form, name: 'Later' }), 30);
    expect((await next).body).toMatchObject({ name: 'Later', revenueShare: 0.1 });
  });

  it('passes over requests that do not match while it waits, and resolves with the one that does', async () => {
    const waited = api.waitForRequest('deployAgent', { body: { name: 'Wanted' } });
    setTimeout(() => void deploy({ ...form, name: 'Other' }), 20);
    setTimeout(() => void deploy({ ...form, name: 'Wanted' }), 60);
    expect((await waited).body?.name).toBe('Wanted');
    expect((await api.requests('deployAgent')).map((request) => request.body?.name)).toEqual(['Other', 'Wanted']);
  });

  it('waits on real time while the test holds fake timers, and rejects after the timeout saying what came', async () => {
    vi.useFakeTimers();
    await deploy({ ...form, name: '' });
    const waited = await api
      .waitForRequest('deployAgent', { status: 201 }, { timeout: 50 })
      .catch((error: unknown) => error);
    expect((waited as Error).message).toBe(
      'waitForRequest: no deployAgent request came within 50 ms: the fake took 1 deployAgent request (answered 400), none of them matching and not yet returned.',
    );
  });
});
