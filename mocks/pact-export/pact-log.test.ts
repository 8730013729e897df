// The pact log's bounds: kept across resets, so bounded in bytes (the pact text included) as well as in exchanges, and
// counted by --session-records for what sessions add; and the pact it writes, assembled from the texts it keeps.
import { describe, expect, it } from 'vitest';
import { operations } from '../../spec/index.ts';
import type { MockRequest, MockResponse } from '../core/mock-http.ts';
import { buildPact, pactText } from './pact-document.ts';
import { PactLog, type PactShare } from './pact-log.ts';

const padded = (size: number): string => `[${'{},'.repeat(Math.floor((size - 4) / 3))}{}]`;
const withBody = [...operations.values()].find((operation) => operation.requestMediaType !== undefined);
if (withBody === undefined) throw new Error('the spec has no operation with a request body');
const { operationId, method, path } = withBody;

const request = (body: string, query = ''): MockRequest => ({
  method,
  path,
  query,
  headers: { 'content-type': 'application/json' },
  body: new TextEncoder().encode(body),
});
const answer = (body: string, status = 201): MockResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body,
});
const keyed = (stateName: string, share?: PactShare) => ({
  operationId,
  stateName,
  state: () => (stateName === '' ? undefined : { name: stateName, params: { n: stateName.length } }),
  ...(share && { share }),
});
const MiB = 1024 * 1024;

describe('PactLog', () => {
  it('holds at most its documented 32 MiB, the pact it writes included: 256 keys of 64 KiB bodies stop at the bound', () => {
    // A body of `[{},{},…]` is five times longer written as a pact (a line each): 32 MiB of exchanges made 170 MiB, more
    // than pact export reads.
    const log = new PactLog();
    const body = padded(64 * 1024 - 8);
    for (let index = 0; index < 256; index += 1)
      log.record(request(body, `q=${'x'.repeat(2000)}`), answer(body), keyed(`state ${index}`));
    expect(log.bytes).toBeLessThanOrEqual(32 * MiB);
    const kept = log.exchanges();
    expect(kept.length).toBeLessThan(256);
    expect(kept.length).toBeGreaterThan(10);
    expect(kept[0]?.responseBody).toHaveLength(Math.floor((64 * 1024 - 12) / 3) + 1);
    const pact = pactText(buildPact(kept, { consumer: 'web', provider: 'registry' }));
    expect(pact.length).toBeLessThanOrEqual(32 * MiB);
  });

  it('writes the bytes buildPact writes, in V4 from the texts it keeps and in V3 anew, whatever order keys came in', async () => {
    const log = new PactLog();
    log.record(request('{"name":"$& and $1"}', 'b=2&a=1'), answer('{"agentId":"agt_1"}'), keyed('zeta'));
    log.record(request('{}'), answer('{"a":[1,{"b":"\\n"}]}', 400), keyed(''));
    log.record(request('{"x":1}'), answer(''), keyed('alpha'));
    for (const pactSpecification of [3, 4] as const) {
      const options = { consumer: 'web-app', provider: 'agent-registry', pactSpecification };
      const text = await log.text(options);
      expect(text).toBe(pactText(buildPact(log.exchanges(), options)));
      expect((await log.parts(options)).length).toBeGreaterThan(3);
    }
    const empty = new PactLog();
    expect(await empty.text({ consumer: 'a', provider: 'b' })).toBe(
      pactText(buildPact([], { consumer: 'a', provider: 'b' })),
    );
  });

  it('leaves out a body nesting deeper than 64 levels, which no pact could be written from', async () => {
    const log = new PactLog();
    const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
    log.record(request(deep), answer('{}', 400), keyed(''));
    log.record(request('{}'), answer(`{"a":${deep}}`, 400), keyed(''));
    expect(log.size).toBe(0);
    log.record(request('{}'), answer('{}', 400), keyed(''));
    expect(log.size).toBe(1);
    expect(JSON.parse(await log.text({ consumer: 'a', provider: 'b' })).interactions).toHaveLength(1);
  });

  it('counts what sessions add against --session-records: each session within its room, all sessions together', () => {
    const log = new PactLog();
    let room = 40;
    const share = (session: string): PactShare => ({ session, maxRecords: 60, fits: (records) => records <= room });
    const body = padded(3 * 1024);
    log.record(request(body), answer(body), keyed('one', share('a')));
    const first = log.sessionRecords('a');
    expect(first).toBeGreaterThan(6);
    expect(first).toBeLessThanOrEqual(40);
    // Over the session's room: left out, nothing counted.
    room = 1;
    log.record(request(body), answer(body), keyed('two', share('a')));
    expect(log.sessionRecords('a')).toBe(first);
    // Within each session's room but over what all sessions may hold together (60): left out too.
    room = 40;
    for (const session of ['b', 'c', 'd', 'e']) log.record(request(body), answer(body), keyed(session, share(session)));
    const together = ['a', 'b', 'c', 'd', 'e'].reduce((sum, session) => sum + log.sessionRecords(session), 0);
    expect(together).toBeLessThanOrEqual(60);
    expect(log.sessionRecords('e')).toBe(0);
    // Outside sessions only the log's own bound applies; a clear forgets every part.
    log.record(request(body), answer(body), keyed('default'));
    expect(log.size).toBe(together / first + 1);
    log.clear();
    expect(log.sessionRecords('a')).toBe(0);
  });
});
