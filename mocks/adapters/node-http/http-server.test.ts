// The standalone server over real HTTP on an ephemeral port: operations, the bad-input list (one test each), CORS, Prefer.
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mintToken } from '../../core/request/auth.ts';
import { createFixedClock } from '../../domain/clock.ts';
import { expectConforms } from '../../test-api/expect-conforms.ts';
import { startMockServer, type RunningMockServer } from './http-server.ts';
import { silentLogger } from '../../domain/logger.ts';
import { MAX_BODY_BYTES } from '../../core/mock-http.ts';

let server: RunningMockServer;
let token: string;
let active: string;
let paused: string;

interface Answer {
  status: number;
  headers: Headers;
  body: string;
  json: () => Record<string, unknown>;
}

async function call(
  method: string,
  path: string,
  init: { body?: string | Uint8Array<ArrayBuffer>; headers?: Record<string, string>; auth?: boolean } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {
    ...(init.auth !== false && { authorization: `Bearer ${token}` }),
    ...init.headers,
  };
  const response = await fetch(server.url + path, {
    method,
    headers,
    ...(init.body !== undefined && { body: init.body }),
  });
  const body = await response.text();
  if (path.startsWith('/v1'))
    expectConforms({ method, path, status: response.status, headers: response.headers, body });
  return {
    status: response.status,
    headers: response.headers,
    body,
    json: () => JSON.parse(body) as Record<string, unknown>,
  };
}

