// The standalone server over real HTTP on an ephemeral port: the bad-input list, one test each. Each gets the
// documented problem, never a 2xx, a 500 or a hang, and the server goes on answering.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { mintToken } from '../../core/request/auth.ts';
import { MAX_BODY_BYTES } from '../../core/mock-http.ts';
import { expectConforms } from '../../test-api/expect-conforms.ts';
import { errorPaths, useHttpTestServer, validDeploy } from './http-test-server.ts';

const fake = useHttpTestServer();
const { call, postJson, raw } = fake;

describe('bad input gets the documented problem, never a 2xx, a 500 or a hang', () => {
  it('missing token → 401 with a Bearer challenge', async () => {
    const answer = await call('GET', `/v1/agents/${fake.active}`, { auth: false });
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
      const answer = await call('GET', `/v1/agents/${fake.active}`, { auth: false, headers: { authorization } });
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
    const response = await fetch(`${fake.server.url}/v1/agents/deploy`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
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
    const response = await fetch(`${fake.server.url}/v1/agents/deploy`, {
      method: 'POST',
      body: stream,
      headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
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
    const execute = await postJson(`/v1/agents/${fake.active}/execute`, { task: 'x', priority: 'urgent' });
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
    const answer = await call('DELETE', `/v1/agents/${fake.active}`);
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD');
    expect((await call('GET', `/v1/agents/${fake.active}/execute`)).headers.get('allow')).toBe('POST');
  });

  it('__proto__ keys neither pollute prototypes nor break the answer', async () => {
    const body = `{"name":"P","category":"defi","model":"gpt-4","initialSupply":1,"__proto__":{"polluted":true},"capabilities":["a"]}`;
    const answer = await call('POST', '/v1/agents/deploy', { body, headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(201);
    const execute = await call('POST', `/v1/agents/${fake.active}/execute`, {
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
    expect((await call('GET', `/v1/agents/${fake.active}`)).status).toBe(200);
  });

  it('an aborted upload leaves the server answering', async () => {
    await new Promise<void>((resolve) => {
      const socket = connect(fake.server.port, '127.0.0.1', () => {
        socket.write(
          `POST /v1/agents/deploy HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${fake.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
    });
    expect((await call('GET', `/v1/agents/${fake.active}`)).status).toBe(200);
  });

  it('deeply nested JSON → 400, without a stack overflow', async () => {
    const deep = `{"task":"x","parameters":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
    const answer = await call('POST', `/v1/agents/${fake.active}/execute`, {
      body: deep,
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    const arrays = await call('POST', `/v1/agents/${fake.active}/execute`, {
      body: `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(arrays.status).toBe(400);
  });

  it('unknown request fields are ignored, as the spec says', async () => {
    expect((await postJson('/v1/agents/deploy', { ...validDeploy, color: 'blue' })).status).toBe(201);
  });
});
