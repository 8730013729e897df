// The bench's report: what a run measured, and the verdict on each target of docs/performance.md.
import type { OperationId } from '../spec/index.ts';
import { primaryCreation } from '../verifier-client/requests/linked-operations.ts';
import type { coldStarts } from './cold-start.ts';
import { fmt } from './load.ts';
import type { mswPath } from './msw-path.ts';
import { allOps, type Options, type Target } from './options.ts';
import type { PersistenceRow } from './probes/persistence.ts';
import type { ProxyOverheadRow } from './probes/proxy-overhead.ts';
import type { ReplicasRow } from './probes/replicas.ts';
import type { ScaleRow } from './scale.ts';
import type { steady } from './steady.ts';
import type { ThroughputResult } from './throughput.ts';
import type { StageCost } from './probes/request-path.ts';

/** One performance target and whether this run met it. */
export interface Verdict {
  target: string;
  met: boolean;
  figure: string;
}

/**
 * The targets of docs/performance.md, judged from what this run measured (a section not run gives no verdict).
 * @example for (const v of verdicts(report)) console.log(v.met ? 'MET' : 'MISS', v.target);
 */
export function verdicts(report: Report): Verdict[] {
  const out: Verdict[] = [];
  const rows = report.throughput?.rows ?? [];
  const at = (target: Target, op: OperationId, connections: number) =>
    rows.find((r) => r.target === target && r.op === op && r.connections === connections);
  const { creator, readBack } = primaryCreation();
  for (const op of [readBack, creator]) {
    const fake = at('fake', op, 50);
    const prism = at('prism', op, 50);
    const bare = at('bare', op, 50);
    if (fake && prism)
      out.push({
        target: `${op} fake ≥ 10× Prism (50 conns)`,
        met: fake.rps >= 10 * prism.rps,
        figure: `${fmt(fake.rps / prism.rps, 2)}×`,
      });
    if (fake && bare)
      out.push({
        target: `${op} fake ≥ 50% of bare (50 conns)`,
        met: fake.rps >= 0.5 * bare.rps,
        figure: `${fmt((100 * fake.rps) / bare.rps, 1)}%`,
      });
  }
  for (const op of allOps) {
    const fake = at('fake', op, 50);
    if (fake) out.push({ target: `${op} fake p99 ≤ 10 ms (50 conns)`, met: fake.p99 <= 10, figure: `${fake.p99} ms` });
  }
  const cold = report.throughput?.coldStartMs.fake?.median;
  if (cold !== undefined)
    out.push({
      target: 'fake cold start ≤ 500 ms (rounds of the throughput section)',
      met: cold <= 500,
      figure: `${fmt(cold)} ms`,
    });
  if (report.cold) {
    out.push({
      target: 'fake cold start ≤ 500 ms (compile cache as a second start finds it)',
      met: report.cold.withCacheMs <= 500,
      figure: `${fmt(report.cold.withCacheMs)} ms`,
    });
    out.push({
      target: 'fake cold start ≤ 500 ms (no compile cache: first start on a machine)',
      met: report.cold.withoutCacheMs <= 500,
      figure: `${fmt(report.cold.withoutCacheMs)} ms`,
    });
  }
  for (const row of report.scale?.filter((entry) => entry.agents === 100_000) ?? []) {
    out.push({
      target: `fake RSS ≤ 200 MB with 100k agents (${row.how})`,
      met: row.rssMb <= 200,
      figure: `${row.rssMb} MB`,
    });
  }
  if (report.steady) {
    const { rssLastThirdGrowthMb: grew, lastThirdSeconds } = report.steady;
    // A few seconds (--quick) say nothing about a plateau.
    if (lastThirdSeconds >= 10)
      out.push({
        target: `fake RSS steady under load (≤ +5 MB over the last third of the run)`,
        met: grew <= 5,
        figure: `${grew >= 0 ? '+' : ''}${fmt(grew, 1)} MB over the last ${lastThirdSeconds} s`,
      });
  }
  return out;
}

/** Everything a run measured, as `--json` writes it. */
export interface Report {
  date: string;
  machine: { cpu: string; cores: number; memoryGb: number; os: string; node: string; pinned: boolean };
  /** 1-minute load average before and after: other work on the machine shows here, and skews every figure. */
  load: { before: number; after?: number };
  options: Omit<Options, 'json'>;
  throughput?: ThroughputResult;
  cold?: Awaited<ReturnType<typeof coldStarts>>;
  scale?: ScaleRow[];
  steady?: Awaited<ReturnType<typeof steady>>;
  msw?: Awaited<ReturnType<typeof mswPath>>;
  persistence?: PersistenceRow[];
  /** CPU µs per stage of the request path (benchmarks/probes/request-path.ts). */
  path?: StageCost[];
  proxy?: ProxyOverheadRow[];
  replicas?: ReplicasRow[];
  verdicts?: Verdict[];
}
