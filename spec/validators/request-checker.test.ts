// The request checker, one row per rule: what it reports for a request that breaks it, with pointer and origin, and
// nothing for the spec's own examples.
import { describe, expect, it } from 'vitest';
import { checkRequest, type RequestToCheck } from './request-checker.ts';
import { getAtPointer } from '../json-pointer.ts';
import { openapiDocument } from '../openapi-document.generated.ts';

const example = JSON.stringify(getAtPointer(openapiDocument, '/components/examples/DeployRequestTrading/value'));
const deploy = (body: string | undefined, contentType = 'application/json'): RequestToCheck => ({
  operationId: 'deployAgent',
  pathParameters: {},
  contentType,
  body,
});

describe('checkRequest', () => {
  it('finds nothing in the spec’s own deploy example, or in a task for a valid agent id', () => {
    expect(checkRequest(deploy(example))).toEqual([]);
    expect(
      checkRequest({
        operationId: 'executeAgentTask',
        pathParameters: { agentId: 'agt_WCC01FaiMscDbRzp' },
        contentType: 'application/json',
        body: '{"task":"t"}',
      }),
    ).toEqual([]);
  });

  it.each([
    ['no body', deploy(undefined), 'request-body-required', '', 'seed'],
    ['text/plain', deploy(example, 'text/plain'), 'request-content-type', '', 'seed'],
    ['not JSON', deploy('{"name":'), 'request-body-is-json', '', 'seed'],
    [
      'revenueShare above 1',
      deploy(JSON.stringify({ ...JSON.parse(example), revenueShare: 2 })),
      'request-body-schema',
      '/revenueShare',
      'seed',
    ],
    [
      'initialSupply above the assumed bound',
      deploy(JSON.stringify({ ...JSON.parse(example), initialSupply: 1e16 })),
      'request-body-schema',
      '/initialSupply',
      'assumption',
    ],
    [
      'an agent id too long',
      {
        operationId: 'getAgent',
        pathParameters: { agentId: 'x'.repeat(300) },
        contentType: undefined,
        body: undefined,
      },
      'path-parameter',
      '/path/agentId',
      // The bound lives at /components/schemas/AgentId, behind the parameter's $ref, where the spec marks it assumed.
      'assumption',
    ],
  ] as const)('%s: %s at %s', (_name, request, rule, pointer, origin) => {
    const [first] = checkRequest(request as RequestToCheck);
    expect(first?.rule).toBe(rule);
    expect(first?.pointer).toBe(pointer);
    if (origin !== undefined) expect(first?.origin).toBe(origin);
    expect(first?.specPointer).toMatch(/^\//);
  });
});

describe('checkRequest on parameters beyond the path (a version of the document with a query and a header)', () => {
  const document = structuredClone(openapiDocument);
  const getAgent = getAtPointer(document, '/paths/~1v1~1agents~1{agentId}/get') as { parameters: unknown[] };
  getAgent.parameters.push(
    {
      name: 'view',
      in: 'query',
      'x-assumption': 'A fixture parameter.',
      schema: { type: 'string', enum: ['full', 'short'] },
    },
    { name: 'X-Trace', in: 'header', required: true, schema: { type: 'string', maxLength: 4 } },
  );
  const request = (query: string | undefined, headers?: Record<string, string>): RequestToCheck => ({
    operationId: 'getAgent',
    pathParameters: { agentId: 'agt_1' },
    query,
    headers,
    contentType: undefined,
    body: undefined,
  });

  it('reports a query value outside its enum and a header past its bound, each at its pointer with its origin', () => {
    const found = checkRequest(request('view=fulll', { 'x-trace': 'abcdef' }), document);
    expect(found.map(({ rule, pointer, origin }) => ({ rule, pointer, origin }))).toEqual([
      { rule: 'query-parameter', pointer: '/query/view', origin: 'assumption' },
      { rule: 'header-parameter', pointer: '/header/X-Trace', origin: 'seed' },
    ]);
  });

  it('reports a repeated query parameter and a missing required header; says nothing of what it was not given', () => {
    expect(checkRequest(request('view=full&view=short', {}), document).map((found) => found.pointer)).toEqual([
      '/query/view',
      '/header/X-Trace',
    ]);
    expect(checkRequest(request(undefined), document)).toEqual([]);
    expect(checkRequest(request('view=short', { 'x-trace': 'ab' }), document)).toEqual([]);
  });
});

describe('request bodies a client or a pact shapes against the checker', () => {
  const withCapabilities = (items: string) => example.replace(/"capabilities":\[[^\]]*\]/, `"capabilities":[${items}]`);

  it('makes a body of 400,000 wrong items findings (the first 100,000 values), not a stack overflow', () => {
    const body = withCapabilities(`${'1,'.repeat(399_999)}1`);
    expect(body).not.toBe(example);
    const violations = checkRequest(deploy(body));
    expect(violations.length).toBeGreaterThan(1_000);
    expect(violations.length).toBeLessThanOrEqual(100_001);
    expect(violations.map((violation) => violation.rule)).toContain('request-body-schema');
  });

  it('makes a body nesting deeper than 64 levels one finding, without walking it (2,000,000 deep)', () => {
    const violations = checkRequest(deploy(`${'['.repeat(2_000_000)}${']'.repeat(2_000_000)}`));
    expect(violations).toEqual([expect.objectContaining({ rule: 'request-body-is-json', pointer: '' })]);
  });
});
