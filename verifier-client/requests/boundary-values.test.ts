// The valid requests at the documented edges are derived from the schemas: each is valid by the spec's own validator,
// each bound is reached exactly, every enum value is used, and the base example has every field.
import { describe, expect, test } from 'vitest';
import { validateRequestBody } from '../../spec/index.ts';
import { boundaryBodies } from './boundary-values.ts';
import { propertiesOf, requestExamples, requestSchema } from './spec-schemas.ts';

describe.each(['deployAgent', 'executeAgentTask'] as const)('boundaryBodies(%s)', (operationId) => {
  const bodies = boundaryBodies(operationId);

  test.each(bodies.map((b) => [b.label, b] as const))('%s is valid by the spec', (_label, { body }) => {
    const result = validateRequestBody(operationId, structuredClone(body));
    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  test('every enum value of every field is sent at least once', () => {
    for (const property of propertiesOf(requestSchema(operationId))) {
      const values = property.at.schema.enum;
      if (!Array.isArray(values)) continue;
      expect(new Set(bodies.map((b) => b.body[property.name])), property.name).toEqual(new Set(values));
    }
  });

  test('the example they start from has every field (every optional field is sent)', () => {
    const names = propertiesOf(requestSchema(operationId)).map((p) => p.name);
    expect(Object.keys(requestExamples(operationId)[0] ?? {}).sort()).toEqual([...names].sort());
  });
});

test('deploy reaches each documented bound exactly', () => {
  const values = (field: string) => boundaryBodies('deployAgent').map((b) => b.body[field]);
  expect(values('revenueShare')).toEqual(expect.arrayContaining([0, 1]));
  expect(values('pricePerToken')).toEqual(expect.arrayContaining([0, 1_000_000_000]));
  expect(values('initialSupply')).toEqual(expect.arrayContaining([1e15]));
  expect(values('name').map((n) => String(n).length)).toEqual(expect.arrayContaining([1, 100]));
  expect(values('capabilities').map((c) => (Array.isArray(c) ? c.length : -1))).toEqual(
    expect.arrayContaining([0, 32]),
  );
  const revenueOne = boundaryBodies('deployAgent').find(
    (b) => b.body.revenueShare === 1 && b.label.startsWith('revenueShare'),
  );
  expect(revenueOne?.validBy).toBe('seed');
  expect(boundaryBodies('deployAgent').find((b) => b.label.startsWith('name of 100'))?.validBy).toBe('assumption');
});
