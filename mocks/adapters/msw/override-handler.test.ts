// Typed overrides as msw handlers in `server.use(...)`, the types tsc refuses, and the one reset of handlers and state.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Agent } from '../../../spec/index.ts';
import { mintToken } from '../../core/request/auth.ts';
import { setupMockServer } from '../../entries/node.ts';
import { overrideHandler, uncheckedOverrideHandler } from './override-handler.ts';
import { OverrideError } from '../../core/steering/overrides.ts';

const BASE = 'https://api.override.test';
const server = setupMockServer({ seed: 7, baseUrl: BASE, failureRatio: 0 });
let token = '';
beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'error' });
  token = await mintToken();
});
afterEach(() => server.api.reset());
afterAll(() => server.close());

const get = (path: string): Promise<Response> =>
  fetch(`${BASE}${path}`, { headers: { authorization: `Bearer ${token}` } });

describe('overrideHandler in server.use', () => {
  it('answers the operation’s route (from the spec’s template and the base URL) with the spec example', async () => {
    server.use(overrideHandler('getAgent', 404, undefined, { baseUrl: BASE }));
    const response = await get('/v1/agents/agt_anything');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(((await response.json()) as { status: number }).status).toBe(404);
  });

  it('takes a METHOD /path key, a typed body, and answers once when asked', async () => {
    const agent = await server.api.seedAgent({ name: 'Seeded' });
    server.use(
      overrideHandler('GET /v1/agents/{agentId}', 200, { ...agent, name: 'Overridden' }, { baseUrl: BASE, once: true }),
    );
    expect(((await (await get(`/v1/agents/${agent.agentId}`)).json()) as Agent).name).toBe('Overridden');
    expect(((await (await get(`/v1/agents/${agent.agentId}`)).json()) as Agent).name).toBe('Seeded');
  });

  it('adds the headers the spec requires of 401 and 429', async () => {
    server.use(
      overrideHandler('getAgent', 401, undefined, { baseUrl: BASE }),
      overrideHandler('executeAgentTask', 429, undefined, { baseUrl: BASE }),
    );
    expect((await get('/v1/agents/a')).headers.get('www-authenticate')).toMatch(/^Bearer/);
    const limited = await fetch(`${BASE}/v1/agents/a/execute`, { method: 'POST', body: '{}' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('fails loudly when the body breaks the spec, and the escape hatch serves it anyway', async () => {
    const broken = { agentId: 1 } as unknown as Agent;
    expect(() => overrideHandler('getAgent', 200, broken)).toThrow(OverrideError);
    expect(() => overrideHandler('getAgent', 200, broken)).toThrow(
      /\/agentId must be a string \[body-schema at \/components\/schemas\/AgentId\/type\]/,
    );
    server.use(uncheckedOverrideHandler('getAgent', 200, broken, { baseUrl: BASE }));
    expect(await (await get('/v1/agents/x')).json()).toEqual({ agentId: 1 });
  });

  it('is gone after api.reset(), with the state', async () => {
    const agent = await server.api.seedAgent();
    server.use(overrideHandler('getAgent', 500, undefined, { baseUrl: BASE }));
    expect((await get(`/v1/agents/${agent.agentId}`)).status).toBe(500);
    await server.api.reset();
    expect((await get(`/v1/agents/${agent.agentId}`)).status).toBe(404);
  });
});

describe('an override handler’s answer in the fake’s records', () => {
  it('is journaled, counted in coverage and kept for the pact as api.override’s is, marked overrideHandler', async () => {
    const agent = await server.api.seedAgent();
    server.core.coverage.reset();
    server.core.pact.clear();
    server.use(overrideHandler('getAgent', 500, undefined, { baseUrl: BASE, once: true }));
    expect((await get(`/v1/agents/${agent.agentId}`)).status).toBe(500);
    expect((await get(`/v1/agents/${agent.agentId}`)).status).toBe(200);
    const seen = await server.api.requests('getAgent');
    expect(seen.map((request) => [request.status, request.forcedBy])).toEqual([
      [500, 'overrideHandler'],
      [200, undefined],
    ]);
    const counted = server.core.coverage.report().entries;
    const count = (key: string) =>
      counted.find((entry) => entry.category === 'status' && entry.operationId === 'getAgent' && entry.key === key)
        ?.count;
    expect([count('500'), count('200')]).toEqual([1, 1]);
    expect(server.core.pact.exchanges().map((exchange) => [exchange.status, exchange.state?.name])).toEqual([
      [500, 'the registry answers getAgent with 500'],
      [200, 'an agent exists with status active'],
    ]);
  });

  it('answers `times` requests, then lets the fake answer; an unchecked one is journaled too', async () => {
    server.use(uncheckedOverrideHandler('getAgent', 200, { agentId: 42 }, { baseUrl: BASE, times: 2 }));
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await get('/v1/agents/agt_nobody')).status);
    expect(statuses).toEqual([200, 200, 404]);
    expect((await server.api.requests('getAgent')).map((request) => request.forcedBy)).toEqual([
      'overrideHandler',
      'overrideHandler',
      undefined,
    ]);
  });
});

describe('the types of an override', () => {
  it('refuse an unknown operation, an undocumented status and a body off the schema (npm run typecheck)', () => {
    // Each @ts-expect-error below is a compile-time assertion: an unused one fails `npm run typecheck`.
    const made = vi.fn(overrideHandler);
    // @ts-expect-error getAgents is no operation of the spec
    expect(() => made('getAgents', 404)).toThrow(/neither an operationId/);
    // @ts-expect-error the path template is /v1/agents/{agentId}
    expect(() => made('GET /v1/agent/{agentId}', 404)).toThrow(OverrideError);
    // @ts-expect-error getAgent does not document 415
    expect(() => made('getAgent', 415)).toThrow(/status 415 is not documented/);
    // @ts-expect-error executeAgentTask's 409 is a Problem: `detial` is misspelt
    expect(() => made('executeAgentTask', 409, { type: 't', title: 't', status: 409, detial: 'x' })).toThrow(
      OverrideError,
    );
    // @ts-expect-error a 409 is no status of getAgent, only of executeAgentTask
    void server.api.override('getAgent', 409).catch(() => {});
    // @ts-expect-error errorStatus must be one getAgent documents
    void server.api.setScenarios({ operations: { getAgent: { errorStatus: 415 } } }).catch(() => {});
    // @ts-expect-error a seed takes the Agent's fields only
    void server.api.seedAgent({ nmae: 'typo' }).catch(() => {});
    expect(made).toHaveBeenCalledTimes(4);
  });
});
