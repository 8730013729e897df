import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './json-depth.ts';

describe('nestsDeeperThan', () => {
  const cases: [string, { given: [string, number]; want: boolean }][] = [
    ['a flat object', { given: ['{"a":1}', 1], want: false }],
    ['exactly at the limit', { given: ['[[[]]]', 3], want: false }],
    ['one over the limit', { given: ['[[[[]]]]', 3], want: true }],
    ['brackets inside strings do not count', { given: ['{"a":"[[[[[[[[[[[[[[[[[["}', 2], want: false }],
    ['escaped quotes do not end a string', { given: ['{"a":"\\"[[[[[[[[[[[[[["}', 2], want: false }],
    ['siblings do not add up', { given: ['[[],[],[],[],[],[],[],[],[],[]]', 2], want: false }],
    ['mixed objects and arrays', { given: ['{"a":[{"b":[{"c":1}]}]}', 4], want: true }],
    [
      'fewer brackets in all than the limit',
      { given: ['{"name":"a long enough body","tags":["x","y"]}', 2], want: false },
    ],
    [
      'one bracket more than the limit, nested',
      { given: ['{"name":"a long enough body","tags":[[["x"]]]}', 3], want: true },
    ],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(nestsDeeperThan(...given)).toBe(want);
  });
});
