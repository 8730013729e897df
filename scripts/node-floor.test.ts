import { expect, it } from 'vitest';
import { nodeBelowFloor } from './node-floor.ts';

it.each([
  ['20.20.2', '>=22.15.0', '22.15.0'],
  ['v22.14.9', '>=22.15.0', '22.15.0'],
  ['22.15.0', '>=22.15.0', undefined],
  ['22.16.0', '>=22.15.0', undefined],
  ['24.0.0', '>=22.15.0', undefined],
  ['22.9.1', '>=22.15.0', '22.15.0'],
  ['20.0.0', '^22', undefined],
  ['20.0.0', undefined, undefined],
])('Node %s against engines %s: below %s', (version, engines, below) => {
  expect(nodeBelowFloor(version, engines)).toBe(below);
});
