import { describe, expect, it } from 'vitest';
import { primaryCreation } from '../../verifier-client/requests/linked-operations.ts';
import { fillPath } from '../../verifier-client/requests/path-parameters.ts';
import { checkResponse, getAtPointer, getOperation, type JsonValue } from '../../spec/index.ts';
import { mintToken } from '../core/request/auth.ts';
import { answerSync, createMockCore, type MockCore } from './mock-core.ts';
import { silentLogger } from '../domain/logger.ts';
import type { MockRequest, MockResponse } from '../core/mock-http.ts';
import { problemResponse } from '../core/problems.ts';

// The operations come from the spec's links: the creating write, the GET that reads it back.
const primary = primaryCreation();
const token = await mintToken();

function requestOf(op: typeof primary.readBack, values: Record<string, string>, body?: unknown): MockRequest {
  return {
    method: getOperation(op).method,
    path: fillPath(op, values),
    query: '',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
  };
}

const deployBody = { name: 'Sync', category: 'defi', model: 'gpt-4', initialSupply: 10 };

/** The core's synchronous answer; the test fails if the core has none. */
function answerNow(core: MockCore, request: MockRequest): MockResponse | Promise<MockResponse> {
  const answer = core[answerSync];
  if (!answer) throw new Error('createMockCore made a core without the synchronous answer');
  return answer(request);
}

describe('the synchronous answer (the node:http listener fast path)', () => {
  it('answers a deploy and its read-back at once in memory once the token is known, as handle does', async () => {
    const core = createMockCore({ logger: silentLogger });
    // The first sight of a token verifies its signature (WebCrypto): that answer waits.
    const first = answerNow(core, requestOf(primary.creator, {}, deployBody));
    expect(first).toBeInstanceOf(Promise);
    expect((await first).status).toBe(201);
    const deployed = answerNow(core, requestOf(primary.creator, {}, deployBody));
    expect(deployed).not.toBeInstanceOf(Promise);
    const { status, body } = deployed as MockResponse;
    expect(status).toBe(201);
    const id = String(getAtPointer(JSON.parse(body) as JsonValue, primary.field));
    const read = answerNow(core, requestOf(primary.readBack, { [primary.parameter]: id }));
    expect(read).not.toBeInstanceOf(Promise);
    const viaHandle = await core.handle(requestOf(primary.readBack, { [primary.parameter]: id }));
    expect(read).toEqual(viaHandle);
    // Both went through the journal and the coverage, as any answer does.
    expect(core.journal.size).toBe(4);
  });

  it('waits when a scenario adds latency, and handle always gives a promise', async () => {
    const waited: number[] = [];
    const core = createMockCore({
      logger: silentLogger,
      sleep: (ms) => {
        waited.push(ms);
        return Promise.resolve();
      },
    });
    await core.handle(requestOf(primary.creator, {}, deployBody));
    expect(answerNow(core, requestOf(primary.creator, {}, deployBody))).not.toBeInstanceOf(Promise);
    await core.configureScenarios({ latencyMs: 5 });
    const slow = answerNow(core, requestOf(primary.creator, {}, deployBody));
    expect(slow).toBeInstanceOf(Promise);
    expect((await slow).status).toBe(201);
    expect(waited).toEqual([5]);
    await core.configureScenarios({});
    expect(core.handle(requestOf(primary.creator, {}, deployBody))).toBeInstanceOf(Promise);
  });

  it('answers a request the dispatch cannot route with its problem, synchronously', () => {
    const core = createMockCore({ logger: silentLogger });
    const answer = answerNow(core, { method: 'GET', path: '/v1/nowhere', query: '', headers: {}, body: null });
    expect(answer).not.toBeInstanceOf(Promise);
    expect((answer as MockResponse).status).toBe(404);
  });
});

describe('problemResponse keeps within the bounds spec/openapi.yaml puts on a problem', () => {
  it('cuts a long instance and detail, lists the first 100 errors, and still conforms', () => {
    const path = `/v1/agents/${'a'.repeat(5000)}`;
    const errors = Array.from({ length: 150 }, (_, index) => ({
      path: `/${'p'.repeat(3000)}${index}`,
      message: 'm'.repeat(2000),
    }));
    const response = problemResponse('invalid-parameter', { detail: 'd'.repeat(5000), instance: path, errors });
    const problem = JSON.parse(response.body) as {
      detail: string;
      instance: string;
      errors: { path: string; message: string }[];
    };
    expect([problem.detail.length, problem.instance.length, problem.errors.length]).toEqual([4096, 2048, 100]);
    expect([problem.errors[0]?.path.length, problem.errors[0]?.message.length]).toEqual([2048, 1024]);
    const check = checkResponse({
      operationId: 'getAgent',
      status: 400,
      contentType: 'application/problem+json',
      body: response.body,
      headers: response.headers,
    });
    expect(check.violations).toEqual([]);
  });
});
