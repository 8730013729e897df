// Sessions through the core in-process: isolation of store, scenarios, clock and journal; naming by header and cookie;
// bounds (count, records); the /__mock/sessions routes; shared coverage; CORS; the node:http and msw adapters.
import { setupServer } from 'msw/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mintToken } from '../request/auth.ts';
import { createFixedClock, createSystemClock } from '../../domain/clock.ts';
import { createMockCore, type MockCore, type MockCoreOptions } from '../../assembly/mock-core.ts';
import { createHandlers } from '../../adapters/msw/create-handlers.ts';
import { startMockServer, type RunningMockServer } from '../../adapters/node-http/http-server.ts';
import { silentLogger } from '../../domain/logger.ts';
import { SessionRegistry, sessionIdProblem, sessionOf } from './sessions.ts';

const START = Date.parse('2026-11-20T12:00:00.000Z');
const DEPLOY = { name: 'Session bot', category: 'gaming', model: 'gpt-4', initialSupply: 10 };
let core: MockCore;
let token: string;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: () => Record<string, unknown>;
}

async function send(method: string, target: string, session?: string, body?: unknown): Promise<Answer> {
  const [path = '', query = ''] = target.split('?');
  const response = await core.handle({
    method,
    path,
    query,
    headers: {
      authorization: `Bearer ${token}`,
      ...(session !== undefined && { 'x-mock-session': session }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
  });
  return { ...response, json: () => JSON.parse(response.body) as Record<string, unknown> };
}

async function deploy(session?: string): Promise<string> {
  const answer = await send('POST', '/v1/agents/deploy', session, DEPLOY);
  expect(answer.status).toBe(201);
  return String(answer.json().agentId);
}

async function activeAgent(): Promise<string> {
  const list = (await send('GET', '/__mock/agents?status=active&limit=1')).json().agents as { agentId: string }[];
  return list[0]?.agentId ?? '';
}

function newCore(options: MockCoreOptions = {}): MockCore {
  return createMockCore({
    seed: 42,
    clock: createFixedClock(START),
    logger: silentLogger,
    failureRatio: 0,
    ...options,
  });
}

beforeEach(async () => {
  core = newCore();
  token = await mintToken();
});

describe('sessions isolate state', () => {
  it('keeps a deploy in the session that made it', async () => {
    const agentId = await deploy('a');
    expect((await send('GET', `/v1/agents/${agentId}`, 'a')).status).toBe(200);
    expect((await send('GET', `/v1/agents/${agentId}`, 'b')).status).toBe(404);
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(404);
    const second = await deploy('a');
    await deploy();
    expect((await send('GET', `/v1/agents/${second}`)).status).toBe(404);
    expect((await send('GET', `/v1/agents/${second}`, 'a')).status).toBe(200);
  });

  it('starts every session from the same seed (the same catalogue, the same first deploy id)', async () => {
    const list = (session?: string): Promise<string> =>
      send('GET', '/__mock/agents?limit=5', session).then((answer) => answer.body);
    expect(await list('a')).toBe(await list());
    expect(await deploy('a')).toBe(await deploy('b'));
  });

  it('applies control-plane changes to the session named by the header only', async () => {
    const agentId = await activeAgent();
    const paused = await send('PUT', `/__mock/agents/${agentId}/status`, 'a', { status: 'paused' });
    expect(paused.status).toBe(200);
    const task = { task: 'summarise', priority: 'high' };
    expect((await send('POST', `/v1/agents/${agentId}/execute`, 'a', task)).status).toBe(409);
    expect((await send('POST', `/v1/agents/${agentId}/execute`, 'b', task)).status).toBe(200);
    expect((await send('POST', `/v1/agents/${agentId}/execute`, undefined, task)).status).toBe(200);

    const scenario = { operations: { getAgent: { errorStatus: 500 } } };
    expect((await send('PUT', '/__mock/scenarios', 'b', scenario)).status).toBe(200);
    expect((await send('GET', `/v1/agents/${agentId}`, 'b')).status).toBe(500);
    expect((await send('GET', `/v1/agents/${agentId}`, 'a')).status).toBe(200);
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(200);
  });

  it('gives each session its own clock, following the fake clock and its own advances', async () => {
    let wall = START;
    core = newCore({ clock: createSystemClock(0, () => wall) });
    expect((await send('POST', '/__mock/clock/advance', 'a', { seconds: 60 })).json().offsetMs).toBe(60_000);
    expect((await send('GET', '/__mock/clock', 'b')).json()).toEqual({
      now: new Date(START).toISOString(),
      offsetMs: 0,
    });
    expect((await send('GET', '/__mock/clock')).json().offsetMs).toBe(0);
    core.clock.advance(5000);
    expect((await send('GET', '/__mock/clock', 'b')).json().offsetMs).toBe(0);
    wall += 1000;
    expect((await send('GET', '/__mock/clock', 'a')).json().now).toBe(new Date(START + 61_000).toISOString());
    expect((await send('GET', '/__mock/clock', 'b')).json()).toEqual({
      now: new Date(START + 1000).toISOString(),
      offsetMs: 0,
    });
  });

  it('keeps a journal per session and resets one session only', async () => {
    const agentId = await deploy('a');
    await send('GET', '/v1/agents/agt_none', 'b');
    const paths = async (session?: string): Promise<string[]> =>
      ((await send('GET', '/__mock/journal', session)).json().entries as { path: string }[]).map((e) => e.path);
    expect(await paths('a')).toEqual(['/v1/agents/deploy']);
    expect(await paths('b')).toEqual(['/v1/agents/agt_none']);
    expect(await paths()).toEqual([]);
    expect((await send('POST', '/__mock/reset', 'a')).status).toBe(200);
    expect((await send('GET', `/v1/agents/${agentId}`, 'a')).status).toBe(404);
    expect(await paths('b')).toEqual(['/v1/agents/agt_none']);
  });

  it('counts coverage of every session together', async () => {
    await send('GET', '/v1/agents/agt_none', 'a');
    await send('GET', '/v1/agents/agt_none', 'b');
    await send('GET', '/v1/agents/agt_none');
    const report = (await send('GET', '/__mock/coverage', 'a')).json();
    expect(report.requests).toBe(3);
    expect((await send('GET', '/__mock/coverage')).json().requests).toBe(3);
  });

  it('creates no session for a request without a header or cookie', async () => {
    await deploy();
    await send('GET', '/__mock/health');
    expect(core.sessions?.size).toBe(0);
  });

  it('gives tests in-process the same session through core.session(id)', async () => {
    const agentId = await activeAgent();
    core.session('w1').store.setStatus(agentId, 'paused');
    expect((await send('POST', `/v1/agents/${agentId}/execute`, 'w1', { task: 't' })).status).toBe(409);
    expect((await send('POST', `/v1/agents/${agentId}/execute`, 'w2', { task: 't' })).status).toBe(200);
    expect(() => core.session('no spaces')).toThrow(/session id/);
    expect(() => core.session('w1').session('x')).toThrow(/no sessions/);
  });
});

describe('naming a session', () => {
  it('reads the mock-session cookie when no header is sent, and the header first when both are', async () => {
    const agentId = await deploy('c');
    const get = (headers: Record<string, string>) =>
      core.handle({
        method: 'GET',
        path: `/v1/agents/${agentId}`,
        query: '',
        headers: { authorization: `Bearer ${token}`, ...headers },
        body: null,
      });
    expect((await get({ cookie: 'theme=dark; mock-session=c' })).status).toBe(200);
    expect((await get({ cookie: 'theme=dark' })).status).toBe(404);
    expect((await get({ cookie: 'mock-session=c', 'x-mock-session': 'd' })).status).toBe(404);
    expect((await get({ cookie: 'not-mock-session=c' })).status).toBe(404);
  });

  it.each([
    ['empty', ''],
    ['too long', 'x'.repeat(65)],
    ['a space', 'a b'],
    ['a list (a repeated header)', 'a, b'],
    ['a slash', 'a/b'],
    ['non-ASCII', 'sessión'],
  ])('refuses a session id that is %s with a problem+json 400', async (_name, id) => {
    const answer = await send('GET', '/v1/agents/agt_none', id);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.json().errors).toEqual([
      { path: '/header/x-mock-session', message: expect.stringMatching(/1 to 64/) },
    ]);
    expect(core.sessions?.size).toBe(0);
  });

  it('refuses a bad id in the cookie, naming the cookie', () => {
    const name = sessionOf({
      method: 'GET',
      path: '/',
      query: '',
      headers: { cookie: 'mock-session=a%20b' },
      body: null,
    });
    expect(name.kind).toBe('bad');
    if (name.kind === 'bad') expect(JSON.parse(name.response.body).errors[0].path).toBe('/cookie/mock-session');
  });

  it('reads a quoted cookie value, and refuses two mock-session cookies as it refuses two headers', () => {
    const named = (cookie: string) =>
      sessionOf({ method: 'GET', path: '/', query: '', headers: { cookie }, body: null });
    expect(named('theme=dark; mock-session="w1"')).toEqual({ kind: 'named', id: 'w1' });
    const twice = named('mock-session=a; theme=dark; mock-session=b');
    expect(twice.kind).toBe('bad');
    if (twice.kind === 'bad') {
      expect(twice.response.status).toBe(400);
      expect(JSON.parse(twice.response.body).errors).toEqual([
        { path: '/cookie/mock-session', message: expect.stringMatching(/once/) },
      ]);
    }
    expect(named('mock-session="a').kind).toBe('bad');
  });

  it('accepts 64 characters of the allowed set', () => {
    expect(sessionIdProblem(`${'aZ09._~-'.repeat(8)}`)).toBeUndefined();
  });

  it('answers 400 to a request naming a session when sessions are off', async () => {
    core = newCore({ sessions: { max: 0 } });
    const answer = await send('GET', '/v1/agents/agt_none', 'a');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(/without sessions/);
    expect((await send('GET', '/v1/agents/agt_none')).status).toBe(404);
  });

  it('lets a page on this machine send the header (preflight allows it) and read a refusal', async () => {
    const preflight = await core.handle({
      method: 'OPTIONS',
      path: '/v1/agents/agt_1',
      query: '',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-mock-session',
      },
      body: null,
    });
    expect(preflight.headers['access-control-allow-headers']).toMatch(/X-Mock-Session/);
    const refused = await core.handle({
      method: 'GET',
      path: '/v1/agents/agt_1',
      query: '',
      headers: { origin: 'http://localhost:5173', 'x-mock-session': 'bad id' },
      body: null,
    });
    expect(refused.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });
});

describe('who may start a session', () => {
  const foreign = (headers: Record<string, string>, path = '/v1/agents/agt_none') =>
    core.handle({
      method: 'GET',
      path,
      query: '',
      headers: { authorization: `Bearer ${token}`, ...headers },
      body: null,
    });

  it('refuses a page of another site a session, new or live, with a readable 403', async () => {
    await deploy('live');
    const refusedHeaders: Record<string, string>[] = [
      { origin: 'https://evil.example', 'x-mock-session': 'fresh' },
      { origin: 'https://evil.example', 'x-mock-session': 'live' },
      { 'sec-fetch-site': 'cross-site', cookie: 'mock-session=fresh' },
    ];
    for (const headers of refusedHeaders) {
      const answer = await foreign(headers);
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body).type).toMatch(/forbidden-origin$/);
    }
    expect((await foreign({ origin: 'https://evil.example', 'x-mock-session': 'x' })).headers).toMatchObject({
      'access-control-allow-origin': 'https://evil.example',
    });
    expect(core.sessions?.list().map((s) => s.id)).toEqual(['live']);
    // The page's own requests without a session still reach /v1, as CORS allows.
    expect((await foreign({ origin: 'https://evil.example' })).status).toBe(404);
    expect((await foreign({ origin: 'http://localhost:5173', 'x-mock-session': 'mine' })).status).toBe(404);
  });

  it('names X-Mock-Session in a preflight only for origins that may use sessions', async () => {
    const allowed = async (origin: string) =>
      (
        await core.handle({
          method: 'OPTIONS',
          path: '/v1/agents/agt_1',
          query: '',
          headers: { origin, 'access-control-request-method': 'GET' },
          body: null,
        })
      ).headers['access-control-allow-headers'] ?? '';
    expect(await allowed('http://127.0.0.1:3000')).toMatch(/X-Mock-Session/);
    expect(await allowed('https://evil.example')).toMatch(/Authorization/);
    expect(await allowed('https://evil.example')).not.toMatch(/X-Mock-Session/);
  });

  it('creates no session for a refused request', async () => {
    const bare = (headers: Record<string, string>, path = '/v1/agents/agt_none') =>
      core.handle({ method: 'GET', path, query: '', headers, body: null });
    expect((await bare({ 'x-mock-session': 'no-token' })).status).toBe(401);
    expect((await bare({ 'x-mock-session': 'two', authorization: 'Bearer a, Bearer b' })).status).toBe(400);
    expect(core.sessions?.size).toBe(0);
    expect((await bare({ 'x-mock-session': 'ok', authorization: `Bearer ${token}` })).status).toBe(404);
    expect((await bare({ 'x-mock-session': 'ok' })).status).toBe(401);
    expect(core.sessions?.list().map((s) => s.id)).toEqual(['ok']);
  });
});

