// The standalone server over real HTTP on an ephemeral port: the three operations, Prefer, CORS, many clients at once
// and a slow one, and the request listener's last line of defence. The bad-input list is http-bad-input.test.ts.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../domain/logger.ts';
import { startMockServer, type RunningMockServer } from './http-server.ts';
import { useHttpTestServer, validDeploy } from './http-test-server.ts';

const fake = useHttpTestServer();
const { call, postJson } = fake;

describe('the three operations over HTTP', () => {
  it('serves a seeded agent', async () => {
    const answer = await call('GET', `/v1/agents/${fake.active}`);
    expect(answer.status).toBe(200);
    expect(answer.json().agentId).toBe(fake.active);
  });

  it('deploys, then retrieves what was stored, with creator = the token sub', async () => {
    const deployed = await postJson('/v1/agents/deploy', { ...validDeploy, pricePerToken: 0.05, revenueShare: 0.2 });
    expect(deployed.status).toBe(201);
    const agentId = String(deployed.json().agentId);
    expect(deployed.headers.get('location')).toBe(`/v1/agents/${agentId}`);
    expect(deployed.json()).toMatchObject({
      name: 'Test Bot',
      marketCap: 50,
      holders: 1,
      status: 'active',
      deployedAt: '2026-11-20T12:00:00.000Z',
    });
    const agent = (await call('GET', `/v1/agents/${agentId}`)).json();
    expect(agent).toMatchObject({
      creator: 'tester',
      tokenomics: { totalSupply: 1000, circulatingSupply: 1000, price: 0.05, marketCap: 50, revenueShare: 0.2 },
    });
  });

  it('executes a task that completes on the mock clock and updates the agent', async () => {
    const { agentId } = (await postJson('/v1/agents/deploy', validDeploy)).json() as { agentId: string };
    const submitted = await postJson(`/v1/agents/${agentId}/execute`, { task: 'Summarise today', priority: 'high' });
    expect(submitted.status).toBe(200);
    expect(submitted.json()).toMatchObject({ status: 'queued', cost: 3.045, estimatedCompletion: 4.6 });
    const taskId = String(submitted.json().taskId);
    expect((await call('GET', `/__mock/tasks/${taskId}`)).json().status).toBe('queued');
    await call('POST', '/__mock/clock/advance', {
      body: '{"seconds":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect((await call('GET', `/__mock/tasks/${taskId}`)).json().status).toBe('processing');
    await call('POST', '/__mock/clock/advance', {
      body: '{"seconds":10}',
      headers: { 'content-type': 'application/json' },
    });
    expect((await call('GET', `/__mock/tasks/${taskId}`)).json().status).toBe('completed');
    const agent = (await call('GET', `/v1/agents/${agentId}`)).json() as { performance: Record<string, number> };
    expect(agent.performance).toMatchObject({ tasksCompleted: 1, totalRevenue: 3.045, successRate: 1 });
  });

  it('answers 409 for a task sent to a paused agent, and to one the control plane deprecated', async () => {
    expect((await postJson(`/v1/agents/${fake.paused}/execute`, { task: 'x' })).status).toBe(409);
    await call('PUT', `/__mock/agents/${fake.active}/status`, {
      body: '{"status":"deprecated"}',
      headers: { 'content-type': 'application/json' },
    });
    const answer = await postJson(`/v1/agents/${fake.active}/execute`, { task: 'x' });
    expect(answer.status).toBe(409);
    expect(answer.json().detail).toMatch(/deprecated/);
  });
});

describe('Prefer (Prism convention)', () => {
  it('code=<error status> answers that documented status with its example', async () => {
    const answer = await call('GET', `/v1/agents/${fake.active}`, { headers: { prefer: 'code=404' } });
    expect(answer.status).toBe(404);
    expect(answer.json().instance).toBe(`/v1/agents/${fake.active}`);
    expect(answer.headers.get('preference-applied')).toBe('code=404');
    const unauthorized = await call('GET', `/v1/agents/${fake.active}`, { headers: { prefer: 'code=401' } });
    expect(unauthorized.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const limited = await postJson('/v1/agents/deploy', validDeploy, { prefer: 'code=429' });
    expect(limited.headers.get('retry-after')).toBe('1');
  });

  it('example=<name> answers the named example', async () => {
    const answer = await call('GET', `/v1/agents/${fake.active}`, { headers: { prefer: 'example=pausedAgent' } });
    expect(answer.status).toBe(200);
    expect(answer.json().agentId).toBe('agt_3Hd8sQ1mZc6YbN2e');
  });

  it('code=<success> without an example runs the real, stateful operation', async () => {
    const answer = await postJson('/v1/agents/deploy', validDeploy, { prefer: 'code=201' });
    expect(answer.status).toBe(201);
    expect((await call('GET', `/v1/agents/${String(answer.json().agentId)}`)).status).toBe(200);
  });

  it('an undocumented code or unknown example → 400 that says what exists', async () => {
    expect((await call('GET', `/v1/agents/${fake.active}`, { headers: { prefer: 'code=418' } })).json().detail).toMatch(
      /200, 400, 401, 404, 429, 500/,
    );
    expect(
      (await call('GET', `/v1/agents/${fake.active}`, { headers: { prefer: 'example=nope' } })).json().detail,
    ).toMatch(/tradingAgent, pausedAgent/);
  });
});

describe('CORS', () => {
  it('answers a preflight from an allowed origin, allowing Authorization', async () => {
    const response = await fetch(`${fake.server.url}/v1/agents/deploy`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
  });

  it('adds the allow-origin header to answers for an allowed origin, including errors', async () => {
    const answer = await call('GET', `/v1/agents/${fake.active}`, {
      auth: false,
      headers: { origin: 'http://localhost:5173' },
    });
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(answer.headers.get('access-control-expose-headers')).toMatch(/WWW-Authenticate/);
  });

  it('refuses a preflight from another origin', async () => {
    const response = await fetch(`${fake.server.url}/v1/agents/deploy`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('concurrency and slow clients', () => {
  it('loses nothing under many parallel deploys and executes: ids unique, every acknowledged deploy retrievable', async () => {
    const deploys = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        postJson('/v1/agents/deploy', { ...validDeploy, name: `parallel-${index}` }),
      ),
    );
    expect(deploys.every((answer) => answer.status === 201)).toBe(true);
    const ids = deploys.map((answer) => String(answer.json().agentId));
    expect(new Set(ids).size).toBe(200);
    const tasks = await Promise.all(ids.map((agentId) => postJson(`/v1/agents/${agentId}/execute`, { task: 'x' })));
    expect(new Set(tasks.map((answer) => String(answer.json().taskId))).size).toBe(200);
    const agents = await Promise.all(ids.map((agentId) => call('GET', `/v1/agents/${agentId}`)));
    for (const [index, answer] of agents.entries()) expect(answer.json().name).toBe(`parallel-${index}`);
  });

  it('answers a client that stalls in its headers with 408, while serving others', async () => {
    const strict = await startMockServer({
      port: 0,
      seed: 1,
      logger: silentLogger,
      httpLimits: { headersTimeoutMs: 300, requestTimeoutMs: 600, connectionsCheckingIntervalMs: 50 },
    });
    try {
      const stalled = new Promise<string>((resolve, reject) => {
        const socket = connect(strict.port, '127.0.0.1', () =>
          socket.write('GET /__mock/health HTTP/1.1\r\nHost: localhost\r\n'),
        );
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString()));
        socket.on('close', () => resolve(received));
        socket.on('error', reject);
      });
      const other = await fetch(`${strict.url}/__mock/health`);
      expect(other.status).toBe(200);
      expect(await stalled).toMatch(/^HTTP\/1.1 408/);
    } finally {
      await strict.close();
    }
  });
});

describe('createRequestListener', () => {
  it('turns a response header node refuses into a 500 problem instead of crashing', async () => {
    const { createServer } = await import('node:http');
    const { createRequestListener } = await import('./http-server.ts');
    const broken = {
      handle: () => Promise.resolve({ status: 200, headers: { 'x-broken': 'line\nbreak' }, body: '{}' }),
    } as unknown as RunningMockServer['core'];
    const bare = createServer(createRequestListener(broken));
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    try {
      const address = bare.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const response = await fetch(`http://127.0.0.1:${port}/v1/agents/x`);
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
    } finally {
      bare.close();
    }
  });
});
