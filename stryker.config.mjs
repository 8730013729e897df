// StrykerJS (`npm run mutation`): how much of the fake the contract suite pins. Each mutant of the fake's operations,
// state and request checks is run against `contract --seed-only` at a fixed seed, in process
// (test/mutation/vitest.mutation.config.ts); a mutant the suite does not notice is a missing check or a behaviour the
// service description does not pin. The latter are excluded where they are, with `// Stryker disable` comments that
// give the reason, and listed in docs/mutation-exclusions.md.
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'test/mutation/vitest.mutation.config.ts', related: false },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  // The API path only: the operations, the state they change and the request checks they pass through. Code that only
  // the control plane and the test API run (seeding: agent-seed.ts, task-seed.ts) or that only the node adapter runs
  // (the Host check) is not the API's behaviour and not mutated at all, rather than mutated and excluded line by line.
  mutate: [
    'mocks/operations/**/*.ts',
    'mocks/state/**/*.ts',
    'mocks/core/request/**/*.ts',
    '!mocks/state/agent-seed.ts',
    '!mocks/state/task-seed.ts',
    '!mocks/core/request/host-check.ts',
    '!**/*.test.ts',
    '!**/*.generated.ts',
  ],
  // Each check of the suite is a vitest test: a mutant runs only the checks that reached its code.
  coverageAnalysis: 'perTest',
  // A static mutant (module-level code, run once at load: a constant table, a compiled pattern) needs a fresh worker
  // and the whole suite each: about half the run's time for a tenth of the mutants. They are not run; the reports list
  // them as ignored, with this reason.
  ignoreStatic: true,
  // A re-run tests only the mutants whose code or covering checks changed.
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // A slow answer on a loaded machine is not a kill: only a mutant far past the unmutated run's time is a timeout.
  timeoutMS: 60_000,
  // One test runner: the suite's worker already keeps a core busy, and the machine is shared with other builds.
  concurrency: 1,
  // A fresh worker, so a fresh fake, for each mutant: the fake keeps what it learnt across the suite's checks (the
  // verified-token cache, above all), so in a reused worker a check may never reach the code a mutant changed and the
  // mutant survives or dies by the order mutants ran in. Restarts cost seconds a mutant, over the few that run.
  maxTestRunnerReuse: 1,
  // The sandbox needs the sources, the spec and the suite, not the build outputs or the consumer test's scratch app.
  ignorePatterns: ['dist', 'build', 'artifacts', 'reports', 'test/consumer', '.state', '*.cpuprofile'],
  cleanTempDir: 'always',
};
