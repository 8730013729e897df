// The pact of what an app made the fake answer, in process: its interactions and provider states, the matchers from the
// spec, the token in no form, the same bytes twice, and the state-change protocol that sets each state up again.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMockCore, type MockCore } from '../assembly/mock-core.ts';
import { MockInputError } from '../domain/input-error.ts';
import { mintToken } from '../core/request/auth.ts';
import { createFixedClock } from '../domain/clock.ts';
import { silentLogger } from '../domain/logger.ts';
import { createTestApi } from '../test-api/test-api.ts';
import { buildPact, pactText } from './pact-document.ts';
import { EXAMPLE_TIMESTAMP } from './pact-matchers.ts';
import { applyStateChange } from './provider-state.ts';

let core: MockCore;
let token = '';

async function send(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { authorization: `Bearer ${token}` },
) {
  const response = await core.handle({
    method,
    path,
    query: '',
    headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
  });
  return {
    status: response.status,
    body: response.body === '' ? {} : (JSON.parse(response.body) as Record<string, unknown>),
  };
}

interface Interaction {
  description: string;
  providerStates?: { name: string; params: Record<string, unknown> }[];
  request: { method: string; path: string; headers?: Record<string, string[]>; body?: { content: unknown } };
  response: {
    status: number;
    body?: { content: Record<string, unknown> };
    matchingRules?: { body?: Record<string, { matchers: Record<string, unknown>[] }> };
  };
}

const interactionsOf = (pact: Record<string, unknown>): Interaction[] => pact.interactions as Interaction[];
const pactOf = (version: 3 | 4 = 4) =>
  buildPact(core.pact.exchanges(), { consumer: 'web-app', provider: 'agent-registry', pactSpecification: version });
const find = (pact: Record<string, unknown>, start: string): Interaction => {
  const found = interactionsOf(pact).find((interaction) => interaction.description.startsWith(start));
  if (!found)
    throw new Error(
      `no interaction "${start}" in ${interactionsOf(pact)
        .map((i) => i.description)
        .join('; ')}`,
    );
  return found;
};

/** An app's session: deploy, retrieve, a paused agent refusing a task, an unknown agent, no token, a forced 500. */
async function appSession(): Promise<{ deployed: string; paused: string }> {
  const deploy = await send('POST', '/v1/agents/deploy', {
    name: 'Pact Bot',
    category: 'defi',
    model: 'gpt-4',
    initialSupply: 1000,
    capabilities: ['swap'],
  });
  const deployed = String(deploy.body.agentId);
  expect((await send('GET', `/v1/agents/${deployed}`)).status).toBe(200);
  expect((await send('POST', `/v1/agents/${deployed}/execute`, { task: 'Summarise today' })).status).toBe(200);
  const paused = core.store.list({ status: 'active', limit: 1 }).agents[0]?.agentId ?? '';
  core.store.setStatus(paused, 'paused');
  expect((await send('POST', `/v1/agents/${paused}/execute`, { task: 'Summarise today' })).status).toBe(409);
  expect((await send('GET', '/v1/agents/agt_nobody')).status).toBe(404);
  expect((await send('GET', `/v1/agents/${deployed}`, undefined, {})).status).toBe(401);
  await core.configureScenarios({ operations: { getAgent: { errorStatus: 500 } } });
  expect((await send('GET', `/v1/agents/${deployed}`)).status).toBe(500);
  await core.configureScenarios({});
  return { deployed, paused };
}

beforeEach(async () => {
  core = createMockCore({ seed: 11, sessions: { max: 4 } });
  token = await mintToken({ sub: 'pact-consumer' });
});

