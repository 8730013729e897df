// The load of the replicas bench (benchmarks/probes/replicas.ts) and what it cost: one autocannon per replica, and
// the CPU the servers and the PostgreSQL cluster spent on it, with the autovacuum runs that overlapped it.
import autocannon from 'autocannon';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SpawnedServer } from '../../test/support/spawned-server.ts';
import { type CpuSnapshot, cpuSnapshot, cpuSpent, postgresPids } from '../process-cpu.ts';

export interface LoadResult {
  rps: number;
  p99: number;
  non2xx: number;
  requests: number;
}

/** Load spread over the replicas' urls: req/s summed, the worst p99, the non-2xx answers and the requests. */
export function load(urls: string[], options: Partial<autocannon.Options>): Promise<LoadResult> {
  // One autocannon per replica, connections shared out: a load balancer's round robin, without one in the way.
  const per = Math.max(1, Math.round((options.connections ?? 1) / urls.length));
  const runs = urls.map(
    (url) =>
      new Promise<autocannon.Result>((resolve, reject) =>
        autocannon({ url, timeout: 20, ...options, connections: per }, (error, result) =>
          error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(result),
        ),
      ),
  );
  return Promise.all(runs).then((results) => ({
    rps: Math.round(results.reduce((sum, result) => sum + result.requests.total / result.duration, 0)),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    requests: results.reduce((sum, result) => sum + result.requests.total, 0),
  }));
}

/** Bytes in the cluster's log so far (0 when there is none). */
const logSize = (log: string): number => (existsSync(log) ? statSync(log).size : 0);

/** Autovacuum's runs (vacuums and analyzes, of any table) the cluster logged after byte `from` of its log. */
function autovacuumsSince(log: string, from: number): number {
  if (logSize(log) <= from) return 0;
  return (
    readFileSync(log)
      .subarray(from)
      .toString('utf8')
      .match(/automatic (vacuum|analyze) of table/g)?.length ?? 0
  );
}

/**
 * A load run and the CPU it cost per request (µs): the servers', and the cluster's when `dataDir` is given, with the
 * autovacuum runs that overlapped it (they take CPU from the measure on a small machine).
 */
export async function withCpu(
  servers: readonly SpawnedServer[],
  dataDir: string | undefined,
  run: () => Promise<LoadResult>,
): Promise<LoadResult & { cpuUs: number; dbCpuUs: number; autovacuums: number }> {
  const pids = servers.map((server) => server.pid);
  const database = (): CpuSnapshot => cpuSnapshot(dataDir ? postgresPids(dataDir) : []);
  const log = dataDir ? join(dataDir, '..', 'log') : '';
  const logFrom = dataDir ? logSize(log) : 0;
  const dbBefore = database();
  const before = cpuSnapshot(pids);
  const result = await run();
  const spent = cpuSpent(before, cpuSnapshot(pids));
  const dbSpent = cpuSpent(dbBefore, database());
  const perRequest = (seconds: number): number =>
    result.requests > 0 ? Math.round((seconds * 1e6) / result.requests) : 0;
  const autovacuums = dataDir ? autovacuumsSince(log, logFrom) : 0;
  return { ...result, cpuUs: perRequest(spent), dbCpuUs: perRequest(dbSpent), autovacuums };
}
