// Fuzzes the standalone fake over real HTTP with requests built from the spec's schemas and then corrupted: no 5xx, no
// crash, no hang, every error is a valid problem+json for its operation, and the server still answers correctly afterwards.
// FUZZ_RUNS=20000 npx vitest run test/robustness/fuzz.test.ts for a longer run; FUZZ_SEED to explore other cases;
// FUZZ_STATS=1 prints how the cases spread over corruptions and statuses. The control plane (/__mock) is not fuzzed: it
// can reset the store on purpose.
import fc from 'fast-check';
import type { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { checkResponse, operations, type OperationId } from '../../spec/index.ts';
import { getSchemaValidator } from '../../spec/validators/schema-compiler.ts';
import type { SpawnedServer } from '../support/spawned-server.ts';
import { bearer, keepAliveAgent, send, startFake, type RawResponse } from './fake-process.ts';
import { bodyFor, type Corruption } from './schema-arbitraries.ts';

const runs = Number(process.env.FUZZ_RUNS ?? 2500);
const seed = Number(process.env.FUZZ_SEED ?? 20261122);

let fake: SpawnedServer;
let agent: Agent;
let activeAgentId = '';
const tokens: Record<string, string> = {};

beforeAll(async () => {
  fake = await startFake();
  agent = keepAliveAgent();
  tokens.valid = await bearer('fuzzer');
  tokens.expired = `Bearer ${await mintToken({ sub: 'fuzzer', expired: true })}`;
  tokens.wrongSecret = `Bearer ${await mintToken({ sub: 'fuzzer', secret: 'not-the-fake-secret' })}`;
  const deployed = await send(agent, fake.baseUrl, {
    method: 'POST',
    path: '/v1/agents/deploy',
    headers: { authorization: tokens.valid, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'fuzz target', category: 'analytics', model: 'claude-3', initialSupply: 1000 }),
  });
  expect(deployed.status).toBe(201);
  activeAgentId = (JSON.parse(deployed.body) as { agentId: string }).agentId;
});

afterAll(async () => {
  agent?.destroy();
  await fake?.stop();
});

/** One generated request and what it was built from, so a shrunk counterexample reads as a sentence. */
interface FuzzCase {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  corruption: Corruption | 'no-body';
  /** The operation this method and path name in the document, when they name one. */
  operationId: OperationId | undefined;
}

const agentIds = fc.oneof(
  fc.constant('<active>'),
  fc.constantFrom(
    'agt_doesNotExist',
    'deploy',
    'execute',
    '..',
    '.',
    '%',
    '%ZZ',
    '%00',
    '%2F',
    '%C3%28',
    'a%20b',
    '__proto__',
    'constructor',
  ),
  fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
  fc.integer({ min: 120, max: 400 }).map((length) => 'x'.repeat(length)),
);

const paths = fc.oneof(
  { weight: 4, arbitrary: agentIds.map((id) => ({ template: '/v1/agents/{agentId}', id })) },
  { weight: 4, arbitrary: agentIds.map((id) => ({ template: '/v1/agents/{agentId}/execute', id })) },
  { weight: 4, arbitrary: fc.constant({ template: '/v1/agents/deploy', id: '' }) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        '/',
        '/v1',
        '/v1/',
        '/v1/agents',
        '/v1/agents/',
        '/v2/agents/deploy',
        '/v1/agents/deploy/',
        '/V1/AGENTS/DEPLOY',
        '//v1/agents/deploy',
        '/v1/agents/<id>/execute/more',
        '/v1/agents/<id>/',
        '/v1/agents//execute',
        '/favicon.ico',
        '/v1/agents/deploy/execute',
      )
      .map((template) => ({ template, id: '<active>' })),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(
        fc.stringMatching(/^[A-Za-z0-9._~-]{0,12}$/).filter((segment) => segment !== '__mock'),
        { maxLength: 5 },
      )
      .map((segments) => ({ template: `/${segments.join('/')}`, id: '' })),
  },
);

const extraHeaders = fc.dictionary(fc.stringMatching(/^x-[a-z0-9-]{1,16}$/), fc.stringMatching(/^[\x20-\x7e]{0,80}$/), {
  maxKeys: 3,
});

