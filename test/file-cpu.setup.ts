// Measures each test file's CPU time, its import, hooks and every child process it started and waited for included,
// so that test/file-times-reporter.ts can say where `npm test`'s CPU goes (a file's wall time depends on the machine's
// load, its CPU time much less). Linux only (it reads /proc/self/stat), and only in a forked worker, whose process is
// the file's alone; elsewhere it records nothing.
import { appendFileSync, readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { afterAll, expect } from 'vitest';
import { fileCpuLog } from './file-cpu-log.ts';

/** CPU milliseconds of this process and its reaped children (utime, stime, cutime, cstime), or undefined off Linux. */
function processTreeCpuMs(): number | undefined {
  let stat: string;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return undefined;
  }
  // The fields after the command name (which may hold spaces), from the third on: utime is the 14th field.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0);
  // Linux reports these in clock ticks of 1/100 s (USER_HZ) on every architecture Node supports.
  return ticks * 10;
}

// Read when vitest imports this setup file, before the test file: the test file's own import counts too.
const startedMs = isMainThread ? processTreeCpuMs() : undefined;

afterAll(() => {
  const endedMs = processTreeCpuMs();
  const file = expect.getState().testPath;
  if (startedMs === undefined || endedMs === undefined || file === undefined) return;
  // workerMs: all the worker has spent so far (its start, and any files it ran before this one without isolation).
  const line = JSON.stringify({ file, cpuMs: endedMs - startedMs, pid: process.pid, workerMs: endedMs });
  appendFileSync(fileCpuLog(process.ppid), `${line}\n`);
});
