// The project's own tests, in two rooms. `unit`: the tests beside the code, in-process only (no child process, no
// server process, no browser, no database: .dependency-cruiser.cjs refuses the imports that would start one), sharing
// their workers; `npm run check` runs them. `e2e`: everything under test/, which starts processes, browsers and
// databases, each file in a worker of its own; `npm test` runs both. The contract suite (contract-tests/) has its own
// runner, `npm run contract`, because it needs a live server; test/contract/ drives it against known targets.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { FolderOrderSequencer } from './test/runner/folder-order-sequencer.ts';
import { SummaryLineReporter } from './test/runner/summary-reporter.ts';

// Every Node process of the run (vitest's workers, and the CLIs, servers, npm, tsc and vite the tests start: a few
// hundred, most of them loading the same files) keeps V8's compiled code in one cache, so each start after the first
// skips most of the compiling. The cache checks each file's content, so a changed file is compiled afresh; children
// started with an environment of their own pass this variable on.
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL('node_modules/.cache/node-compile-cache', import.meta.url));

/** The folders whose tests sit beside the code. */
const codeRooms = '{spec,mocks,verifier-client,differential,spec-change,proxy,pact,scripts,tools,examples}';

export default defineConfig({
  test: {
    exclude: ['node_modules/**', 'contract-tests/**', 'build/**', 'dist/**'],
    reporters: ['default', new SummaryLineReporter()],
    // vitest's own default is one worker fewer than the cores: one file at a time on a 2-core machine, while most
    // end-to-end files spend their time waiting on the servers and CLI processes they start. One worker per core keeps
    // both cores busy; more made a loaded machine time out process starts.
    maxWorkers: Math.max(2, availableParallelism()),
    // Only there to end a hung test, never to time one: with files side by side a loaded machine needs longer than 20 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    sequence: { sequencer: FolderOrderSequencer },
    projects: [
      {
        extends: true,
        // Each worker loads vitest, the spec and its validators once instead of once per file; every file restores what
        // it stubs (fake timers, globals, msw interceptors) in its own hooks.
        test: { name: 'unit', include: [`${codeRooms}/**/*.test.ts`], isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          // One throwaway PostgreSQL cluster for the files under test/postgres/ (started only when the run includes them).
          globalSetup: ['test/postgres/global-setup.ts'],
        },
      },
    ],
  },
});
