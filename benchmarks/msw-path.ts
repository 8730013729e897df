// The msw section: the same core behind msw's node interceptor, measured in its own pinned process.
import { execFileSync } from 'node:child_process';
import { primaryCreation } from '../verifier-client/requests/linked-operations.ts';
import type { OperationId } from '../spec/index.ts';
import { canPin, repoRoot } from '../test/support/spawned-server.ts';
import { fmt, log } from './load.ts';
import { serverCpu, type Options } from './options.ts';

/**
 * The msw node interceptor (in-process fetch, no socket), in a child pinned like the servers.
 * @example const rows = await mswPath(options);
 */
export async function mswPath(options: Options) {
  const rows: { op: OperationId; connections: number; rps: number; p50: number; p99: number; failures: number }[] = [];
  // The read and the create of the spec's links (a retrieve and a deploy here): the two ends of a typical test.
  const { readBack, creator } = primaryCreation();
  for (const op of [readBack, creator]) {
    for (const connections of options.connections) {
      const args = [
        'benchmarks/msw-interceptor.ts',
        '--duration',
        String(options.duration),
        '--concurrency',
        String(connections),
        '--op',
        op,
      ];
      const output = execFileSync(
        canPin() ? 'taskset' : process.execPath,
        [...(canPin() ? ['-c', String(serverCpu), process.execPath] : []), ...args],
        {
          cwd: repoRoot,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const parsed = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as {
        rps: number;
        p50: number;
        p99: number;
        failures: number;
      };
      if (parsed.failures)
        throw new Error(`the msw path answered ${parsed.failures} ${op} requests with an unexpected status`);
      rows.push({ op, connections, ...parsed });
      log(
        `msw interceptor ${op.padEnd(16)} ${String(connections).padEnd(3)} in flight: ${fmt(parsed.rps)} req/s, p50 ${parsed.p50} ms, p99 ${parsed.p99} ms`,
      );
    }
  }
  return rows;
}
