// The project's own tests: everything beside the code, plus test/. The contract suite (contract-tests/) has its own
// runner, `npm run contract`, because it needs a live server; test/ drives it from outside against known targets.
import { defineConfig } from 'vitest/config';
import { SummaryLineReporter } from './test/summary-reporter.ts';

export default defineConfig({
  test: {
    include: [
      'spec/**/*.test.ts',
      'mocks/**/*.test.ts',
      'differential/**/*.test.ts',
      'spec-change/**/*.test.ts',
      'proxy/**/*.test.ts',
      'scripts/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    exclude: ['node_modules/**', 'contract-tests/**', 'build/**'],
    // One throwaway PostgreSQL cluster for the files under test/postgres/ (started only when the run includes them).
    globalSetup: ['test/postgres/global-setup.ts'],
    reporters: ['default', new SummaryLineReporter()],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
