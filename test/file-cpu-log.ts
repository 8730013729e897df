// Where test/file-cpu.setup.ts (in each forked worker) leaves each file's CPU time for test/file-times-reporter.ts (in
// the vitest process that forked it): one JSON line per file in a file named after that process.
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The log of the vitest run whose main process has id `pid`. */
export function fileCpuLog(pid: number): string {
  return join(tmpdir(), `agent-registry-kit-file-cpu-${pid}.jsonl`);
}
