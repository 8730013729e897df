import { describe, expect, it } from 'vitest';
import { summaryLine } from './summary-reporter.ts';

describe('the closing summary line', () => {
  it.each([
    ['a clean run', [5, 0, 1, 0], 'tests: 5 passed, 0 failed, 1 skipped'],
    ['failed tests', [5, 2, 0, 0], 'tests: 5 passed, 2 failed, 0 skipped'],
    // A helper throwing in a timer thousands of times is one broken helper, not thousands of failed tests.
    ['errors outside tests, apart', [5, 0, 0, 2718], 'tests: 5 passed, 0 failed, 0 skipped; 2718 errors outside tests'],
    ['one error outside tests', [1, 0, 0, 1], 'tests: 1 passed, 0 failed, 0 skipped; 1 error outside tests'],
  ] as const)('%s', (_name, [passed, failed, skipped, errors], want) => {
    expect(summaryLine(passed, failed, skipped, errors)).toBe(want);
  });
});
