// Finds where `npm test`'s wall time goes: one line per test file with the wall time from the moment a worker took it
// to its end, hooks included (vitest's JSON reporter counts only the tests, so a file whose work is in `beforeAll`
// shows 0 s there), and the worker that ran it. Use: `npx vitest run --reporter=default --reporter=./test/file-times-reporter.ts`;
// the table goes to FILE_TIMES (default vitest-file-times.tsv), slowest first.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

interface FileTime {
  file: string;
  /** Milliseconds from the worker taking the file to its last hook. */
  wallMs: number;
  /** Milliseconds of tests and hooks alone (what vitest's own reporters print). */
  testsMs: number;
  worker: number;
  startedMs: number;
}

/**
 * A vitest reporter writing each test file's wall time, hooks and import included, as a TSV table.
 * @example npx vitest run --reporter=default --reporter=./test/file-times-reporter.ts
 */
export default class FileTimesReporter implements Reporter {
  readonly #started = new Map<string, number>();
  readonly #times: FileTime[] = [];
  readonly #runStart = Date.now();

  onTestModuleCollected(testModule: TestModule): void {
    // Import and collection come before onTestModuleStart; the diagnostic below gives their length.
    if (!this.#started.has(testModule.moduleId)) this.#started.set(testModule.moduleId, Date.now());
  }

  onTestModuleEnd(testModule: TestModule): void {
    const d = testModule.diagnostic();
    const setup = d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration;
    const collected = this.#started.get(testModule.moduleId) ?? Date.now();
    this.#times.push({
      file: relative(process.cwd(), testModule.moduleId),
      wallMs: Date.now() - collected + setup,
      testsMs: d.duration,
      worker: d.concurrencyId,
      startedMs: collected - setup - this.#runStart,
    });
  }

  onTestRunEnd(): void {
    const rows = [...this.#times].sort((a, b) => b.wallMs - a.wallMs);
    const seconds = (ms: number): string => (ms / 1000).toFixed(1);
    const lines = rows.map((t) =>
      [seconds(t.wallMs), seconds(t.testsMs), t.worker, seconds(t.startedMs), t.file].join('\t'),
    );
    const total = seconds(Date.now() - this.#runStart);
    writeFileSync(
      process.env.FILE_TIMES ?? 'vitest-file-times.tsv',
      `${['wall s', 'tests s', 'worker', 'start s', 'file'].join('\t')}\n${lines.join('\n')}\n# run ${total} s\n`,
    );
  }
}