const postJson = (path: string, value: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
  call('POST', path, { body: JSON.stringify(value), headers: { 'content-type': 'application/json', ...headers } });

const validDeploy = { name: 'Test Bot', category: 'defi', model: 'gpt-4', initialSupply: 1000 };

function errorPaths(answer: Answer): string[] {
  const errors = answer.json().errors as { path: string }[] | undefined;
  return (errors ?? []).map((error) => error.path);
}

/** Sends raw bytes and returns the raw answer (for requests fetch refuses to make). */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('end', () => resolve(received));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

beforeAll(async () => {
  server = await startMockServer({
    port: 0,
    seed: 42,
    clock: createFixedClock(Date.parse('2026-11-20T12:00:00.000Z')),
    failureRatio: 0,
    logger: silentLogger,
    corsOrigins: ['http://localhost:5173'],
  });
  token = await mintToken({ sub: 'tester' });
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  await call('POST', '/__mock/reset');
  const list = (await call('GET', '/__mock/agents?limit=1000')).json().agents as { agentId: string; status: string }[];
  active = list.find((agent) => agent.status === 'active')?.agentId ?? '';
  paused = list.find((agent) => agent.status === 'paused')?.agentId ?? '';
});

describe('the three operations over HTTP', () => {
  it('serves a seeded agent', async () => {
    const answer = await call('GET', `/v1/agents/${active}`);
    expect(answer.status).toBe(200);
    expect(answer.json().agentId).toBe(active);
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
    expect((await postJson(`/v1/agents/${paused}/execute`, { task: 'x' })).status).toBe(409);
    await call('PUT', `/__mock/agents/${active}/status`, {
      body: '{"status":"deprecated"}',
      headers: { 'content-type': 'application/json' },
    });
    const answer = await postJson(`/v1/agents/${active}/execute`, { task: 'x' });
    expect(answer.status).toBe(409);
    expect(answer.json().detail).toMatch(/deprecated/);
  });
});

describe('bad input gets the documented problem, never a 2xx, a 500 or a hang', () => {
  it('missing token → 401 with a Bearer challenge', async () => {
    const answer = await call('GET', `/v1/agents/${active}`, { auth: false });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('non-Bearer, malformed, wrongly signed and expired tokens → 401', async () => {
    for (const authorization of [
      'Basic abc',
      'Bearer x.y.z',
      `Bearer ${await mintToken({ secret: 'nope' })}`,
      `Bearer ${await mintToken({ expired: true })}`,
    ]) {
      const answer = await call('GET', `/v1/agents/${active}`, { auth: false, headers: { authorization } });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_(token|request)"/);
    }
  });

  it('malformed JSON → 400 malformed-json', async () => {
    const answer = await call('POST', '/v1/agents/deploy', {
      body: '{"name": "x",',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json().type).toBe('https://agent-registry.dev/problems/malformed-json');
  });

  it('wrong Content-Type → 415', async () => {
    const answer = await call('POST', '/v1/agents/deploy', {
      body: JSON.stringify(validDeploy),
      headers: { 'content-type': 'text/plain' },
    });
    expect(answer.status).toBe(415);
  });

  it('missing Content-Type → 415', async () => {
    const answer = await call('POST', '/v1/agents/deploy', {
      body: new TextEncoder().encode(JSON.stringify(validDeploy)),
    });
    expect(answer.status).toBe(415);
  });

  it('a charset other than UTF-8 → 415', async () => {
    const answer = await call('POST', '/v1/agents/deploy', {
      body: JSON.stringify(validDeploy),
      headers: { 'content-type': 'application/json; charset=latin1' },
    });
    expect(answer.status).toBe(415);
  });

  it('empty body → 400', async () => {
    const answer = await call('POST', '/v1/agents/deploy', {
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json().title).toBe('Request body is missing');
  });

  it('invalid UTF-8 → 400', async () => {
    const answer = await call('POST', '/v1/agents/deploy', {
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
  });

  it('body over 1 MiB with Content-Length → 413, answered without reading it all', async () => {
    const answer = await call('POST', '/v1/agents/deploy', {
      body: `{"name":"${'a'.repeat(1_100_000)}"}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(413);
  });

  // The limit is exactly MAX_BODY_BYTES: one byte less or equal is read (and judged: a name this long is a 400), one more
  // is a 413, whether the length is declared or only seen while the body arrives.
  it.each([
    ['declared', MAX_BODY_BYTES, 400],
    ['declared', MAX_BODY_BYTES + 1, 413],
    ['streamed', MAX_BODY_BYTES, 400],
    ['streamed', MAX_BODY_BYTES + 1, 413],
  ] as const)('a %s body of %i bytes → %i', async (how, size, status) => {
    const text = `{"name":"${'a'.repeat(size - 11)}"}`;
    expect(Buffer.byteLength(text)).toBe(size);
    const bytes = new TextEncoder().encode(text);
    const body =
      how === 'declared'
        ? bytes
        : new ReadableStream<Uint8Array>({
            start(controller) {
              for (let offset = 0; offset < bytes.length; offset += 65_536)
                controller.enqueue(bytes.subarray(offset, offset + 65_536));
              controller.close();
            },
          });
    const response = await fetch(`${server.url}/v1/agents/deploy`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(how === 'streamed' && { duplex: 'half' }),
    } as RequestInit);
    await response.text();
    expect(response.status).toBe(status);
  });

  it('body over 1 MiB streamed without Content-Length → 413', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 20) controller.close();
        else {
          sent += 1;
          controller.enqueue(chunk);
        }
      },
    });
    const response = await fetch(`${server.url}/v1/agents/deploy`, {
      method: 'POST',
      body: stream,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    const body = await response.text();
    expect(response.status).toBe(413);
    expectConforms({ method: 'POST', path: '/v1/agents/deploy', status: 413, headers: response.headers, body });
  });

  it('wrong types → 400 naming each field', async () => {
    const answer = await postJson('/v1/agents/deploy', {
      name: 5,
      category: 'defi',
      model: 'gpt-4',
      initialSupply: '1000',
    });
    expect(answer.status).toBe(400);
    expect(errorPaths(answer).sort()).toEqual(['/initialSupply', '/name']);
  });

  it('enum violation → 400 at the field', async () => {
    const answer = await postJson('/v1/agents/deploy', { ...validDeploy, category: 'cooking' });
    expect(errorPaths(answer)).toEqual(['/category']);
    const execute = await postJson(`/v1/agents/${active}/execute`, { task: 'x', priority: 'urgent' });
    expect(errorPaths(execute)).toEqual(['/priority']);
  });

  it('range violation → 400 at the field', async () => {
    const answer = await postJson('/v1/agents/deploy', { ...validDeploy, revenueShare: 1.5, initialSupply: 0 });
    expect(errorPaths(answer).sort()).toEqual(['/initialSupply', '/revenueShare']);
  });

  it('missing required fields → 400 for each', async () => {
    const answer = await postJson('/v1/agents/deploy', {});
    expect(errorPaths(answer).sort()).toEqual(['/category', '/initialSupply', '/model', '/name']);
  });

  it('a JSON array instead of an object → 400', async () => {
    expect((await postJson('/v1/agents/deploy', [validDeploy])).status).toBe(400);
  });

  it('unknown agent → 404 on retrieve and on execute', async () => {
    expect((await call('GET', '/v1/agents/agt_doesNotExist')).status).toBe(404);
    expect((await postJson('/v1/agents/agt_doesNotExist/execute', { task: 'x' })).status).toBe(404);
  });

  it('unknown path → 404', async () => {
    const answer = await call('GET', '/v1/tasks');
    expect(answer.status).toBe(404);
    expect((await call('GET', '/')).status).toBe(404);
  });

  it('wrong method → 405 with Allow', async () => {
    const answer = await call('DELETE', `/v1/agents/${active}`);
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD');
    expect((await call('GET', `/v1/agents/${active}/execute`)).headers.get('allow')).toBe('POST');
  });

  it('__proto__ keys neither pollute prototypes nor break the answer', async () => {
    const body = `{"name":"P","category":"defi","model":"gpt-4","initialSupply":1,"__proto__":{"polluted":true},"capabilities":["a"]}`;
    const answer = await call('POST', '/v1/agents/deploy', { body, headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(201);
    const execute = await call('POST', `/v1/agents/${active}/execute`, {
      body: '{"task":"x","parameters":{"__proto__":{"polluted":true}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(execute.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('constructor / prototype keys neither pollute prototypes nor break the answer', async () => {
    const body =
      '{"name":"C","category":"defi","model":"gpt-4","initialSupply":1,"constructor":{"prototype":{"polluted":true}}}';
    expect(
      (await call('POST', '/v1/agents/deploy', { body, headers: { 'content-type': 'application/json' } })).status,
    ).toBe(201);
    expect((await call('GET', '/v1/agents/constructor')).status).toBe(404);
    expect((await call('GET', '/v1/agents/__proto__')).status).toBe(404);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('an id over 128 characters → 400 at /path/agentId', async () => {
    const answer = await call('GET', `/v1/agents/${'a'.repeat(129)}`);
    expect(answer.status).toBe(400);
    expect(errorPaths(answer)).toEqual(['/path/agentId']);
    expect((await postJson(`/v1/agents/${'a'.repeat(129)}/execute`, { task: 'x' })).status).toBe(400);
  });

  it('a bad percent-encoding in the id → 400', async () => {
    expect((await call('GET', '/v1/agents/%E0%A4%A')).status).toBe(400);
  });

  it('a URL over 8 KiB → 414; request headers over 16 KiB → 431; both close the connection', async () => {
    const long = await raw(`GET /v1/agents/${'a'.repeat(9000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(long).toMatch(/^HTTP\/1.1 414/);
    const huge = await raw(`GET /v1/agents/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1.1 431/);
    expect(huge).toContain('application/problem+json');
  });

  it('garbage instead of HTTP → 400, and the server still answers', async () => {
    expect(await raw('NOT HTTP AT ALL\r\n\r\n')).toMatch(/^HTTP\/1.1 400/);
    expect((await call('GET', `/v1/agents/${active}`)).status).toBe(200);
  });

  it('an aborted upload leaves the server answering', async () => {
    await new Promise<void>((resolve) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(
          `POST /v1/agents/deploy HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
    });
    expect((await call('GET', `/v1/agents/${active}`)).status).toBe(200);
  });

  it('deeply nested JSON → 400, without a stack overflow', async () => {
    const deep = `{"task":"x","parameters":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
    const answer = await call('POST', `/v1/agents/${active}/execute`, {
      body: deep,
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    const arrays = await call('POST', `/v1/agents/${active}/execute`, {
      body: `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(arrays.status).toBe(400);
  });

  it('unknown request fields are ignored, as the spec says', async () => {
    expect((await postJson('/v1/agents/deploy', { ...validDeploy, color: 'blue' })).status).toBe(201);
  });
});

describe('Prefer (Prism convention)', () => {
  it('code=<error status> answers that documented status with its example', async () => {
    const answer = await call('GET', `/v1/agents/${active}`, { headers: { prefer: 'code=404' } });
    expect(answer.status).toBe(404);
    expect(answer.json().instance).toBe(`/v1/agents/${active}`);
    expect(answer.headers.get('preference-applied')).toBe('code=404');
    const unauthorized = await call('GET', `/v1/agents/${active}`, { headers: { prefer: 'code=401' } });
    expect(unauthorized.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const limited = await postJson('/v1/agents/deploy', validDeploy, { prefer: 'code=429' });
    expect(limited.headers.get('retry-after')).toBe('1');
  });

  it('example=<name> answers the named example', async () => {
    const answer = await call('GET', `/v1/agents/${active}`, { headers: { prefer: 'example=pausedAgent' } });
    expect(answer.status).toBe(200);
    expect(answer.json().agentId).toBe('agt_3Hd8sQ1mZc6YbN2e');
  });

  it('code=<success> without an example runs the real, stateful operation', async () => {
    const answer = await postJson('/v1/agents/deploy', validDeploy, { prefer: 'code=201' });
    expect(answer.status).toBe(201);
    expect((await call('GET', `/v1/agents/${String(answer.json().agentId)}`)).status).toBe(200);
  });

  it('an undocumented code or unknown example → 400 that says what exists', async () => {
    expect((await call('GET', `/v1/agents/${active}`, { headers: { prefer: 'code=418' } })).json().detail).toMatch(
      /200, 400, 401, 404, 429, 500/,
    );
    expect((await call('GET', `/v1/agents/${active}`, { headers: { prefer: 'example=nope' } })).json().detail).toMatch(
      /tradingAgent, pausedAgent/,
    );
  });
});

describe('CORS', () => {
  it('answers a preflight from an allowed origin, allowing Authorization', async () => {
    const response = await fetch(`${server.url}/v1/agents/deploy`, {
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
    const answer = await call('GET', `/v1/agents/${active}`, {
      auth: false,
      headers: { origin: 'http://localhost:5173' },
    });
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(answer.headers.get('access-control-expose-headers')).toMatch(/WWW-Authenticate/);
  });

  it('refuses a preflight from another origin', async () => {
    const response = await fetch(`${server.url}/v1/agents/deploy`, {
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
