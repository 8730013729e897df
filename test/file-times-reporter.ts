// Finds where `npm test`'s wall time goes: one line per test file with the wall time from the moment a worker took it
// to its end, hooks included (vitest's JSON reporter counts only the tests, so a file whose work is in `beforeAll`
// shows 0 s there), its CPU time with the processes it started (test/file-cpu.setup.ts), and the worker that ran it. Use: `npx vitest run --reporter=default --reporter=./test/file-times-reporter.ts`;
// the table goes to FILE_TIMES (default vitest-file-times.tsv), slowest first.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { fileCpuLog } from './file-cpu-log.ts';

interface FileTime {
  file: string;
  /** Milliseconds from the worker taking the file to its last hook. */
  wallMs: number;
  /** Milliseconds of tests and hooks alone (what vitest's own reporters print). */
  testsMs: number;
  /** CPU milliseconds of the file's worker and the children it waited for; undefined where not measured. */
  cpuMs?: number;
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
      file: testModule.moduleId,
      wallMs: Date.now() - collected + setup,
      testsMs: d.duration,
      worker: d.concurrencyId,
      startedMs: collected - setup - this.#runStart,
    });
  }

  onTestRunEnd(): void {
    const { cpu, workersMs } = this.#cpuByFile();
    const rows = [...this.#times].sort((a, b) => b.wallMs - a.wallMs);
    const seconds = (ms: number | undefined): string => (ms === undefined ? '' : (ms / 1000).toFixed(1));
    const lines = rows.map((t) =>
      [
        seconds(t.wallMs),
        seconds(t.testsMs),
        seconds(cpu.get(t.file)),
        t.worker,
        seconds(t.startedMs),
        relative(process.cwd(), t.file),
      ].join('\t'),
    );
    const total = seconds(Date.now() - this.#runStart);
    const cpuTotal = seconds([...cpu.values()].reduce((sum, ms) => sum + ms, 0));
    const footer = `# run ${total} s, files' CPU ${cpuTotal} s, workers' CPU ${seconds(workersMs)} s (their starts included)`;
    writeFileSync(
      process.env.FILE_TIMES ?? 'vitest-file-times.tsv',
      `${['wall s', 'tests s', 'cpu s', 'worker', 'start s', 'file'].join('\t')}\n${lines.join('\n')}\n${footer}\n`,
    );
  }

  /**
   * Each file's CPU milliseconds, as test/file-cpu.setup.ts logged them in this run's workers, and the workers' whole
   * CPU (each worker's last figure: its start and every file it ran).
   */
  #cpuByFile(): { cpu: Map<string, number>; workersMs: number } {
    const log = fileCpuLog(process.pid);
    const cpu = new Map<string, number>();
    const workers = new Map<number, number>();
    let text = '';
    try {
      text = readFileSync(log, 'utf8');
    } catch {
      return { cpu, workersMs: 0 };
    }
    rmSync(log, { force: true });
    for (const line of text.split('\n').filter(Boolean)) {
      const entry = JSON.parse(line) as { file: string; cpuMs: number; pid: number; workerMs: number };
      cpu.set(entry.file, (cpu.get(entry.file) ?? 0) + entry.cpuMs);
      workers.set(entry.pid, Math.max(workers.get(entry.pid) ?? 0, entry.workerMs));
    }
    return { cpu, workersMs: [...workers.values()].reduce((sum, ms) => sum + ms, 0) };
  }
}
