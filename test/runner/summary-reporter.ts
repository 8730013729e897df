// Ends `npm test` with one plain `tests: N passed, N failed, N skipped` line, the closing line CI reads in any language;
// errors outside any test are counted apart, so one broken helper throwing in a timer is not thousands of failed tests.
import type { Reporter, TestModule } from 'vitest/node';

/**
 * A vitest reporter that adds the plain summary line after the default reporter's output.
 * @example export default defineConfig({ test: { reporters: ['default', new SummaryLineReporter()] } });
 */
export class SummaryLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      // A module that failed to load has no test cases; count it, or a broken import would pass as "0 failed".
      if (testModule.state() === 'failed' && [...testModule.children.allTests()].length === 0) failed += 1;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
    }
    process.stdout.write(`\n${summaryLine(passed, failed, skipped, unhandledErrors.length)}\n`);
  }
}

/**
 * The closing line: test counts, then errors outside tests when there were any (the run fails on them all the same).
 * @example summaryLine(3, 0, 1, 2) // 'tests: 3 passed, 0 failed, 1 skipped; 2 errors outside tests'
 */
export function summaryLine(passed: number, failed: number, skipped: number, unhandledErrors: number): string {
  const errors =
    unhandledErrors === 0 ? '' : `; ${unhandledErrors} error${unhandledErrors === 1 ? '' : 's'} outside tests`;
  return `tests: ${passed} passed, ${failed} failed, ${skipped} skipped${errors}`;
}
