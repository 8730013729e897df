import { describe, expect, it } from 'vitest';
import { checkResponse, type ResponseToCheck } from './response-checker.ts';
import { getAtPointer } from '../json-pointer.ts';
import { openapiDocument } from '../openapi-document.generated.ts';

const agent = structuredClone(getAtPointer(openapiDocument, '/components/examples/AgentTrading/value')) as Record<
  string,
  unknown
>;
const deployed = structuredClone(
  getAtPointer(openapiDocument, '/components/examples/DeployResultTrading/value'),
) as Record<string, unknown>;
const task = structuredClone(
  getAtPointer(openapiDocument, '/components/examples/TaskSubmissionQueued/value'),
) as Record<string, unknown>;
const problem = {
  type: 'https://agent-registry.dev/problems/unauthorized',
  title: 'Authentication required',
  status: 401,
  detail: 'no token',
};

function withChange(value: Record<string, unknown>, path: string[], replacement: unknown): string {
  const copy = structuredClone(value);
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path.at(-1) ?? '';
  if (replacement === undefined) delete node[last];
  else node[last] = replacement;
  return JSON.stringify(copy);
}

const ok = (
  operationId: ResponseToCheck['operationId'],
  status: number,
  body: unknown,
  contentType = 'application/json',
): ResponseToCheck => ({ operationId, status, contentType, body: JSON.stringify(body) });

