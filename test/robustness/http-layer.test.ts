// The standalone fake's HTTP layer under abuse, over raw sockets: oversized URLs and headers, garbage, stalled and slow
// clients, aborted uploads. It must answer problem+json where it can answer, never crash, and keep serving everyone else.
import type { Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpawnedServer } from '../support/spawned-server.ts';
import { bearer, keepAliveAgent, send, startFake } from './fake-process.ts';

let fake: SpawnedServer;
let agent: Agent;
let authorization = '';
let agentId = '';
const sockets = new Set<Socket>();

beforeAll(async () => {
  fake = await startFake();
  agent = keepAliveAgent();
  authorization = await bearer('http-layer');
  const deployed = await send(agent, fake.baseUrl, {
    method: 'POST',
    path: '/v1/agents/deploy',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'http layer', category: 'social', model: 'gpt-4', initialSupply: 5 }),
  });
  agentId = (JSON.parse(deployed.body) as { agentId: string }).agentId;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  agent?.destroy();
  await fake?.stop();
});

/** Opens a raw TCP connection to the fake. */
function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(fake.port, '127.0.0.1', () => resolve(socket));
    socket.on('error', () => {});
    socket.once('error', reject);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
}

/** Writes `bytes` on a fresh connection and resolves with everything the server sends until it closes the connection. */
async function exchange(bytes: string | Buffer): Promise<{ status: number; headers: string; body: string }> {
  const socket = await open();
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(bytes);
  // Closing our side only after the answer is read: some answers come before the request is complete.
  const answered = new Promise<void>((resolve) => socket.once('data', () => resolve()));
  await Promise.race([answered, closed]);
  socket.end();
  await closed;
  const text = Buffer.concat(chunks).toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
    headers: text.slice(0, split),
    body: text.slice(split + 4),
  };
}

/** The fake is alive and serves a normal request correctly. */
async function stillServing(): Promise<void> {
  expect(fake.child.exitCode).toBeNull();
  const response = await send(
    agent,
    fake.baseUrl,
    { method: 'GET', path: `/v1/agents/${agentId}`, headers: { authorization } },
    10_000,
  );
  expect(response.status).toBe(200);
  expect((JSON.parse(response.body) as { agentId: string }).agentId).toBe(agentId);
}

function expectProblem(answer: { status: number; headers: string; body: string }, status: number): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.toLowerCase()).toContain('content-type: application/problem+json');
  const problem = JSON.parse(answer.body) as { status: number; type: string; title: string; detail: string };
  expect(problem.status).toBe(status);
  expect(
    typeof problem.type === 'string' && typeof problem.title === 'string' && typeof problem.detail === 'string',
  ).toBe(true);
}

describe('oversized requests', () => {
  it.each([
    ['a 10 KB URL', { given: `GET /v1/agents/${'a'.repeat(10_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`, want: 414 }],
    [
      'a 20 KB URL (over the header limit)',
      { given: `GET /v1/agents/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`, want: 431 },
    ],
    [
      'a 20 KB header',
      { given: `GET /v1/agents/x HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`, want: 431 },
    ],
    [
      '3,000 small headers',
      {
        given: `GET /v1/agents/x HTTP/1.1\r\nHost: localhost\r\n${Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n\r\n`,
        want: 431,
      },
    ],
    [
      'a declared 2 MiB body',
      {
        given:
          'POST /v1/agents/deploy HTTP/1.1\r\nHost: localhost\r\n<auth>Content-Type: application/json\r\nContent-Length: 2097152\r\n\r\n{',
        want: 413,
      },
    ],
    ['not HTTP at all', { given: '\u0000\u0001\u0002 hello\r\n\r\n', want: 400 }],
    [
      'a bad Content-Length',
      { given: 'POST /v1/agents/deploy HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n', want: 400 },
    ],
    [
      'Content-Length beside chunked (request smuggling)',
      {
        given:
          'POST /v1/agents/deploy HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        want: 400,
      },
    ],
    [
      'a header without a colon',
      { given: 'GET /v1/agents/x HTTP/1.1\r\nHost: localhost\r\nNoColonHere\r\n\r\n', want: 400 },
    ],
  ])('answers %s with a problem and carries on', async (_name, { given, want }) => {
    // The token is minted in beforeAll, after this table is built.
    expectProblem(await exchange(given.replace('<auth>', `Authorization: ${authorization}\r\n`)), want);
    await stillServing();
  });

  it('answers a chunked upload that grows past 1 MiB with 413 and carries on', async () => {
    const socket = await open();
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      `POST /v1/agents/deploy HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const piece = 'x'.repeat(64 * 1024);
    for (let index = 0; index < 20 && !socket.destroyed; index += 1)
      socket.write(`${piece.length.toString(16)}\r\n${piece}\r\n`);
    socket.end('0\r\n\r\n');
    await closed;
    expect(Buffer.concat(chunks).toString('latin1')).toMatch(/^HTTP\/1\.1 413 /);
    await stillServing();
  });
});

describe('stalled, slow and vanishing clients', () => {
  it('serves other clients while 200 connections sit on half-sent headers and bodies', async () => {
    const stalled: Socket[] = [];
    for (let index = 0; index < 150; index += 1) {
      const socket = await open();
      socket.write('GET /v1/agents/x HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
      stalled.push(socket);
    }
    for (let index = 0; index < 50; index += 1) {
      const socket = await open();
      socket.write(
        `POST /v1/agents/deploy HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`,
      );
      stalled.push(socket);
    }
    for (let round = 0; round < 20; round += 1) await stillServing();
    for (const socket of stalled) expect(socket.destroyed).toBe(false);
    for (const socket of stalled) socket.destroy();
  });

  it('cuts off a client that never finishes its headers with a 408 problem (headers timeout, 10 s by default)', {
    timeout: 30_000,
  }, async () => {
    const socket = await open();
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write('GET /v1/agents/x HTTP/1.1\r\nHost: localhost\r\nX-Never-Finished: ');
    await closed;
    const text = Buffer.concat(chunks).toString('latin1');
    expectProblem(
      {
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
        headers: text.slice(0, text.indexOf('\r\n\r\n')),
        body: text.slice(text.indexOf('\r\n\r\n') + 4),
      },
      408,
    );
    await stillServing();
  });

  it('survives clients that vanish mid-upload or before reading the answer', async () => {
    const body = JSON.stringify({ name: 'vanishing', category: 'nft', model: 'gpt-4', initialSupply: 1 });
    for (let index = 0; index < 50; index += 1) {
      const socket = await open();
      const head = `POST /v1/agents/deploy HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      // Even: cut off in the middle of the body. Odd: send it all, then leave without reading the answer.
      socket.write(index % 2 ? head + body : head + body.slice(0, 10));
      socket.destroy();
    }
    await stillServing();
    const health = await send(agent, fake.baseUrl, { method: 'GET', path: '/__mock/health' });
    expect(health.status).toBe(200);
  });

  it('serves a client that trickles its request a few bytes at a time', async () => {
    const socket = await open();
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const request = `GET /v1/agents/${agentId} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authorization}\r\nConnection: close\r\n\r\n`;
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    for (let offset = 0; offset < request.length; offset += 7) {
      socket.write(request.slice(offset, offset + 7));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await closed;
    expect(Buffer.concat(chunks).toString('utf8')).toMatch(/^HTTP\/1\.1 200 /);
  });
});
