// Sessions through the core in-process: isolation of store, scenarios, clock and journal; the /__mock/sessions
// routes; shared coverage; the node:http and msw adapters. Naming a session and who may is session-naming.test.ts,
// what a session costs and its bounds session-bounds.test.ts.
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { DEPLOY, START, useCoreUnderTest } from '../../../test/support/core-under-test.ts';
import { createHandlers } from '../../adapters/msw/create-handlers.ts';
import { startMockServer, type RunningMockServer } from '../../adapters/node-http/http-server.ts';
import { createSystemClock } from '../../domain/clock.ts';
import { silentLogger } from '../../domain/logger.ts';

const fake = useCoreUnderTest();
const { sendIn: send, deploy, anActiveAgent: activeAgent, newCore } = fake;

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
    fake.core = newCore({ clock: createSystemClock(0, () => wall) });
    expect((await send('POST', '/__mock/clock/advance', 'a', { seconds: 60 })).json().offsetMs).toBe(60_000);
    expect((await send('GET', '/__mock/clock', 'b')).json()).toEqual({
      now: new Date(START).toISOString(),
      offsetMs: 0,
    });
    expect((await send('GET', '/__mock/clock')).json().offsetMs).toBe(0);
    fake.core.clock.advance(5000);
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
    expect(fake.core.sessions?.size).toBe(0);
  });

  it('gives tests in-process the same session through core.session(id)', async () => {
    const agentId = await activeAgent();
    fake.core.session('w1').store.setStatus(agentId, 'paused');
    expect((await send('POST', `/v1/agents/${agentId}/execute`, 'w1', { task: 't' })).status).toBe(409);
    expect((await send('POST', `/v1/agents/${agentId}/execute`, 'w2', { task: 't' })).status).toBe(200);
    expect(() => fake.core.session('no spaces')).toThrow(/session id/);
    expect(() => fake.core.session('w1').session('x')).toThrow(/no sessions/);
  });
});

describe('the /__mock/sessions routes', () => {
  it('lists, resets and deletes sessions one by one', async () => {
    const a = await deploy('a');
    const b = await deploy('b');
    const listed = (await send('GET', '/__mock/sessions')).json();
    // Each holds its agent and journal line; a's deploy was also the first of its kind, kept for the pact (b's was not).
    const pactPart = fake.core.pact.sessionRecords('a');
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
    expect(fake.core.sessions?.peek('b')).toBeUndefined();
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
      authorization: `Bearer ${fake.token}`,
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
      const headers = {
        authorization: `Bearer ${fake.token}`,
        'content-type': 'application/json',
        'x-mock-session': 'm1',
      };
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
