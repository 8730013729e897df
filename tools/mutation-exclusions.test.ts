import { describe, expect, test } from 'vitest';
import { mutationExclusions, outOfScope } from './mutation-exclusions.ts';

describe('the mutation exclusions list', () => {
  test('lists no file that stryker.config.mjs leaves out of mutate: its comments exclude nothing', () => {
    const skipped = outOfScope();
    expect([...skipped].sort()).toEqual([
      'mocks/core/request/host-check.ts',
      'mocks/state/agent-seed.ts',
      'mocks/state/task-seed.ts',
    ]);
    expect(mutationExclusions().filter(({ file }) => skipped.has(file))).toEqual([]);
  });
});