describe('the pact of an app session', () => {
  it('has one interaction per operation, status and provider state, each described for a person', async () => {
    const { deployed, paused } = await appSession();
    // The same operation, status and state again adds nothing.
    await send('GET', `/v1/agents/${deployed}`);
    const pact = pactOf();
    expect(pact).toMatchObject({
      consumer: { name: 'web-app' },
      provider: { name: 'agent-registry' },
      metadata: { pactSpecification: { version: '4.0' } },
    });
    expect(interactionsOf(pact).map((interaction) => interaction.description)).toEqual([
      'Deploy an agent (POST /v1/agents/deploy): 201',
      'Retrieve an agent (GET /v1/agents/{agentId}): 200, given an agent exists with status active',
      'Retrieve an agent (GET /v1/agents/{agentId}): 401, given the bearer token is refused',
      'Retrieve an agent (GET /v1/agents/{agentId}): 404, given no agent has the requested agentId',
      'Retrieve an agent (GET /v1/agents/{agentId}): 500, given the registry answers getAgent with 500',
      'Execute an agent task (POST /v1/agents/{agentId}/execute): 200, given an agent exists with status active',
      'Execute an agent task (POST /v1/agents/{agentId}/execute): 409, given an agent exists with status paused',
    ]);
    expect(find(pact, 'Execute an agent task (POST /v1/agents/{agentId}/execute): 409').providerStates).toEqual([
      { name: 'an agent exists with status paused', params: { agentId: paused, status: 'paused' } },
    ]);
    expect(find(pact, 'Retrieve an agent (GET /v1/agents/{agentId}): 404').providerStates).toEqual([
      { name: 'no agent has the requested agentId', params: { agentId: 'agt_nobody' } },
    ]);
    expect(find(pact, 'Deploy an agent').providerStates).toBeUndefined();
  });

  it('matches what the server makes by the spec, and what echoes the request or the state exactly', async () => {
    const { deployed } = await appSession();
    const pact = pactOf();
    const retrieved = find(pact, 'Retrieve an agent (GET /v1/agents/{agentId}): 200');
    const rules = retrieved.response.matchingRules?.body ?? {};
    // agentId echoes the path, status the provider state: no rule, so equality.
    expect(rules['$.agentId']).toBeUndefined();
    expect(rules['$.status']).toBeUndefined();
    expect(retrieved.response.body?.content).toMatchObject({ agentId: deployed, status: 'active' });
    expect(rules['$.tokenAddress']?.matchers).toEqual([{ match: 'regex', regex: '^[1-9A-HJ-NP-Za-km-z]{32,44}$' }]);
    expect(rules['$.category']?.matchers).toEqual([
      { match: 'regex', regex: '^(trading|analytics|social|gaming|defi|nft|automation)$' },
    ]);
    expect(rules['$.tokenomics.price']?.matchers).toEqual([{ match: 'number' }]);
    expect(rules['$.statistics.holders']?.matchers).toEqual([{ match: 'integer' }]);
    expect(rules['$.capabilities']?.matchers).toEqual([{ match: 'type', min: 0 }]);
    expect(rules['$.capabilities[*]']?.matchers).toEqual([{ match: 'type' }]);
    expect(rules['$.deployedAt']?.matchers[0]).toMatchObject({ match: 'regex' });
    expect(retrieved.response.body?.content.deployedAt).toBe(EXAMPLE_TIMESTAMP);
    // No rule on an object: Pact hands a parent's rule down to its children.
    expect(rules['$.tokenomics']).toBeUndefined();
    const deploy = find(pact, 'Deploy an agent');
    const deployRules = deploy.response.matchingRules?.body ?? {};
    expect(deployRules['$.name']).toBeUndefined();
    expect(deployRules['$.agentId']?.matchers).toEqual([{ match: 'type' }]);
    expect(deployRules['$.status']?.matchers).toEqual([{ match: 'regex', regex: '^(active|paused|deprecated)$' }]);
    expect(deploy.request.body?.content).toMatchObject({ name: 'Pact Bot', initialSupply: 1000 });
  });

  it('writes the token in no form: the Authorization header is a matcher with a stand-in', async () => {
    await appSession();
    const texts = [pactText(pactOf(4)), pactText(pactOf(3))];
    const segments = token.split('.');
    const forms = [
      token,
      ...segments,
      Buffer.from(token).toString('base64'),
      Buffer.from(token).toString('base64url'),
      Buffer.from(`Bearer ${token}`).toString('base64'),
      Buffer.from(token).toString('hex'),
      encodeURIComponent(token),
      JSON.stringify(token).slice(1, -1),
      // The payload decoded: what the token claims, as one JSON text.
      Buffer.from(segments[1] ?? '', 'base64url').toString('utf8'),
    ];
    for (const text of texts) for (const form of forms) expect(text).not.toContain(form);
    const retrieve = find(pactOf(), 'Retrieve an agent (GET /v1/agents/{agentId}): 200');
    expect(retrieve.request.headers?.Authorization).toEqual(['Bearer stand-in.for-your.token']);
    expect(JSON.stringify(pactOf())).toContain(
      '"regex":"^Bearer [A-Za-z0-9_-]+\\\\.[A-Za-z0-9_-]+\\\\.[A-Za-z0-9_-]*$"',
    );
  });

  it('is the same bytes twice, outlives resets, adds up every session, and is cleared only by DELETE /__mock/pact', async () => {
    await appSession();
    const first = pactText(pactOf());
    core.reset();
    expect(pactText(pactOf())).toBe(first);
    const session = core.session('worker-1');
    await session.handle({
      method: 'POST',
      path: '/v1/agents/deploy',
      query: '',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body: new TextEncoder().encode('{}'),
    });
    expect(interactionsOf(pactOf()).map((interaction) => interaction.description)).toContain(
      'Deploy an agent (POST /v1/agents/deploy): 415',
    );
    const control = (method: string, query = '') =>
      core.handle({ method, path: '/__mock/pact', query, headers: {}, body: null });
    const served = await control('GET', 'consumer=web-app&provider=agent-registry');
    expect(served.status).toBe(200);
    expect(served.body).toBe(pactText(pactOf()));
    expect((await control('GET', 'consumer=web-app')).status).toBe(400);
    expect((await control('DELETE')).status).toBe(204);
    expect(interactionsOf(pactOf())).toEqual([]);
  });

  it('leaves out a request whose body a verifier could not send again (not JSON)', async () => {
    await core.handle({
      method: 'POST',
      path: '/v1/agents/deploy',
      query: '',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: new TextEncoder().encode('{"name":'),
    });
    expect(interactionsOf(pactOf())).toEqual([]);
  });

  it('writes Pact V3 on request: bodies and header values as V3 has them', async () => {
    await appSession();
    const pact = pactOf(3);
    expect(pact.metadata).toMatchObject({ pactSpecification: { version: '3.0.0' } });
    const deploy = interactionsOf(pact)[0] as unknown as Record<string, Record<string, unknown>>;
    expect(deploy.type).toBeUndefined();
    expect(deploy.request?.headers).toMatchObject({ Authorization: 'Bearer stand-in.for-your.token' });
    expect(deploy.request?.body).toMatchObject({ name: 'Pact Bot' });
  });
});

