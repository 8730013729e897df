// The named invalid requests are derived from the schemas: each breaks the spec (its own validator says so), and
// together they cover every required field, enum, bound and type the issue names.
import { describe, expect, test } from 'vitest';
import { validateRequestBody } from '../../spec/index.ts';
import { invalidRequests } from './invalid-requests.ts';
import { propertiesOf, requestExamples, requestSchema } from './spec-schemas.ts';

describe.each(['deployAgent', 'executeAgentTask'] as const)('invalidRequests(%s)', (operationId) => {
  test('the example it starts from is valid', () => {
    expect(validateRequestBody(operationId, requestExamples(operationId)[0]).ok).toBe(true);
  });

  test.each(
    invalidRequests(operationId).filter((c) => c.contentType === 'application/json' && c.id !== 'malformed-json'),
  )('$id is rejected by the spec itself', (invalid) => {
    expect(validateRequestBody(operationId, JSON.parse(invalid.body)).ok).toBe(false);
  });

  test('malformed JSON is not JSON', () => {
    const malformed = invalidRequests(operationId).find((c) => c.id === 'malformed-json');
    expect(() => JSON.parse(malformed?.body ?? '')).toThrow();
  });
});

test('deploy covers every case the issue names', () => {
  const ids = invalidRequests('deployAgent').map((c) => c.id);
  for (const id of [
    'name-missing',
    'category-missing',
    'model-missing',
    'initialSupply-missing',
    'category-enum',
    'model-enum',
    'revenueShare-minimum',
    'revenueShare-maximum',
    'initialSupply-type-string',
    'initialSupply-type-null',
    'malformed-json',
    'content-type-text',
  ]) {
    expect(ids).toContain(id);
  }
  expect(invalidRequests('executeAgentTask').map((c) => c.id)).toEqual(
    expect.arrayContaining([
      'task-missing',
      'priority-enum',
      ...['array', 'string', 'number', 'null'].map((t) => `parameters-type-${t}`),
    ]),
  );
});

test.each(['deployAgent', 'executeAgentTask'] as const)(
  '%s: every field is sent as each other JSON type',
  (operationId) => {
    const ids = new Set(invalidRequests(operationId).map((c) => c.id));
    for (const property of propertiesOf(requestSchema(operationId))) {
      const own = property.at.schema.type === 'integer' ? 'number' : property.at.schema.type;
      for (const type of ['object', 'array', 'string', 'number', 'boolean', 'null'].filter((t) => t !== own))
        expect(ids, `${property.name} as ${type}`).toContain(`${property.name}-type-${type}`);
    }
  },
);