describe('what a session costs', () => {
  it("shares the seed's catalogue: a session keeps only the agents it changed", async () => {
    core = newCore({ catalogueSize: 1000 });
    const mine = core.session('a');
    expect(mine.store.catalogue).toBe(core.store.catalogue);
    const agentId = await activeAgent();
    expect((await send('PUT', `/__mock/agents/${agentId}/status`, 'a', { status: 'paused' })).status).toBe(200);
    expect(mine.records).toBe(1);
    expect(mine.store.get(agentId)?.status).toBe('paused');
    expect(core.session('b').store.get(agentId)?.status).toBe('active');
    expect(core.store.get(agentId)?.status).toBe('active');
  });

  it('knows a token another session verified (one verified-token cache for the fake)', async () => {
    let wall = START + 2 * 3_600_000;
    core = newCore({ wallClock: () => wall });
    // Issued an hour after START: verified afresh at START, its iat is in the future.
    const later = await mintToken({ now: START + 3_600_000, ttlSeconds: 7200 });
    const get = (session: string) =>
      core.handle({
        method: 'GET',
        path: '/v1/agents/agt_none',
        query: '',
        headers: { authorization: `Bearer ${later}`, 'x-mock-session': session },
        body: null,
      });
    expect((await get('a')).status).toBe(404);
    wall = START;
    expect((await get('b')).status).toBe(404);
  });

  it('counts an override by the size of its answer, one record a KiB', async () => {
    core = newCore({ sessions: { maxRecords: 250 } });
    const override = { operation: 'getAgent', status: 200, unchecked: true, body: Array(33_000).fill({}) }; // 99,001 bytes of JSON
    for (const session of ['a', 'b', 'c'])
      expect((await send('PUT', '/__mock/overrides', session, override)).status).toBe(200);
    expect(core.sessions?.list()).toEqual([
      { id: 'b', records: 97 },
      { id: 'c', records: 97 },
    ]);
  });

  it('refuses what would take one session past the records bound: 503, nothing applied', async () => {
    core = newCore({ sessions: { maxRecords: 20 } });
    const statuses: number[] = [];
    for (let index = 0; index < 25; index += 1)
      statuses.push((await send('POST', '/v1/agents/deploy', 'a', DEPLOY)).status);
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThan(10);
    const refused = await send('POST', '/v1/agents/deploy', 'a', DEPLOY);
    expect(refused.status).toBe(503);
    expect(refused.json().type).toMatch(/state-not-saved$/);
    const seeded = await send('POST', '/__mock/agents', 'a', { name: 'Seeded' });
    expect(seeded.status).toBe(503);
    const big = { operation: 'getAgent', status: 200, unchecked: true, body: Array(20_000).fill({}) };
    expect((await send('PUT', '/__mock/overrides', 'a', big)).status).toBe(503);
    expect(core.sessions?.list()[0]?.records).toBeLessThanOrEqual(20);
    expect((await send('POST', '/__mock/reset', 'a')).status).toBe(200);
    expect((await send('POST', '/v1/agents/deploy', 'a', DEPLOY)).status).toBe(201);
  });
});

