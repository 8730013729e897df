// The project's own tests: everything beside the code, plus test/. The contract suite (contract-tests/) has its own
// runner, `npm run contract`, because it needs a live server; test/ drives it from outside against known targets.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/slow-first-sequencer.ts';
import { SummaryLineReporter } from './test/summary-reporter.ts';

// Every Node process of the run (vitest's workers, and the CLIs, servers, npm, tsc and vite the tests start: a few hundred,
// most of them loading the same files) keeps V8's compiled code in one cache, so each start after the first skips most
// of the compiling (about 40 % of a CLI start's CPU). The cache checks each file's content, so a changed file is
// compiled afresh; children started with an environment of their own pass this variable on (issue 20).
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL('node_modules/.cache/node-compile-cache', import.meta.url));

/**
 * Test files that start processes (CLIs, servers, chromium) but change nothing of their worker: no global stubbed, no
 * msw interceptor, no heap measured, no environment variable set, no PostgreSQL. They share workers too, which saves
 * each the start of a worker of its own (~0.3–0.6 CPU-s); runs of the shared project with its files in shuffled orders
 * (TEST_FILE_ORDER_SEED, test/slow-first-sequencer.ts; BENCHMARKS.md, "npm test time, round 6") passed. The slow files
 * of test/slow-files.ts stay isolated: the sequencer starts them first, and the shared project's files must stay one
 * block in the queue to keep their worker.
 */
const startsProcesses = [
  'mocks/{agent-record,control-plane-document,prism}.test.ts',
  'scripts/{command-line,spawned-server,spec-change,token}.test.ts',
  'spec-change/traffic-replay.test.ts',
  'test/browser/demo-command.test.ts',
  'test/contract/{check-plan,contract-cli,readme-counts,run-options}.test.ts',
  'test/proxy/proxy.test.ts',
  'test/robustness/{concurrency,fuzz,state-kill}.test.ts',
  'test/structure/{function-length,operation-spellings}.test.ts',
];

/**
 * Test files that run in-process only (no child process, server process, msw interceptor, heap measurement or
 * PostgreSQL), and those of startsProcesses. They share their workers (`isolate: false`): each worker loads vitest,
 * the spec and its validators once instead of once per file, which was about a second of CPU per file (issue 20). Each
 * of them restores any global it stubs (fake timers, stubbed globals) in its own hooks; a file not listed here runs in
 * a worker of its own.
 */
export const inProcess = [
  'spec/**/*.test.ts',
  'spec-change/{change-classifier,evidence-stream,operation-rules,schema-rules}.test.ts',
  'differential/response-shape.test.ts',
  'proxy/**/*.test.ts',
  'scripts/{dist-stamp,generate}.test.ts',
  'mocks/{agent-cache,auth-realms,auth,catalogue,clock,control-plane-schemas,control-plane,core,coverage}.test.ts',
  'mocks/{host-check,http-exposure,http-server,i-json,max-agents,playwright,prefer,remote-test-api}.test.ts',
  'mocks/{request-body,request-guards,router,sqlite-storage,store,stored-overrides,task-rules,test-api}.test.ts',
  'mocks/web-storage.test.ts',
  'mocks/browser-demo/*.test.ts',
  'mocks/operations/*.test.ts',
  'test/contract/{boundary-values,contract-report,hostile-tokens,invalid-requests,read-only-guard}.test.ts',
  'test/contract/{redaction,schema-arbitraries,status-coverage}.test.ts',
  'test/node-pin.test.ts',
  'test/summary-reporter.test.ts',
  ...startsProcesses,
];

export default defineConfig({
  test: {
    exclude: ['node_modules/**', 'contract-tests/**', 'build/**'],
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
    // The slowest files first (test/slow-files.ts): a fresh clone has no results cache, and vitest's fallback order
    // (larger files first) started the 90 s broken-server matrix last, ending the run on one busy core (issue 20).
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: { name: 'in-process', include: inProcess, isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: [
            'spec/**/*.test.ts',
            'mocks/**/*.test.ts',
            'differential/**/*.test.ts',
            'spec-change/**/*.test.ts',
            'proxy/**/*.test.ts',
            'scripts/**/*.test.ts',
            'test/**/*.test.ts',
          ],
          exclude: ['node_modules/**', 'contract-tests/**', 'build/**', ...inProcess],
          // One throwaway PostgreSQL cluster for the files under test/postgres/ (started only when the run includes them).
          globalSetup: ['test/postgres/global-setup.ts'],
        },
      },
    ],
  },
});
