// GET /__mock/journal/events through the core: the backlog first, then each /v1 answer as it happens, with its detail
// and never the caller's credential.
import { describe, expect, it } from 'vitest';
import { mintToken } from '../core/request/auth.ts';
import { createMockCore } from '../assembly/mock-core.ts';
import { silentLogger } from '../domain/logger.ts';

const AGENT = 'agt_WCC01FaiMscDbRzp';

describe('the journal stream', () => {
  it('sends what the journal holds, then each new exchange with its detail, until stopped', async () => {
    const core = createMockCore({ logger: silentLogger });
    const token = await mintToken({ sub: 'stream' });
    const get = (path: string, headers: Record<string, string> = {}) =>
      core.handle({ method: 'GET', path, query: '', headers, body: null });
    // Before anyone watches: the journal keeps the body as sent, the stream hides the token in it.
    await core.handle({
      method: 'POST',
      path: `/v1/agents/${AGENT}/execute`,
      query: '',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: new TextEncoder().encode(JSON.stringify({ task: `before ${token}` })),
    });
    const stream = await get('/__mock/journal/events');
    expect(stream.body).toContain('before <redacted>');
    for (const part of [token, ...token.split('.')]) expect(stream.body).not.toContain(part);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.body).toContain('id: 1\nevent: exchange\n');
    const pushed: string[] = [];
    const stop = stream.events?.((text) => pushed.push(text));
    expect(stop).toBeTypeOf('function');
    // The token echoed in a body is hidden too, in the request body and wherever it recurs.
    await core.handle({
      method: 'POST',
      path: `/v1/agents/${AGENT}/execute`,
      query: '',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: new TextEncoder().encode(JSON.stringify({ task: `echo ${token}` })),
    });
    expect(pushed).toHaveLength(1);
    const data = JSON.parse(pushed[0]?.split('data: ')[1] ?? '{}') as {
      entry: { seq: number; operationId: string; status: number };
      detail: { decidedBy: string; request: { headers: Record<string, string> }; verdict: { ok: boolean } };
    };
    expect(data.entry).toMatchObject({ seq: 2, operationId: 'executeAgentTask', status: 200 });
    expect(data.detail).toMatchObject({ decidedBy: 'normal', verdict: { ok: true } });
    expect(data.detail.request.headers.authorization).toBe('(sent, not shown)');
    for (const part of [token, ...token.split('.')]) expect(pushed[0]).not.toContain(part);
    stop?.();
    await get(`/v1/agents/${AGENT}`, { authorization: `Bearer ${token}` });
    expect(pushed).toHaveLength(1);
  });

  it('says a scenario, an override or Prefer decided the answer', async () => {
    const core = createMockCore({ logger: silentLogger });
    const authorization = `Bearer ${await mintToken()}`;
    const decisions: string[] = [];
    (await core.handle({ method: 'GET', path: '/__mock/journal/events', query: '', headers: {}, body: null })).events?.(
      (text) =>
        decisions.push(
          (JSON.parse(text.split('data: ')[1] ?? '{}') as { detail: { decidedBy: string } }).detail.decidedBy,
        ),
    );
    const get = (headers: Record<string, string> = {}) =>
      core.handle({
        method: 'GET',
        path: `/v1/agents/${AGENT}`,
        query: '',
        headers: { authorization, ...headers },
        body: null,
      });
    await get();
    await get({ prefer: 'code=404' });
    await core.configureScenarios({ operations: { getAgent: { errorStatus: 500 } } });
    await get();
    await core.configureScenarios({});
    await core.handle({
      method: 'PUT',
      path: '/__mock/overrides',
      query: '',
      headers: { 'content-type': 'application/json' },
      body: new TextEncoder().encode(JSON.stringify({ operation: 'getAgent', status: 404 })),
    });
    await get();
    expect(decisions).toEqual(['normal', 'prefer', 'scenario', 'override']);
  });

  it('says a provider state decided the answer: the agent it set, or the answer it forced, until a reset', async () => {
    const core = createMockCore({ logger: silentLogger });
    const authorization = `Bearer ${await mintToken()}`;
    const decisions: string[] = [];
    (await core.handle({ method: 'GET', path: '/__mock/journal/events', query: '', headers: {}, body: null })).events?.(
      (text) =>
        decisions.push(
          (JSON.parse(text.split('data: ')[1] ?? '{}') as { detail: { decidedBy: string } }).detail.decidedBy,
        ),
    );
    const post = async (path: string, body: unknown) =>
      (
        await core.handle({
          method: 'POST',
          path,
          query: '',
          headers: { 'content-type': 'application/json' },
          body: new TextEncoder().encode(JSON.stringify(body)),
        })
      ).status;
    const get = (agentId: string) =>
      core.handle({ method: 'GET', path: `/v1/agents/${agentId}`, query: '', headers: { authorization }, body: null });
    expect(
      await post('/__mock/provider-states', {
        state: 'an agent exists with status paused',
        params: { agentId: 'agt_PROV1FaiMscDbRzp' },
      }),
    ).toBe(200);
    await get('agt_PROV1FaiMscDbRzp');
    await get(AGENT);
    expect(
      await post('/__mock/provider-states', {
        state: 'the registry answers getAgent with 500',
        params: { operationId: 'getAgent', status: 500 },
      }),
    ).toBe(200);
    await get(AGENT);
    expect(await post('/__mock/reset', {})).toBe(200);
    await get(AGENT);
    expect(decisions).toEqual(['provider-state', 'normal', 'provider-state', 'normal']);
  });
});