describe('the state-change protocol', () => {
  const change = (body: unknown) =>
    core.handle({
      method: 'POST',
      path: '/__mock/provider-states',
      query: '',
      headers: { 'content-type': 'application/json' },
      body: new TextEncoder().encode(JSON.stringify(body)),
    });

  it('sets up every state a pact writes, and a teardown goes back to the seed', async () => {
    const seeded = await change({ state: 'an agent exists with status paused', params: { agentId: 'agt_fromPact' } });
    expect(seeded.status).toBe(200);
    expect(JSON.parse(seeded.body)).toEqual({ agentId: 'agt_fromPact', status: 'paused' });
    expect((await send('POST', '/v1/agents/agt_fromPact/execute', { task: 'x' })).status).toBe(409);
    const catalogue = core.store.list({ status: 'active', limit: 1 }).agents[0]?.agentId ?? '';
    await change({ state: 'an agent exists with status deprecated', params: { agentId: catalogue }, action: 'setup' });
    expect((await send('GET', `/v1/agents/${catalogue}`)).body.status).toBe('deprecated');
    await change({ state: 'the registry answers getAgent with 503', params: { operationId: 'getAgent', status: 503 } });
    expect((await send('GET', `/v1/agents/${catalogue}`)).status).toBe(503);
    await change({ state: 'the bearer token is refused', params: { operationId: 'getAgent', status: 401 } });
    expect((await send('GET', `/v1/agents/${catalogue}`)).status).toBe(401);
    expect((await change({ state: '', action: 'setup' })).status).toBe(200);
    const down = await change({ state: 'the bearer token is refused', action: 'teardown' });
    expect(down.status).toBe(200);
    expect((await send('GET', `/v1/agents/${catalogue}`)).body.status).toBe('active');
    expect((await send('GET', '/v1/agents/agt_fromPact')).status).toBe(404);
  });

  it('answers a state it does not write, or params that do not fit, with a 400 naming the field', async () => {
    const unknown = await change({ state: 'the moon is full' });
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body)).toMatchObject({ errors: [{ path: '/state' }] });
    const catalogue = core.store.list({ limit: 1 }).agents[0]?.agentId ?? '';
    const taken = await change({ state: 'no agent has the requested agentId', params: { agentId: catalogue } });
    expect(JSON.parse(taken.body)).toMatchObject({ status: 400, errors: [{ path: '/params/agentId' }] });
    const missing = await change({ state: 'an agent exists with status active' });
    expect(JSON.parse(missing.body)).toMatchObject({ status: 400, errors: [{ path: '/params/agentId' }] });
    const undocumented = await change({
      state: 'the registry answers getAgent with 418',
      params: { operationId: 'getAgent', status: 418 },
    });
    expect(JSON.parse(undocumented.body)).toMatchObject({ status: 400, errors: [{ path: '/state' }] });
    await expect(applyStateChange(core, { state: 'the moon is full' })).rejects.toBeInstanceOf(MockInputError);
  });

  it('refuses a page of another site, as every control-plane route does', async () => {
    const crossSite = await core.handle({
      method: 'POST',
      path: '/__mock/provider-states',
      query: '',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: new TextEncoder().encode(
        JSON.stringify({ state: 'the bearer token is refused', params: { operationId: 'getAgent' } }),
      ),
    });
    expect(crossSite.status).toBe(403);
    expect((await send('GET', `/v1/agents/${core.store.list({ limit: 1 }).agents[0]?.agentId ?? ''}`)).status).toBe(
      200,
    );
  });
});

