// What a session costs and how sessions are bounded, through the core in-process: the shared catalogue and token
// cache, records counted per session, the records and count bounds and the eviction they cause.
import { describe, expect, it } from 'vitest';
import { DEPLOY, START, useCoreUnderTest } from '../../../test/support/core-under-test.ts';
import { mintToken } from '../request/auth.ts';
import { SessionRegistry } from './sessions.ts';

const fake = useCoreUnderTest();
const { sendIn: send, deploy, anActiveAgent: activeAgent, newCore } = fake;

describe('what a session costs', () => {
  it("shares the seed's catalogue: a session keeps only the agents it changed", async () => {
    fake.core = newCore({ catalogueSize: 1000 });
    const mine = fake.core.session('a');
    expect(mine.store.catalogue).toBe(fake.core.store.catalogue);
    const agentId = await activeAgent();
    expect((await send('PUT', `/__mock/agents/${agentId}/status`, 'a', { status: 'paused' })).status).toBe(200);
    expect(mine.records).toBe(1);
    expect(mine.store.get(agentId)?.status).toBe('paused');
    expect(fake.core.session('b').store.get(agentId)?.status).toBe('active');
    expect(fake.core.store.get(agentId)?.status).toBe('active');
  });

  it('knows a token another session verified (one verified-token cache for the fake)', async () => {
    let wall = START + 2 * 3_600_000;
    fake.core = newCore({ wallClock: () => wall });
    // Issued an hour after START: verified afresh at START, its iat is in the future.
    const later = await mintToken({ now: START + 3_600_000, ttlSeconds: 7200 });
    const get = (session: string) =>
      fake.core.handle({
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
    fake.core = newCore({ sessions: { maxRecords: 250 } });
    const override = { operation: 'getAgent', status: 200, unchecked: true, body: Array(33_000).fill({}) }; // 99,001 bytes of JSON
    for (const session of ['a', 'b', 'c'])
      expect((await send('PUT', '/__mock/overrides', session, override)).status).toBe(200);
    expect(fake.core.sessions?.list()).toEqual([
      { id: 'b', records: 97 },
      { id: 'c', records: 97 },
    ]);
  });

  it('refuses what would take one session past the records bound: 503, nothing applied', async () => {
    fake.core = newCore({ sessions: { maxRecords: 20 } });
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
    expect(fake.core.sessions?.list()[0]?.records).toBeLessThanOrEqual(20);
    expect((await send('POST', '/__mock/reset', 'a')).status).toBe(200);
    expect((await send('POST', '/v1/agents/deploy', 'a', DEPLOY)).status).toBe(201);
  });
});

describe('bounds', () => {
  it('evicts the least recently used session beyond the count', async () => {
    fake.core = newCore({ sessions: { max: 2 } });
    const a = await deploy('a');
    await deploy('b');
    await send('GET', '/__mock/health', 'a');
    await deploy('c');
    expect((fake.core.sessions?.list() ?? []).map((s) => s.id)).toEqual(['a', 'c']);
    expect((await send('GET', `/v1/agents/${a}`, 'a')).status).toBe(200);
  });

  it('evicts the least recently used sessions beyond the records held together, never the one in use', async () => {
    fake.core = newCore({ sessions: { maxRecords: 5 } });
    await deploy('a'); // 2 records: the agent and the journal entry
    await deploy('b');
    expect(fake.core.sessions?.list().map((s) => s.id)).toEqual(['a', 'b']);
    await deploy('c');
    expect(fake.core.sessions?.list().map((s) => s.id)).toEqual(['b', 'c']);
    for (let index = 0; index < 3; index += 1) await deploy('c');
    // The one in use is bounded too: a journal of one entry and four agents fill its share.
    expect(fake.core.sessions?.list()).toEqual([{ id: 'c', records: 5 }]);
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
