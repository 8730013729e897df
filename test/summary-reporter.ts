// Ends `npm test` with one plain `tests: N passed, N failed, N skipped` line, the closing line CI reads in any language.
import type { Reporter, TestModule } from 'vitest/node';

/**
 * A vitest reporter that adds the plain summary line after the default reporter's output.
 * @example export default defineConfig({ test: { reporters: ['default', new SummaryLineReporter()] } });
 */
export class SummaryLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
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
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
