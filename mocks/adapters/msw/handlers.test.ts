// The msw adapter through the node interceptor: fetch is intercepted in-process and answered by the same core.
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../core/request/auth.ts';
import { createFixedClock } from '../../domain/clock.ts';
import { expectConforms } from '../../test-api/expect-conforms.ts';
import { silentLogger } from '../../domain/logger.ts';
import { operations } from '../../../spec/index.ts';
import { createHandlers } from './create-handlers.ts';
import { setupMockServer } from '../../entries/node.ts';

const API = 'http://api.test';
const server = setupMockServer({
  seed: 42,
  clock: createFixedClock(Date.parse('2026-11-20T12:00:00.000Z')),
  logger: silentLogger,
  failureRatio: 0,
});
let token: string;

async function call(
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: string }> {
  const response = await fetch(API + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body !== undefined && { body }),
  });
  const text = await response.text();
  if (path.startsWith('/v1'))
    expectConforms({ method, path, status: response.status, headers: response.headers, body: text });
  return { status: response.status, headers: response.headers, body: text };
}

async function firstAgent(status: string): Promise<string> {
  const list = JSON.parse((await call('GET', `/__mock/agents?status=${status}&limit=1`)).body) as {
    agents: { agentId: string }[];
  };
  return list.agents[0]?.agentId ?? '';
}

beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'error' });
  token = await mintToken({ sub: 'node-tester' });
});
afterEach(() => {
  server.resetHandlers();
  server.core.reset();
});
afterAll(() => server.close());

describe('msw handlers in node', () => {
  it('answer the same HTTP edges as the server: HEAD like GET, 405 on /v1/agents/deploy, one Authorization, I-JSON', async () => {
    const agentId = await firstAgent('active');
    const get = await fetch(`${API}/v1/agents/${agentId}`, { headers: { authorization: `Bearer ${token}` } });
    const head = await fetch(`${API}/v1/agents/${agentId}`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    const deployGet = await fetch(`${API}/v1/agents/deploy`, { headers: { authorization: `Bearer ${token}` } });
    expect([deployGet.status, deployGet.headers.get('allow')]).toEqual([405, 'POST']);
    const twice = new Headers();
    twice.append('authorization', `Bearer ${token}`);
    twice.append('authorization', `Bearer ${token}`);
    expect((await fetch(`${API}/v1/agents/${agentId}`, { headers: twice })).status).toBe(400);
    const duplicate = await call('POST', `/v1/agents/${agentId}/execute`, '{"task":"a","task":"b"}');
    expect(duplicate.status).toBe(400);
  });

  it('leave the Host check to the standalone server: an app on any hostname is served', async () => {
    const answer = await fetch('https://staging.my-app.example/__mock/health');
    expect(answer.status).toBe(200);
  });

  it('serve the same catalogue as the core', async () => {
    const agentId = await firstAgent('active');
    const answer = await call('GET', `/v1/agents/${agentId}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(server.core.store.getJson(agentId));
  });

  it('deploy, retrieve and execute, statefully', async () => {
    const deployed = await call(
      'POST',
      '/v1/agents/deploy',
      JSON.stringify({ name: 'Node Bot', category: 'gaming', model: 'claude-3', initialSupply: 10 }),
    );
    expect(deployed.status).toBe(201);
    const { agentId } = JSON.parse(deployed.body) as { agentId: string };
    const agent = JSON.parse((await call('GET', `/v1/agents/${agentId}`)).body) as { creator: string };
    expect(agent.creator).toBe('node-tester');
    expect((await call('POST', `/v1/agents/${agentId}/execute`, '{"task":"play"}')).status).toBe(200);
  });

  it('send errors through the same rules: 401, 400, 404, 405, 409, 413, 415', async () => {
    const paused = await firstAgent('paused');
    expect((await call('GET', `/v1/agents/${paused}`, undefined, { authorization: '' })).status).toBe(401);
    expect((await call('POST', '/v1/agents/deploy', '{')).status).toBe(400);
    expect((await call('GET', '/v1/agents/agt_none')).status).toBe(404);
    expect((await call('GET', '/v1/unknown')).status).toBe(404);
    expect((await call('GET', '/v1')).status).toBe(404);
    const wrong = await call('PATCH', `/v1/agents/${paused}`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
    expect((await call('POST', `/v1/agents/${paused}/execute`, '{"task":"x"}')).status).toBe(409);
    expect((await call('POST', '/v1/agents/deploy', `"${'a'.repeat(1_100_000)}"`)).status).toBe(413);
    expect((await call('POST', '/v1/agents/deploy', '{}', { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('reach the control plane', async () => {
    const health = JSON.parse((await call('GET', '/__mock/health')).body) as { agents: number };
    expect(health.agents).toBe(36);
  });

  it('have one handler per operation of the spec, on its method and path template, before the catch-alls', () => {
    const built = createHandlers({ seed: 1, logger: silentLogger, baseUrl: 'https://api.example.com' });
    for (const operation of operations.values()) {
      const handler = built[operation.operationId];
      expect(handler.info.method).toBe(operation.method);
      expect(handler.info.path).toBe(`https://api.example.com${operation.path.replace(/\{(\w+)\}/g, ':$1')}`);
      expect(built.all.indexOf(handler)).toBeLessThan(built.all.indexOf(built.v1CatchAll));
    }
    expect(built.all).toHaveLength(operations.size + 3);
  });

  it('can be overridden for one test with server.use()', async () => {
    server.use(http.get('*/v1/agents/:agentId', () => HttpResponse.json({ overridden: true })));
    const response = await fetch(`${API}/v1/agents/anything`, { headers: { authorization: `Bearer ${token}` } });
    expect(await response.json()).toEqual({ overridden: true });
  });

  it('serve only the baseUrl given, relative to its path prefix', async () => {
    const scoped = setupMockServer({ seed: 1, baseUrl: 'https://api.example.com/api', logger: silentLogger });
    // Only this one server may intercept while it runs.
    server.close();
    scoped.listen({ onUnhandledFrame: 'error' });
    try {
      const response = await fetch('https://api.example.com/api/__mock/health');
      expect(response.status).toBe(200);
      await expect(fetch('https://other.example.com/api/__mock/health')).rejects.toThrow();
    } finally {
      scoped.close();
      server.listen({ onUnhandledFrame: 'error' });
    }
  });
});
