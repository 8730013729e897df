// Recorded paths are matched against the head spec's templates without a regular expression: a pull request controls
// the head, and adjacent parameters (`{p1}{p2}…{p12}`) make a regex backtrack for minutes on a 60-character id.
import { describe, expect, test } from 'vitest';
import type { JsonObject } from './index.ts';
import { matchOperation, matchTemplate } from './path-template.ts';

describe('matchTemplate', () => {
  test.each([
    ['/v1/agents/{agentId}', '/v1/agents/agt_1', ['agt_1']],
    ['/v1/agents/{agentId}/execute', '/v1/agents/agt_1/execute', ['agt_1']],
    ['/v1/agents/{agentId}', '/v1/agents/', undefined],
    ['/v1/agents/{agentId}', '/v1/agents/a/b', undefined],
    ['/files/{name}.json', '/files/a.json.json', ['a.json']],
    ['/files/{a}-{b}', '/files/x-y-z', ['x', 'y-z']],
    ['/files/{a}{b}', '/files/xyz', ['x', 'yz']],
    ['/files/v{n}', '/files/w3', undefined],
  ])('%s against %s', (template, path, values) => {
    expect(matchTemplate(template, path)).toEqual(values);
  });

  test('twelve adjacent parameters against a long id that does not fit answer at once', () => {
    const template = `/v1/agents/${Array.from({ length: 12 }, (_, i) => `{p${i + 1}}`).join('')}/x`;
    const document = {
      openapi: '3.1.0',
      paths: {
        [template]: {
          get: {
            operationId: 'adjacent',
            parameters: Array.from({ length: 12 }, (_, i) => ({ name: `p${i + 1}`, in: 'path', required: true })),
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    } as unknown as JsonObject;
    expect(matchOperation(document, 'GET', `/v1/agents/${'a'.repeat(60)}/y`, false)).toBeUndefined();
    expect(matchOperation(document, 'GET', `/v1/agents/${'a'.repeat(60)}/x`, false)?.parameters.p12).toBe(
      'a'.repeat(49),
    );
  });
});

describe('empty values', () => {
  test.each([
    ['/v1/agents/{agentId}/execute', '/v1/agents//execute', { allowEmpty: true }, ['']],
    ['/v1/agents/{agentId}/execute', '/v1/agents//execute', {}, undefined],
    ['/files/{a}{b}', '/files/xyz', { allowEmpty: true }, ['', 'xyz']],
    ['/files/{a}-{b}', '/files/-', { allowEmpty: true }, ['', '']],
    ['/files/{a}-{b}', '/files/x-y-z', { allowEmpty: true }, ['x', 'y-z']],
  ])('%s against %s with %o', (template, path, options, values) => {
    expect(matchTemplate(template, path, options)).toEqual(values);
  });
});

describe('matchOperation', () => {
  const document = {
    openapi: '3.1.0',
    paths: {
      '/v1/things/{thingId}': { get: { operationId: 'getThing', responses: { '200': { description: 'ok' } } } },
      '/v1/things/latest': { get: { operationId: 'getLatest', responses: { '200': { description: 'ok' } } } },
    },
  } as unknown as JsonObject;

  test('a concrete path wins over a templated one, whatever their order in the document', () => {
    expect(matchOperation(document, 'GET', '/v1/things/latest', false)?.operationId).toBe('getLatest');
    expect(matchOperation(document, 'get', '/v1/things/t1', false)).toEqual({
      operationId: 'getThing',
      parameters: { thingId: 't1' },
    });
  });

  test('a template given as evidence matches by shape, whatever its parameter names', () => {
    expect(matchOperation(document, 'GET', '/v1/things/{id}', true)?.operationId).toBe('getThing');
    expect(matchOperation(document, 'POST', '/v1/things/t1', false)).toBeUndefined();
  });
});
