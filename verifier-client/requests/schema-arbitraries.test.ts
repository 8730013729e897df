// The generators are built from the schemas: what they call valid the spec accepts, what they call invalid it rejects,
// and the valid generator hits the schema's shape directly (few bodies thrown away by the safety filter).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { validateRequestBody } from '../../spec/index.ts';
import { arbitraryFor, invalidBodies, validBodies } from './schema-arbitraries.ts';
import { requestSchema } from './spec-schemas.ts';

describe.each(['deployAgent', 'executeAgentTask'] as const)('%s bodies', (operationId) => {
  test('valid bodies validate', () => {
    for (const body of fc.sample(validBodies(operationId), { numRuns: 100, seed: 1 }))
      expect(validateRequestBody(operationId, body).ok).toBe(true);
  });

  test('invalid bodies do not', () => {
    for (const body of fc.sample(invalidBodies(operationId), { numRuns: 100, seed: 1 }))
      expect(validateRequestBody(operationId, body).ok).toBe(false);
  });

  test('the raw schema arbitrary is almost always valid already', () => {
    const samples = fc.sample(arbitraryFor(requestSchema(operationId)), { numRuns: 200, seed: 2 });
    const valid = samples.filter((body) => validateRequestBody(operationId, body).ok).length;
    expect(valid / samples.length).toBeGreaterThan(0.9);
  });
});
