// CPU time of a set of processes over a load run (server replicas, a PostgreSQL cluster's backends), per request: a
// figure that the load of a shared machine distorts far less than requests per second.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuSecondsOf, descendantsOf } from '../test/support/spawned-server.ts';

/** CPU seconds used so far, by process id. */
export type CpuSnapshot = Map<number, number>;

/** The CPU each process has used so far (processes gone meanwhile are left out). */
export function cpuSnapshot(pids: readonly number[]): CpuSnapshot {
  const snapshot: CpuSnapshot = new Map();
  for (const pid of pids) {
    const seconds = cpuSecondsOf(pid);
    if (Number.isFinite(seconds)) snapshot.set(pid, seconds);
  }
  return snapshot;
}

/**
 * CPU seconds used between two snapshots: a process started meanwhile counts whole, one ended meanwhile counts nothing
 * (its last part is lost: a PostgreSQL backend closed mid-run is undercounted, never counted negative).
 * @example const before = cpuSnapshot(pids); await run(); const spent = cpuSpent(before, cpuSnapshot(pids));
 */
export function cpuSpent(before: CpuSnapshot, after: CpuSnapshot): number {
  let spent = 0;
  for (const [pid, seconds] of after) spent += Math.max(0, seconds - (before.get(pid) ?? 0));
  return spent;
}

/** The postmaster of the cluster whose data directory is `dataDir`, and every process it started (its backends). */
export function postgresPids(dataDir: string): number[] {
  try {
    const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(postmaster) && postmaster > 0 ? [postmaster, ...descendantsOf(postmaster)] : [];
  } catch {
    return [];
  }
}