const authorizations = fc.oneof(
  { weight: 6, arbitrary: fc.constant('<valid>') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '<none>',
      '<expired>',
      '<wrongSecret>',
      'Bearer',
      'Bearer ',
      'bearer x.y.z',
      'Basic dXNlcjpwYXNz',
      'Bearer a.b',
      'Bearer eyJhbGciOiJub25lIn0.e30.',
    ),
  },
  { weight: 1, arbitrary: fc.stringMatching(/^[\x21-\x7e]{0,60}$/).map((junk) => `Bearer ${junk}`) },
);

const contentTypes = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '<none>',
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'text/plain',
      'application/problem+json',
      'APPLICATION/JSON',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      ';;;',
      'application/json;',
    ),
  },
);

// Prefer codes a client may ask for; 5xx are left out because asking for one is asking for a 5xx.
const prefers = fc.oneof(
  { weight: 12, arbitrary: fc.constant('<none>') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'code=400',
      'code=401',
      'code=404',
      'code=409',
      'code=200',
      'code=201',
      'code=999',
      'code=abc',
      'example=pausedAgent',
      'example=nope',
      'code=404, example=unknownAgent',
      ';;,,=',
    ),
  },
);

/** Mostly the method the document gives the path (so most cases get past routing), sometimes any other. */
function methodFor(template: string): fc.Arbitrary<string> {
  const natural = template === '/v1/agents/{agentId}' ? 'GET' : 'POST';
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(natural) },
    { weight: 2, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') },
  );
}

function operationFor(method: string, path: string): OperationId | undefined {
  const segments = path.split('?')[0]?.split('/') ?? [];
  // As OpenAPI matches: among the templates that fit the path, the most concrete ones (fewest parameters) win, so
  // GET /v1/agents/deploy names no operation (405), not getAgent.
  const fitting = [...operations.values()].filter((operation) => {
    const template = operation.path.split('/');
    return (
      template.length === segments.length &&
      template.every((part, index) =>
        part.startsWith('{') ? (segments[index] ?? '') !== '' : part === segments[index],
      )
    );
  });
  const fewest = Math.min(...fitting.map((operation) => operation.pathParameters.length));
  return fitting.find((operation) => operation.pathParameters.length === fewest && operation.method === method)
    ?.operationId;
}

const fuzzCases: fc.Arbitrary<FuzzCase> = fc
  .record({
    path: paths,
    query: fc.option(fc.stringMatching(/^[A-Za-z0-9=&%._-]{0,30}$/), { nil: undefined }),
    auth: authorizations,
    contentType: contentTypes,
    prefer: prefers,
    extra: extraHeaders,
  })
  .chain((partial) => methodFor(partial.path.template).map((method) => ({ ...partial, method })))
  .chain((base) => {
    const wantsBody = base.method === 'POST' || base.method === 'PUT' || base.method === 'PATCH';
    const op = base.path.template.endsWith('/execute') ? 'executeAgentTask' : 'deployAgent';
    const body = wantsBody
      ? bodyFor(op).map((generated) => generated as { corruption: Corruption | 'no-body'; bytes: Buffer | undefined })
      : fc.constant({ corruption: 'no-body' as const, bytes: undefined });
    return body.map(({ corruption, bytes }) => ({ base, corruption, bytes }));
  })
  .map(({ base, corruption, bytes }) => {
    const path =
      base.path.template.replaceAll('{agentId}', base.path.id).replaceAll('<id>', base.path.id) +
      (base.query === undefined ? '' : `?${base.query}`);
    const headers: Record<string, string> = { ...base.extra };
    if (base.auth !== '<none>') headers.authorization = base.auth;
    if (bytes !== undefined && base.contentType !== '<none>') headers['content-type'] = base.contentType;
    if (base.prefer !== '<none>') headers.prefer = base.prefer;
    return {
      method: base.method,
      path,
      headers,
      body: bytes,
      corruption,
      operationId: operationFor(base.method, path),
    };
  });