describe('bounds', () => {
  it('evicts the least recently used session beyond the count', async () => {
    core = newCore({ sessions: { max: 2 } });
    const a = await deploy('a');
    await deploy('b');
    await send('GET', '/__mock/health', 'a');
    await deploy('c');
    expect((core.sessions?.list() ?? []).map((s) => s.id)).toEqual(['a', 'c']);
    expect((await send('GET', `/v1/agents/${a}`, 'a')).status).toBe(200);
  });

  it('evicts the least recently used sessions beyond the records held together, never the one in use', async () => {
    core = newCore({ sessions: { maxRecords: 5 } });
    await deploy('a'); // 2 records: the agent and the journal entry
    await deploy('b');
    expect(core.sessions?.list().map((s) => s.id)).toEqual(['a', 'b']);
    await deploy('c');
    expect(core.sessions?.list().map((s) => s.id)).toEqual(['b', 'c']);
    for (let index = 0; index < 3; index += 1) await deploy('c');
    // The one in use is bounded too: a journal of one entry and four agents fill its share.
    expect(core.sessions?.list()).toEqual([{ id: 'c', records: 5 }]);
  });

  it('orders a registry by use and evicts from the oldest', () => {
    const made: string[] = [];
    const registry = new SessionRegistry(
      {
        create: (id) => {
          made.push(id);
          return {
            handle: () => Promise.reject(new Error('unused')),
            reset: () => {},
            persist: () => Promise.resolve(),
          };
        },
        records: () => 0,
      },
      { max: 2 },
    );
    registry.get('x');
    registry.get('y');
    registry.get('x');
    registry.get('z');
    expect(registry.list().map((s) => s.id)).toEqual(['x', 'z']);
    registry.get('y');
    expect(made).toEqual(['x', 'y', 'z', 'y']);
  });
});

