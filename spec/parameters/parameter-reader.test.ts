// The parameter reader over a small fixture document with a parameter in every location and style it reads.
import { describe, expect, test } from 'vitest';
import type { JsonObject } from '../json-pointer.ts';
import { operationParameters } from './parameters.ts';
import { createParameterReader, type ParameterInput } from './parameter-reader.ts';
import { getSchemaValidator, rootSchemaPointer } from '../validators/schema-compiler.ts';

const document: JsonObject = {
  openapi: '3.1.0',
  info: { title: 'fixture', version: '1' },
  paths: {
    '/v1/agents': {
      parameters: [{ $ref: '#/components/parameters/RequestId' }],
      get: {
        operationId: 'listAgents',
        parameters: [
          { name: 'category', in: 'query', schema: { $ref: '#/components/schemas/Category' } },
          { name: 'limit', in: 'query', schema: { $ref: '#/components/schemas/Limit' } },
          { name: 'tag', in: 'query', schema: { type: 'array', items: { type: 'string', maxLength: 3 }, maxItems: 3 } },
          { name: 'ids', in: 'query', explode: false, schema: { type: 'array', items: { type: 'integer' } } },
          {
            name: 'pipes',
            in: 'query',
            style: 'pipeDelimited',
            explode: false,
            schema: { type: 'array', items: { type: 'string' } },
          },
          {
            name: 'filter',
            in: 'query',
            style: 'deepObject',
            schema: { type: 'object', properties: { min: { type: 'integer' } } },
          },
          { name: 'active', in: 'query', schema: { type: 'boolean' } },
          { name: 'where', in: 'query', content: { 'application/json': { schema: { type: 'object' } } } },
          { name: 'session', in: 'cookie', schema: { type: 'string', minLength: 2 } },
          // Overrides the path item's, and OpenAPI ignores an Authorization header parameter.
          { name: 'X-Request-Id', in: 'header', required: true, schema: { type: 'string', maxLength: 8 } },
          { name: 'Authorization', in: 'header', required: true, schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/v1/owners/{ownerId}/agents/{agentId}': {
      get: {
        operationId: 'getOwnedAgent',
        parameters: [
          { name: 'ownerId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
          { name: 'agentId', in: 'path', required: true, schema: { type: 'string', maxLength: 5 } },
          { name: 'pick', in: 'query', schema: { type: 'object', properties: { a: { type: 'integer' } } } },
          { name: 'v', in: 'header', schema: { type: 'array', items: { type: 'integer' } } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  components: {
    parameters: { RequestId: { name: 'x-request-id', in: 'header', schema: { type: 'string' } } },
    schemas: {
      Category: { type: 'string', enum: ['defi', 'nft'] },
      Limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    },
  },
};

const validators = {
  validatorOf: (pointer: string) => getSchemaValidator(pointer, 'request', document),
  rootOf: (pointer: string) => rootSchemaPointer(pointer, document),
};
const list = createParameterReader(operationParameters('/paths/~1v1~1agents/get', document), validators);
const owned = createParameterReader(
  operationParameters('/paths/~1v1~1owners~1{ownerId}~1agents~1{agentId}/get', document),
  validators,
);
const header = { 'x-request-id': 'r1' };

describe('operationParameters', () => {
  test('merges the path item and the operation by name and location, following $refs, with OpenAPI defaults', () => {
    const specs = operationParameters('/paths/~1v1~1agents/get', document);
    expect(specs.map((spec) => spec.errorPointer)).toContain('/header/X-Request-Id');
    expect(specs.filter((spec) => spec.in === 'header').map((spec) => spec.name)).toEqual(['X-Request-Id']);
    const limit = specs.find((spec) => spec.name === 'limit');
    expect(limit).toMatchObject({
      style: 'form',
      explode: true,
      default: 20,
      shape: { kind: 'scalar', type: 'integer' },
    });
    expect(specs.find((spec) => spec.name === 'ids')).toMatchObject({ explode: false, shape: { kind: 'array' } });
  });
});

describe('reading a list operation', () => {
  const cases: Array<[string, ParameterInput, unknown]> = [
    [
      'the default filled in, nothing else sent',
      { headers: header },
      { query: { limit: 20 }, header: { 'X-Request-Id': 'r1' } },
    ],
    [
      'numbers and booleans coerced from text',
      { query: 'limit=5&active=true', headers: header },
      { query: { limit: 5, active: true } },
    ],
    ['an enum value', { query: 'category=nft', headers: header }, { query: { category: 'nft', limit: 20 } }],
    [
      'form explode: a repeated name is a list',
      { query: 'tag=a&tag=b', headers: header },
      { query: { tag: ['a', 'b'] } },
    ],
    [
      'form without explode: commas, an encoded one kept',
      { query: 'ids=1,2', headers: header },
      { query: { ids: [1, 2] } },
    ],
    ['pipeDelimited', { query: 'pipes=a|b%7Cc', headers: header }, { query: { pipes: ['a', 'b', 'c'] } }],
    ['deepObject', { query: 'filter[min]=3', headers: header }, { query: { filter: { min: 3 } } }],
    [
      'content: application/json',
      { query: `where=${encodeURIComponent('{"a":1}')}`, headers: header },
      { query: { where: { a: 1 } } },
    ],
    ['a cookie', { headers: { ...header, cookie: 'other=1; session=abc' } }, { cookie: { session: 'abc' } }],
    ['+ is a space in a query', { query: 'tag=a+b', headers: header }, { query: { tag: ['a b'] } }],
  ];
  test.each(cases)('%s', (_, input, expected) => {
    const reading = list(input);
    expect(reading.ok).toBe(true);
    if (reading.ok) expect(reading.value).toMatchObject(expected as object);
  });

  const refusals: Array<[string, ParameterInput, string, string, string]> = [
    [
      'out of range',
      { query: 'limit=500', headers: header },
      '/query/limit',
      'must be <= 100',
      '/components/schemas/Limit/maximum',
    ],
    [
      'below range',
      { query: 'limit=0', headers: header },
      '/query/limit',
      'must be >= 1',
      '/components/schemas/Limit/minimum',
    ],
    [
      'not an integer',
      { query: 'limit=ten', headers: header },
      '/query/limit',
      'must be an integer',
      '/components/schemas/Limit/type',
    ],
    [
      'a fraction',
      { query: 'limit=1.5', headers: header },
      '/query/limit',
      'must be an integer',
      '/components/schemas/Limit/type',
    ],
    [
      'an enum near-miss',
      { query: 'category=NFT', headers: header },
      '/query/category',
      'must be one of defi, nft',
      '/components/schemas/Category/enum',
    ],
    [
      'a repeated single-valued parameter',
      { query: 'limit=5&limit=6', headers: header },
      '/query/limit',
      'is given 2 times; it takes one value',
      '/paths/~1v1~1agents/get/parameters/1/schema',
    ],
    [
      'a repeated unexploded list',
      { query: 'ids=1&ids=2', headers: header },
      '/query/ids',
      'is given 2 times; it takes one value',
      '/paths/~1v1~1agents/get/parameters/3/schema',
    ],
    [
      'an item of a list',
      { query: 'tag=a&tag=abcd', headers: header },
      '/query/tag/1',
      'must NOT have more than 3 characters',
      '/paths/~1v1~1agents/get/parameters/2/schema/items/maxLength',
    ],
    [
      'a missing required header',
      { headers: {} },
      '/header/X-Request-Id',
      'is required',
      '/paths/~1v1~1agents/get/parameters/9/required',
    ],
    [
      'a header too long',
      { headers: { 'x-request-id': '123456789' } },
      '/header/X-Request-Id',
      'must NOT have more than 8 characters',
      '/paths/~1v1~1agents/get/parameters/9/schema/maxLength',
    ],
    [
      'bad percent-encoding',
      { query: 'category=%E0%A4%A', headers: header },
      '/query/category',
      'is not valid percent-encoding',
      '/paths/~1v1~1agents/get/parameters/0/schema',
    ],
    [
      'JSON that is not',
      { query: 'where={', headers: header },
      '/query/where',
      'is not valid JSON',
      '/paths/~1v1~1agents/get/parameters/7/content/application~1json/schema',
    ],
    [
      'a short cookie',
      { headers: { ...header, cookie: 'session=a' } },
      '/cookie/session',
      'must NOT have fewer than 2 characters',
      '/paths/~1v1~1agents/get/parameters/8/schema/minLength',
    ],
  ];
  test.each(refusals)('refuses %s', (_, input, path, message, specPointer) => {
    const reading = list(input);
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.errors).toEqual([expect.objectContaining({ path, message, specPointer })]);
  });

  test('every broken parameter is reported, not only the first', () => {
    const reading = list({ query: 'limit=0&category=x' });
    expect(reading.ok ? [] : reading.errors.map((error) => error.path)).toEqual([
      '/query/category',
      '/query/limit',
      '/header/X-Request-Id',
    ]);
  });
});

describe('reading a path with two parameters', () => {
  test('each decoded and coerced; a form-exploded object from its own names; a header list', () => {
    const reading = owned({ path: { ownerId: '7', agentId: 'a%20b' }, query: 'a=2&b=x', headers: { v: '1, 2' } });
    expect(reading).toEqual({
      ok: true,
      value: { path: { ownerId: 7, agentId: 'a b' }, query: { pick: { a: 2 } }, header: { v: [1, 2] }, cookie: {} },
    });
  });
  test('already-decoded values are not decoded again', () => {
    const reading = owned({ path: { ownerId: '7', agentId: '100%' }, pathDecoded: true });
    expect(reading.ok && reading.value.path.agentId).toBe('100%');
  });
  test.each([
    [{ ownerId: '0', agentId: 'a' }, '/path/ownerId', 'must be >= 1'],
    [{ ownerId: 'x', agentId: 'a' }, '/path/ownerId', 'must be an integer'],
    [{ ownerId: '1', agentId: 'abcdef' }, '/path/agentId', 'must NOT have more than 5 characters'],
    [{ ownerId: '1' }, '/path/agentId', 'is required'],
  ])('refuses %j at %s', (path, pointer, message) => {
    const reading = owned({ path });
    expect(reading.ok ? [] : reading.errors).toEqual([expect.objectContaining({ path: pointer, message })]);
  });
});

describe('parameters a file or a client shapes against the reader', () => {
  // pact verify reads a pact's query and headers from a 16 MiB file: a list parameter of 400,000 wrong items is one
  // refusal naming the bound, never a stack overflow from the errors spread into one call, nor 400,000 errors.
  test.each([
    ['a comma list in the query', { query: `ids=${'x,'.repeat(400_000)}x`, headers: header }, list, '/query/ids'],
    ['a form-exploded list', { query: 'tag=abcd&'.repeat(400_000), headers: header }, list, '/query/tag'],
    [
      'a header list',
      { path: { ownerId: '1', agentId: 'a' }, headers: { v: 'x,'.repeat(400_000) } },
      owned,
      '/header/v',
    ],
  ])('%s of 400,000 wrong items is one error naming the bound', (_, input, reader, path) => {
    const reading = reader(input as ParameterInput);
    expect(reading.ok).toBe(false);
    if (reading.ok) return;
    expect(reading.errors).toEqual([
      expect.objectContaining({ path, message: expect.stringMatching(/100000 values/) }),
    ]);
  });
});
