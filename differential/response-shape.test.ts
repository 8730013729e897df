// Shapes and value rules: which differences between two answers are differences of shape, and which values the spec
// pins so that both servers must agree on them.
import { describe, expect, test } from 'vitest';
import { compareShapes, fieldSchema, shapeOf, valueRules } from './response-shape.ts';

describe('compareShapes', () => {
  test.each([
    ['same fields, other values', { a: 1, b: 'x' }, { a: 2, b: 'y' }, []],
    ['a field only on one side', { a: 1, b: 'x' }, { a: 1 }, [{ pointer: '/b', left: ['string'], right: [] }]],
    ['a field of another type', { a: 1 }, { a: '1' }, [{ pointer: '/a', left: ['number'], right: ['string'] }]],
    ['arrays of different lengths, same item type', { a: [1, 2] }, { a: [3] }, []],
    ['an empty array against a full one', { a: [] }, { a: ['x'] }, []],
    ['items of another type', { a: ['x'] }, { a: [1] }, [{ pointer: '/a/*', left: ['string'], right: ['number'] }]],
    [
      'a missing object is one difference, not one per field inside it',
      { t: { p: 1, q: 2 } },
      {},
      [{ pointer: '/t', left: ['object'], right: [] }],
    ],
    ['null is its own type', { a: null }, { a: {} }, [{ pointer: '/a', left: ['null'], right: ['object'] }]],
  ])('%s', (_title, left, right, expected) => {
    expect(compareShapes(shapeOf(left), shapeOf(right))).toEqual(expected);
  });
});

describe('valueRules, read from the response schemas', () => {
  const rules = (operationId: 'deployAgent' | 'getAgent' | 'executeAgentTask', status: number) =>
    Object.fromEntries(valueRules(operationId, status).map((r) => [r.pointer, r.compared ? 'compared' : r.reason]));

  test('a deploy answer: the enum and the echoed name are compared; ids, times, addresses and figures are not', () => {
    expect(rules('deployAgent', 201)).toEqual({
      '/agentId': 'an identifier the server assigns',
      '/name': 'compared',
      '/tokenAddress': 'a generated value (pattern)',
      '/marketCap': 'a figure the server computes',
      '/holders': 'a figure the server computes',
      '/status': 'compared',
      '/deployedAt': 'format date-time: a time each server takes itself',
    });
  });

  test('a task submission: only its status is pinned', () => {
    expect(rules('executeAgentTask', 200)).toEqual({
      '/taskId': 'an identifier the server assigns',
      '/status': 'compared',
      '/estimatedCompletion': 'a figure the server computes',
      '/cost': 'a figure the server computes',
    });
  });

  test('fieldSchema finds the schema of a body field through $refs and arrays', () => {
    expect(fieldSchema('getAgent', 200, '/tokenomics/price')?.at.pointer).toBe(
      '/components/schemas/Tokenomics/properties/price',
    );
    expect(fieldSchema('getAgent', 200, '/capabilities/*')?.at.pointer).toBe(
      '/components/schemas/Agent/properties/capabilities/items',
    );
    expect(fieldSchema('getAgent', 200, '/nope')).toBeUndefined();
  });
});