describe('the /__mock/sessions routes', () => {
  it('lists, resets and deletes sessions one by one', async () => {
    const a = await deploy('a');
    const b = await deploy('b');
    const listed = (await send('GET', '/__mock/sessions')).json();
    // Each holds its agent and journal line; a's deploy was also the first of its kind, kept for the pact (b's was not).
    const pactPart = core.pact.sessionRecords('a');
    expect(pactPart).toBeGreaterThan(0);
    expect(listed).toMatchObject({ max: 100, maxRecords: 100_000, records: 4 + pactPart });
    expect(listed.sessions).toEqual([
      { id: 'a', records: 2 + pactPart },
      { id: 'b', records: 2 },
    ]);
    const reset = await send('POST', '/__mock/sessions/a/reset', 'b');
    expect(reset.json()).toEqual({ seed: 42, agents: 36 });
    expect((await send('GET', `/v1/agents/${a}`, 'a')).status).toBe(404);
    expect((await send('GET', `/v1/agents/${b}`, 'b')).status).toBe(200);
    expect((await send('DELETE', '/__mock/sessions/b')).status).toBe(204);
    expect(core.sessions?.peek('b')).toBeUndefined();
    const missing = await send('DELETE', '/__mock/sessions/b');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('application/problem+json');
    expect((await send('GET', `/v1/agents/${b}`, 'b')).status).toBe(404);
  });

  it('refuses a bad session id in the path', async () => {
    for (const [method, path] of [
      ['DELETE', '/__mock/sessions/a%20b'],
      ['POST', '/__mock/sessions/a%20b/reset'],
    ] as const) {
      const answer = await send(method, path);
      expect(answer.status).toBe(400);
      // The spec's parameter reader checks it against the document's SessionId before the handler runs.
      expect(answer.json().errors).toEqual([
        { path: '/path/sessionId', message: expect.stringMatching(/must match pattern/) },
      ]);
    }
  });
});