function resolveCase(fuzz: FuzzCase): FuzzCase {
  const headers = { ...fuzz.headers };
  if (headers.authorization === '<valid>') headers.authorization = tokens.valid ?? '';
  if (headers.authorization === '<expired>') headers.authorization = tokens.expired ?? '';
  if (headers.authorization === '<wrongSecret>') headers.authorization = tokens.wrongSecret ?? '';
  return { ...fuzz, path: fuzz.path.replaceAll('<active>', activeAgentId), headers };
}

const validateProblem = getSchemaValidator('/components/schemas/Problem', 'response');

/** Why a response breaks the rules, or undefined when it is fine. */
function judge(fuzz: FuzzCase, response: RawResponse): string | undefined {
  if (response.status >= 500) return `a ${response.status} answer: ${response.body.slice(0, 300)}`;
  if (fuzz.operationId) {
    const check = checkResponse({
      operationId: fuzz.operationId,
      status: response.status,
      contentType: response.headers['content-type'],
      body: response.body,
      headers: response.headers,
    });
    if (!check.ok)
      return `breaks the spec for ${fuzz.operationId}: ${check.violations.map((v) => v.message).join('; ')}`;
    return undefined;
  }
  // HEAD answers carry no body, and a CORS preflight may answer OPTIONS without one.
  if (fuzz.method === 'HEAD' || (fuzz.method === 'OPTIONS' && response.status < 300)) return undefined;
  if (response.status < 400) return `an undocumented request got ${response.status}`;
  if (!/^application\/problem\+json\b/.test(response.headers['content-type'] ?? ''))
    return `error without problem+json (Content-Type ${response.headers['content-type']})`;
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return `problem body is not JSON: ${response.body.slice(0, 200)}`;
  }
  if (!validateProblem(body))
    return `problem body breaks the Problem schema: ${JSON.stringify(validateProblem.errors?.slice(0, 3))}`;
  if ((body as { status: number }).status !== response.status)
    return `problem status ${(body as { status: number }).status} differs from HTTP ${response.status}`;
  return undefined;
}

describe(`fuzz (seed ${seed}, ${runs} cases)`, () => {
  it('answers every generated request without a 5xx, a crash or a hang, with spec-valid errors', {
    timeout: 240_000,
  }, async () => {
    const corruptions = new Map<string, number>();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fuzzCases, async (generated) => {
        const fuzz = resolveCase(generated);
        const response = await send(agent, fake.baseUrl, {
          method: fuzz.method,
          path: fuzz.path,
          headers: fuzz.headers,
          body: fuzz.body,
        });
        corruptions.set(fuzz.corruption, (corruptions.get(fuzz.corruption) ?? 0) + 1);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const problem = judge(fuzz, response);
        if (problem) throw new Error(`${fuzz.method} ${fuzz.path.slice(0, 300)} (${fuzz.corruption}): ${problem}`);
      }),
      { seed, numRuns: runs },
    );
    if (process.env.FUZZ_STATS)
      console.log({ corruptions: Object.fromEntries(corruptions), statuses: Object.fromEntries(statuses) });
    // The generators must actually reach the interesting places, or the property proves little.
    for (const kind of ['none', 'schema-break', 'out-of-range', 'truncated-text', 'invalid-utf8', 'deep-nesting'])
      expect(corruptions.get(kind) ?? 0).toBeGreaterThan(0);
    for (const status of [200, 201, 400, 401, 404, 405, 415])
      expect(statuses.get(status) ?? 0, `status ${status} was reached`).toBeGreaterThan(0);
  });

  it('is still alive and answers correctly after the fuzzing', async () => {
    expect(fake.child.exitCode).toBeNull();
    const response = await send(agent, fake.baseUrl, {
      method: 'GET',
      path: `/v1/agents/${activeAgentId}`,
      headers: { authorization: tokens.valid ?? '' },
    });
    expect(response.status).toBe(200);
    expect(
      checkResponse({
        operationId: 'getAgent',
        status: 200,
        contentType: response.headers['content-type'],
        body: response.body,
      }).violations,
    ).toEqual([]);
    expect((JSON.parse(response.body) as { agentId: string }).agentId).toBe(activeAgentId);
  });
});
