// Naming a session through the core in-process: by header or cookie, the ids refused and how, sessions switched off,
// CORS for the header; and who may start one (a page of another site may not).
import { describe, expect, it } from 'vitest';
import { useCoreUnderTest } from '../../../test/support/core-under-test.ts';
import { sessionIdProblem, sessionOf } from './sessions.ts';

const fake = useCoreUnderTest();
const { sendIn: send, deploy, newCore } = fake;

describe('naming a session', () => {
  it('reads the mock-session cookie when no header is sent, and the header first when both are', async () => {
    const agentId = await deploy('c');
    const get = (headers: Record<string, string>) =>
      fake.core.handle({
        method: 'GET',
        path: `/v1/agents/${agentId}`,
        query: '',
        headers: { authorization: `Bearer ${fake.token}`, ...headers },
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
    expect(fake.core.sessions?.size).toBe(0);
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
    fake.core = newCore({ sessions: { max: 0 } });
    const answer = await send('GET', '/v1/agents/agt_none', 'a');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(/without sessions/);
    expect((await send('GET', '/v1/agents/agt_none')).status).toBe(404);
  });

  it('lets a page on this machine send the header (preflight allows it) and read a refusal', async () => {
    const preflight = await fake.core.handle({
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
    const refused = await fake.core.handle({
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
    fake.core.handle({
      method: 'GET',
      path,
      query: '',
      headers: { authorization: `Bearer ${fake.token}`, ...headers },
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
    expect(fake.core.sessions?.list().map((s) => s.id)).toEqual(['live']);
    // The page's own requests without a session still reach /v1, as CORS allows.
    expect((await foreign({ origin: 'https://evil.example' })).status).toBe(404);
    expect((await foreign({ origin: 'http://localhost:5173', 'x-mock-session': 'mine' })).status).toBe(404);
  });

  it('names X-Mock-Session in a preflight only for origins that may use sessions', async () => {
    const allowed = async (origin: string) =>
      (
        await fake.core.handle({
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
      fake.core.handle({ method: 'GET', path, query: '', headers, body: null });
    expect((await bare({ 'x-mock-session': 'no-token' })).status).toBe(401);
    expect((await bare({ 'x-mock-session': 'two', authorization: 'Bearer a, Bearer b' })).status).toBe(400);
    expect(fake.core.sessions?.size).toBe(0);
    expect((await bare({ 'x-mock-session': 'ok', authorization: `Bearer ${fake.token}` })).status).toBe(404);
    expect((await bare({ 'x-mock-session': 'ok' })).status).toBe(401);
    expect(fake.core.sessions?.list().map((s) => s.id)).toEqual(['ok']);
  });
});