describe('a pact across days', () => {
  it('is the same bytes from two runs at different clock times, an expired token’s 401 included', async () => {
    const runAt = async (start: number): Promise<string> => {
      core = createMockCore({ seed: 42, clock: createFixedClock(start), wallClock: () => start, logger: silentLogger });
      token = await mintToken({ now: start });
      const expired = await mintToken({ now: start, expired: true });
      const refused = await send('GET', '/v1/agents/agt_WCC01FaiMscDbRzp', undefined, {
        authorization: `Bearer ${expired}`,
      });
      expect(String(refused.body.detail)).toContain(new Date(start - 60_000).toISOString().slice(0, 16));
      await appSession();
      return pactText(pactOf());
    };
    const today = await runAt(Date.parse('2026-12-01T21:30:00.000Z'));
    const later = await runAt(Date.parse('2026-12-09T08:15:37.000Z'));
    expect(later).toBe(today);
    expect(today).toContain('expired at 2000-01-01T00:00:00.000Z');
    expect(today).not.toMatch(/2026-/);
  });
});

describe('api.writePact', () => {
  it('writes the pact through the file writer it is given, and refuses without one or with a bad option', async () => {
    await appSession();
    const written: Record<string, string> = {};
    const api = createTestApi(core, {
      writeFile: async (file, text) => {
        written[file] = text;
        return undefined;
      },
    });
    const result = await api.writePact({ consumer: 'web-app', provider: 'agent-registry', file: 'pacts/p.json' });
    expect(result).toEqual({ file: 'pacts/p.json', interactions: 7 });
    expect(written['pacts/p.json']).toBe(pactText(pactOf()));
    await expect(
      createTestApi(core).writePact({ consumer: 'web-app', provider: 'agent-registry', file: 'p.json' }),
    ).rejects.toThrow(/no file system/);
    await expect(api.writePact({ consumer: '', provider: 'agent-registry', file: 'p.json' })).rejects.toThrow(
      /\/consumer must be a string/,
    );
  });
});
