// Near misses are derived from each field's schema: every kind the suite sends exists for the fields whose schema has
// that rule, each breaks the rule it names (the spec's validator, keyword by keyword, says so) and nothing outside its
// field, and a bound's step is the smallest the schema allows.
import { describe, expect, test } from 'vitest';
import { brokenKeywords, type JsonObject } from '../../spec/index.ts';
import { invalidRequests } from './invalid-requests.ts';
import { nearMisses } from './near-misses.ts';
import { propertiesOf, requestExamples, requestSchema, resolveSchema } from './spec-schemas.ts';

describe.each(['deployAgent', 'executeAgentTask'] as const)('near misses of %s', (operationId) => {
  const ids = new Set(invalidRequests(operationId).map((c) => c.id));
  const example = requestExamples(operationId)[0] ?? {};

  test.each(propertiesOf(requestSchema(operationId)))(
    '$name: one named case per rule of its schema',
    ({ name, at }) => {
      const { schema } = at;
      const expected: string[] = [];
      if (Array.isArray(schema.enum)) expected.push('enum-case', 'enum-space');
      if (typeof schema.minimum === 'number') expected.push('minimum-step');
      if (typeof schema.maximum === 'number') expected.push('maximum-step');
      if (schema.type === 'number' || schema.type === 'integer') expected.push('type-numeric-string');
      expected.push(schema.type === 'array' ? 'type-bare-item' : 'type-in-array');
      for (const suffix of expected) expect(ids, `${name}-${suffix}`).toContain(`${name}-${suffix}`);
    },
  );

  test.each(
    invalidRequests(operationId).filter((c) =>
      /-(enum-case|enum-space|step|numeric-string|in-array|bare-item)$/.test(c.id),
    ),
  )('$id breaks its keyword and nothing outside its field', (invalid) => {
    const broken = brokenKeywords(operationId, JSON.parse(invalid.body) as JsonObject);
    expect(broken.map((keyword) => keyword.keywordPointer)).toContain(invalid.keywordPointer);
    const field = invalid.keywordPointer.replace(/\/[^/]+$/, '/');
    for (const keyword of broken) expect(keyword.keywordPointer.startsWith(field)).toBe(true);
    expect(Object.keys(JSON.parse(invalid.body) as JsonObject).sort()).toEqual(
      Object.keys({ ...example, [invalid.id.split('-')[0] ?? '']: null }).sort(),
    );
  });
});

test('a bound is crossed by its smallest step and a far value, an enum by its case and a space, a type by the right value', () => {
  const revenueShare = resolveSchema('/components/schemas/DeployRequest/properties/revenueShare');
  const values = Object.fromEntries(nearMisses('revenueShare', revenueShare, 0.5).map((m) => [m.suffix, m.value]));
  expect(values).toEqual({
    'minimum-step': -1e-9,
    'maximum-step': 1 + 1e-9,
    'type-numeric-string': '0.5',
    'type-in-array': [0.5],
  });
  const far = invalidRequests('deployAgent').find((c) => c.id === 'initialSupply-maximum');
  expect(JSON.parse(far?.body ?? '{}').initialSupply).toBe(2e15);
  const priority = nearMisses('priority', resolveSchema('/components/schemas/TaskPriority')).map((m) => m.value);
  expect(priority).toEqual(expect.arrayContaining(['Low', 'low ', ['low']]));
  // multipleOf decides the step where the schema has one.
  const cents = { schema: { type: 'number', maximum: 10, multipleOf: 0.01 }, pointer: '/x' };
  expect(nearMisses('amount', cents).find((m) => m.suffix === 'maximum-step')?.value).toBe(10.01);
});

test('a body is labelled by the keyword it breaks: an assumed bound alone is an assumption, any seed keyword wins', () => {
  const body = { name: ' ', category: 'trading', model: 'gpt-4', initialSupply: 1000000000106367.1 };
  expect(brokenKeywords('deployAgent', body)).toEqual([
    { keywordPointer: '/components/schemas/DeployRequest/properties/initialSupply/maximum', origin: 'assumption' },
  ]);
  expect(
    brokenKeywords('deployAgent', { ...body, category: 'DeFi' })
      .map((k) => k.origin)
      .sort(),
  ).toEqual(['assumption', 'seed']);
  expect(brokenKeywords('deployAgent', { ...body, initialSupply: 5, revenueShare: 1.0001 })).toEqual([
    { keywordPointer: '/components/schemas/DeployRequest/properties/revenueShare/maximum', origin: 'seed' },
  ]);
  expect(brokenKeywords('deployAgent', { ...body, initialSupply: 5 })).toEqual([]);
});
