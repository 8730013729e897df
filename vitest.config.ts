// The project's own tests: everything beside the code, plus test/. The contract suite (contract-tests/) has its own
// runner, `npm run contract`, because it needs a live server; test/ drives it from outside against known targets.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SummaryLineReporter } from './test/summary-reporter.ts';

// Every Node process of the run (vitest's workers, and the CLIs, servers, npm, tsc and vite the tests start: a few hundred,
// most of them loading the same files) keeps V8's compiled code in one cache, so each start after the first skips most
// of the compiling (about 40 % of a CLI start's CPU). The cache checks each file's content, so a changed file is
// compiled afresh; children started with an environment of their own pass this variable on (issue 20).
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL('node_modules/.cache/node-compile-cache', import.meta.url));

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
    // Each file's CPU time, for test/file-times-reporter.ts (two reads of /proc/self/stat per file).
    setupFiles: ['test/file-cpu.setup.ts'],
    reporters: ['default', new SummaryLineReporter()],
    // vitest's own default in a run is one worker fewer than the cores: one file at a time on a 2-core machine, while
    // most of the slow files spend their time waiting on the servers and CLI processes they start. One worker per core
    // keeps both cores busy (issue 20: npm test halved); more made the loaded machine time out starts.
    maxWorkers: Math.max(2, availableParallelism()),
    // Only there to end a hung test, never to time one: with files side by side a loaded machine needs longer than 20 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