describe('sessions through the adapters', () => {
  let server: RunningMockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('reads the header in the node:http server', async () => {
    server = await startMockServer({ port: 0, logger: silentLogger });
    const headers = (session: string) => ({
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-mock-session': session,
    });
    const deployed = await fetch(`${server.url}/v1/agents/deploy`, {
      method: 'POST',
      headers: headers('n1'),
      body: JSON.stringify(DEPLOY),
    });
    const { agentId } = (await deployed.json()) as { agentId: string };
    expect((await fetch(`${server.url}/v1/agents/${agentId}`, { headers: headers('n1') })).status).toBe(200);
    expect((await fetch(`${server.url}/v1/agents/${agentId}`, { headers: headers('n2') })).status).toBe(404);
  });

  it('reads the header in the msw handlers', async () => {
    const { all } = createHandlers({ baseUrl: 'http://api.sessions.test', logger: silentLogger });
    const msw = setupServer(...all);
    msw.listen({ onUnhandledFrame: 'error' });
    try {
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-mock-session': 'm1' };
      const deployed = await fetch('http://api.sessions.test/v1/agents/deploy', {
        method: 'POST',
        headers,
        body: JSON.stringify(DEPLOY),
      });
      const { agentId } = (await deployed.json()) as { agentId: string };
      const get = (session: string) =>
        fetch(`http://api.sessions.test/v1/agents/${agentId}`, { headers: { ...headers, 'x-mock-session': session } });
      expect((await get('m1')).status).toBe(200);
      expect((await get('m2')).status).toBe(404);
    } finally {
      msw.close();
    }
  });
});
