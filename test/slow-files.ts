// The test files that run longest, slowest first, for test/slow-first-sequencer.ts to start first (issue 20). Measured,
// not guessed: each file's wall and CPU seconds in one whole run on a fresh clone (no vitest results cache), from
// `REQUIRE_CHROMIUM=1 npx vitest run --reporter=default --reporter=./test/file-times-reporter.ts` (its TSV table);
// every isolated file of 10 s or more is here. test/slow-files.test.ts fails when a listed file is gone or the order
// is not by wall time. Refresh it from a new table when a file's place changes by much.

/** One measured file: its path from the repository root, its wall and CPU seconds in the measured run. */
export interface SlowFile {
  file: string;
  wallS: number;
  cpuS: number;
}

/** Measured 2026-11-24 18:17–18:26 UTC on main 363318e (2 cores, load 1.9 → 8.0, another helper's tests beside it). */
export const slowFiles: readonly SlowFile[] = [
  { file: 'test/contract/contract-targets.test.ts', wallS: 192.4, cpuS: 56.7 },
  { file: 'test/consumer/consumer.test.ts', wallS: 181.2, cpuS: 163.7 },
  { file: 'test/contract/broken-servers.test.ts', wallS: 91.2, cpuS: 82.9 },
  { file: 'test/contract/contract-safety.test.ts', wallS: 36.7, cpuS: 23.5 },
  { file: 'test/cli/bounded-clis.test.ts', wallS: 31.5, cpuS: 27.3 },
  { file: 'test/contract/fixture-spec.test.ts', wallS: 30.9, cpuS: 24.9 },
  { file: 'differential/diff-run.test.ts', wallS: 27.6, cpuS: 28.7 },
  { file: 'test/postgres/faults.test.ts', wallS: 25.6, cpuS: 15.2 },
  { file: 'test/contract/contract-msw.test.ts', wallS: 24.0, cpuS: 8.5 },
  { file: 'scripts/start.test.ts', wallS: 22.9, cpuS: 20.8 },
  { file: 'scripts/diff.test.ts', wallS: 22.1, cpuS: 21.1 },
  { file: 'differential/diff-prism.test.ts', wallS: 20.8, cpuS: 7.5 },
  { file: 'test/browser/docs-page.test.ts', wallS: 20.1, cpuS: 8.7 },
  { file: 'test/browser/worker-reload.test.ts', wallS: 17.5, cpuS: 6.9 },
  { file: 'test/cli/terminal-safety.test.ts', wallS: 13.2, cpuS: 7.1 },
  { file: 'scripts/cli.test.ts', wallS: 12.8, cpuS: 4.8 },
  { file: 'test/browser/demo-app.test.ts', wallS: 12.6, cpuS: 7.6 },
  { file: 'test/robustness/http-layer.test.ts', wallS: 12.1, cpuS: 1.6 },
  { file: 'scripts/coverage.test.ts', wallS: 11.9, cpuS: 7.8 },
  { file: 'test/browser/worker-override.test.ts', wallS: 11.5, cpuS: 5.3 },
  { file: 'test/proxy/proxy-cli.test.ts', wallS: 10.7, cpuS: 9.6 },
  { file: 'test/robustness/sqlite-state.test.ts', wallS: 10.2, cpuS: 9.7 },
  { file: 'test/cli/spec-change-large.test.ts', wallS: 10.0, cpuS: 5.6 },
];