describe('checkResponse', () => {
  it.each([
    ['an agent', ok('getAgent', 200, agent)],
    [
      'an agent with a charset parameter',
      { ...ok('getAgent', 200, agent), contentType: 'application/json; charset=utf-8' },
    ],
    ['a deploy result', ok('deployAgent', 201, deployed)],
    ['a task submission', ok('executeAgentTask', 200, task)],
    [
      'a 401 problem with its challenge',
      {
        ...ok('getAgent', 401, problem, 'application/problem+json'),
        headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
      },
    ],
    [
      'a 429 problem with Retry-After',
      {
        ...ok('deployAgent', 429, { ...problem, status: 429 }, 'application/problem+json'),
        headers: { 'retry-after': '3' },
      },
    ],
    [
      'a 429 with the RateLimit headers and an allowed origin',
      {
        ...ok('deployAgent', 429, { ...problem, status: 429 }, 'application/problem+json'),
        headers: {
          'retry-after': '3',
          'ratelimit-limit': '5',
          'ratelimit-remaining': '0',
          'ratelimit-reset': '3',
          'access-control-allow-origin': 'http://localhost:5173',
        },
      },
    ],
    ['an agent without the optional RateLimit headers', { ...ok('getAgent', 200, agent), headers: {} }],
  ])('passes %s', (_, given) => {
    expect(checkResponse(given)).toEqual({ ok: true, violations: [], warnings: [] });
  });

  it.each([
    [
      'an undocumented error status',
      {
        given: ok('getAgent', 418, problem, 'application/problem+json'),
        want: { rule: 'status-documented', pointer: '', origin: 'assumption' },
      },
    ],
    [
      "200 instead of the seed's 201 on deploy",
      { given: ok('deployAgent', 200, deployed), want: { rule: 'status-documented', pointer: '', origin: 'seed' } },
    ],
    [
      '201 instead of the assumed 200 on retrieve',
      { given: ok('getAgent', 201, agent), want: { rule: 'status-documented', pointer: '', origin: 'assumption' } },
    ],
    [
      'text/html on a success',
      { given: ok('getAgent', 200, agent, 'text/html'), want: { rule: 'content-type', pointer: '', origin: 'seed' } },
    ],
    [
      'application/json on an error',
      {
        given: ok('getAgent', 404, { ...problem, status: 404 }),
        want: { rule: 'content-type', pointer: '', origin: 'assumption' },
      },
    ],
    [
      'a body that is not JSON',
      {
        given: { operationId: 'getAgent', status: 200, contentType: 'application/json', body: '<html>' },
        want: { rule: 'body-is-json', pointer: '', origin: 'seed' },
      },
    ],
    [
      'a price as a string',
      {
        given: { ...ok('getAgent', 200, agent), body: withChange(agent, ['tokenomics', 'price'], '0.06') },
        want: { rule: 'body-schema', pointer: '/tokenomics/price', origin: 'seed' },
      },
    ],
    [
      'a negative price',
      {
        given: { ...ok('getAgent', 200, agent), body: withChange(agent, ['tokenomics', 'price'], -1) },
        want: { rule: 'body-schema', pointer: '/tokenomics/price', origin: 'assumption' },
      },
    ],
    [
      'an agent status outside the enum',
      {
        given: { ...ok('getAgent', 200, agent), body: withChange(agent, ['status'], 'archived') },
        want: { rule: 'body-schema', pointer: '/status', origin: 'seed' },
      },
    ],
    [
      'a missing statistics object',
      {
        given: { ...ok('getAgent', 200, agent), body: withChange(agent, ['statistics'], undefined) },
        want: { rule: 'body-schema', pointer: '/statistics', origin: 'seed' },
      },
    ],
    [
      'a missing creator (always present is a decision for it, unlike for statistics)',
      {
        given: { ...ok('getAgent', 200, agent), body: withChange(agent, ['creator'], undefined) },
        want: { rule: 'body-schema', pointer: '/creator', origin: 'assumption' },
      },
    ],
    [
      'a task submission without its cost (the seed says the service returns one)',
      {
        given: { ...ok('executeAgentTask', 200, task), body: withChange(task, ['cost'], undefined) },
        want: { rule: 'body-schema', pointer: '/cost', origin: 'seed' },
      },
    ],
    [
      'a deploy result without holders (the description lists it: seed)',
      {
        given: { ...ok('deployAgent', 201, deployed), body: withChange(deployed, ['holders'], undefined) },
        want: { rule: 'body-schema', pointer: '/holders', origin: 'seed' },
      },
    ],
    [
      'a null description',
      {
        given: { ...ok('getAgent', 200, agent), body: withChange(agent, ['description'], null) },
        want: { rule: 'body-schema', pointer: '/description', origin: 'seed' },
      },
    ],
    [
      'a fractional holder count',
      {
        given: { ...ok('getAgent', 200, agent), body: withChange(agent, ['statistics', 'holders'], 1.5) },
        want: { rule: 'body-schema', pointer: '/statistics/holders', origin: 'assumption' },
      },
    ],
    [
      'a holder count as a string',
      {
        given: { ...ok('getAgent', 200, agent), body: withChange(agent, ['statistics', 'holders'], '3') },
        want: { rule: 'body-schema', pointer: '/statistics/holders', origin: 'seed' },
      },
    ],
    [
      'a revenueShare above 1',
      {
        given: { ...ok('getAgent', 200, agent), body: withChange(agent, ['tokenomics', 'revenueShare'], 1.5) },
        want: { rule: 'body-schema', pointer: '/tokenomics/revenueShare', origin: 'seed' },
      },
    ],
    [
      'a successRate above 1',
      {
        given: { ...ok('getAgent', 200, agent), body: withChange(agent, ['performance', 'successRate'], 95.7) },
        want: { rule: 'body-schema', pointer: '/performance/successRate', origin: 'assumption' },
      },
    ],
    [
      'a deployedAt that is not ISO 8601',
      {
        given: { ...ok('getAgent', 200, agent), body: withChange(agent, ['deployedAt'], '20/11/2026 14:32') },
        want: { rule: 'body-schema', pointer: '/deployedAt', origin: 'seed' },
      },
    ],
    [
      'a deployedAt without a time zone',
      {
        given: {
          ...ok('deployAgent', 201, deployed),
          body: withChange(deployed, ['deployedAt'], '2026-11-20T14:32:05'),
        },
        want: { rule: 'body-schema', pointer: '/deployedAt', origin: 'seed' },
      },
    ],
    [
      'a token address that is not base58',
      {
        given: {
          ...ok('deployAgent', 201, deployed),
          body: withChange(deployed, ['tokenAddress'], '0x52908400098527886E0F7030069857D2E4169EE7'),
        },
        want: { rule: 'body-schema', pointer: '/tokenAddress', origin: 'assumption' },
      },
    ],
    [
      'a task status outside the enum',
      {
        given: { ...ok('executeAgentTask', 200, task), body: withChange(task, ['status'], 'done') },
        want: { rule: 'body-schema', pointer: '/status', origin: 'seed' },
      },
    ],
    [
      'a problem without a title',
      {
        given: { ...ok('getAgent', 404, { ...problem, status: 404, title: undefined }, 'application/problem+json') },
        want: { rule: 'body-schema', pointer: '/title', origin: 'assumption' },
      },
    ],
    [
      'a problem whose status differs from the HTTP status',
      {
        given: ok('getAgent', 404, problem, 'application/problem+json'),
        want: { rule: 'problem-status-matches', pointer: '/status', origin: 'assumption' },
      },
    ],
    [
      'a 401 without WWW-Authenticate',
      {
        given: { ...ok('getAgent', 401, problem, 'application/problem+json'), headers: {} },
        want: { rule: 'required-header', pointer: '/headers/www-authenticate', origin: 'assumption' },
      },
    ],
    [
      'a 401 with a Basic challenge',
      {
        given: {
          ...ok('getAgent', 401, problem, 'application/problem+json'),
          headers: { 'www-authenticate': 'Basic realm="x"' },
        },
        want: { rule: 'required-header', pointer: '/headers/www-authenticate', origin: 'assumption' },
      },
    ],
    [
      'a 429 with Retry-After as a date',
      {
        given: {
          ...ok('getAgent', 429, { ...problem, status: 429 }, 'application/problem+json'),
          headers: new Headers({ 'retry-after': 'soon' }),
        },
        want: { rule: 'required-header', pointer: '/headers/retry-after', origin: 'assumption' },
      },
    ],
    [
      'an optional RateLimit-Remaining that is not a count',
      {
        given: { ...ok('getAgent', 200, agent), headers: { 'ratelimit-limit': '5', 'ratelimit-remaining': '-1' } },
        want: { rule: 'required-header', pointer: '/headers/ratelimit-remaining', origin: 'assumption' },
      },
    ],
  ] as const)('reports %s', (_, { given, want }) => {
    const check = checkResponse(given);
    expect(check.ok).toBe(false);
    expect(check.violations).toContainEqual(expect.objectContaining(want));
    for (const violation of check.violations) {
      expect(violation.message.length).toBeGreaterThan(0);
      expect(violation.specPointer).toMatch(/^\//);
    }
  });

  it('says what was expected and found, and where the rule lives', () => {
    const check = checkResponse({ ...ok('getAgent', 200, agent), body: withChange(agent, ['status'], 'archived') });
    expect(check.violations).toEqual([
      expect.objectContaining({
        expected: 'one of active, paused, deprecated',
        found: '"archived"',
        specPointer: '/components/schemas/AgentStatus/enum',
      }),
    ]);
  });

  it('warns, and does not fail, on undocumented fields, at every depth', () => {
    const body = JSON.parse(withChange(agent, ['rating'], 5)) as Record<string, unknown>;
    (body.tokenomics as Record<string, unknown>).fdv = 1;
    const check = checkResponse({ ...ok('getAgent', 200, body) });
    expect(check.ok).toBe(true);
    expect(check.warnings.map((w) => [w.rule, w.pointer]).sort()).toEqual([
      ['undocumented-field', '/rating'],
      ['undocumented-field', '/tokenomics/fdv'],
    ]);
  });

  it('never answers ok for a documented status with a wrong body', () => {
    expect(
      checkResponse(ok('executeAgentTask', 200, {}))
        .violations.map((v) => v.pointer)
        .sort(),
    ).toEqual(['/cost', '/estimatedCompletion', '/status', '/taskId']);
  });
});

describe('checkResponse on bodies a server shapes against the checker', () => {
  const nested = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  const withCapabilities = (text: string): string =>
    withChange(agent, ['capabilities'], 'CAPABILITIES').replace('"CAPABILITIES"', text);

  it('reports the wrong items of an array longer than a call may take arguments (99,900 numbers)', () => {
    const capabilities = Array.from({ length: 99_900 }, (_, index) => index);
    const check = checkResponse(ok('getAgent', 200, { ...agent, capabilities }));
    const types = check.violations.filter((v) => v.pointer.startsWith('/capabilities/') && v.rule === 'body-schema');
    expect(types).toHaveLength(99_900);
    expect(types.at(-1)?.pointer).toBe('/capabilities/99899');
    expect(check.warnings).toEqual([]);
  });

  it('checks the first 100,000 values of a body of millions of wrong items, and warns that it stopped there', () => {
    const body = withCapabilities(`[${'1,'.repeat(1_000_000)}1]`);
    const check = checkResponse({ operationId: 'getAgent', status: 200, contentType: 'application/json', body });
    expect(check.violations.length).toBeLessThanOrEqual(100_001);
    expect(check.violations.map((v) => v.pointer)).toContain('/capabilities');
    expect(check.warnings).toEqual([
      expect.objectContaining({ rule: 'body-schema', message: expect.stringContaining('only the first 100000') }),
    ]);
  });

  it('checks a body nesting exactly the kit-wide depth bound of 64 like any other', () => {
    const check = checkResponse({
      operationId: 'getAgent',
      status: 200,
      contentType: 'application/json',
      body: withCapabilities(`[${nested(62)}]`),
    });
    expect(check.violations.map((v) => v.pointer)).toEqual(['/capabilities/0']);
  });

  it('makes a body nesting deeper than 64 levels one finding, without walking it (2,000,000 deep)', () => {
    const check = checkResponse({
      operationId: 'getAgent',
      status: 200,
      contentType: 'application/json',
      body: withCapabilities(`[${nested(2_000_000)}]`),
    });
    expect(check.violations).toEqual([
      expect.objectContaining({
        rule: 'body-is-json',
        pointer: '',
        message: expect.stringContaining('deeper than 64'),
      }),
    ]);
  });
});
