// The throughput section: every operation against the fake, Prism and a bare node:http server, and its Markdown tables.
import type { OperationId } from '../../spec/index.ts';
import { memoryOf } from '../spawned-server.ts';
import { fmt, log, mb, measure, median, type Run } from './load.ts';
import { allOps, type Options, type Target } from './options.ts';
import { startAndProbe, type Started } from './servers.ts';

/** One operation × connections × target, the median of its rounds. */
export interface ThroughputRow {
  op: OperationId;
  connections: number;
  target: Target;
  runs: Run[];
  rps: number;
  p50: number;
  p99: number;
  /** Median share of one core the server used; with rps it gives req/s per core, free of the load generator's limit. */
  serverCpu: number;
  perCore: number;
}

/**
 * The fake, Prism and the bare server, interleaved round by round (fresh processes each round).
 * @example const result = await throughput(options); console.log(throughputTable(result, options));
 */
export async function throughput(options: Options) {
  const runs = new Map<string, Run[]>();
  const coldStart = new Map<Target, number[]>();
  const peakRss = new Map<Target, number>();
  for (let round = 0; round < options.rounds; round += 1) {
    // Fresh processes each round: deploys pile agents into the fake, and each start is one more cold-start sample.
    const order = options.targets.map(
      (_, index) => options.targets[(index + round) % options.targets.length] as Target,
    );
    const started = new Map<Target, Started>();
    try {
      for (const target of order) {
        const probe = await startAndProbe(target, options);
        started.set(target, probe);
        coldStart.set(target, [...(coldStart.get(target) ?? []), probe.coldStartMs]);
        for (const op of allOps) await measure(probe, op, 50, Math.min(1, options.duration / 2));
      }
      for (const op of allOps) {
        for (const connections of options.connections) {
          for (const target of order) {
            const probe = started.get(target);
            if (!probe) continue;
            const run = await measure(probe, op, connections, options.duration);
            const key = `${target}|${op}|${connections}`;
            runs.set(key, [...(runs.get(key) ?? []), run]);
            const flag = run.non2xx || run.errors ? `  (${run.non2xx} non-2xx, ${run.errors} errors)` : '';
            log(
              `round ${round + 1}/${options.rounds} ${target.padEnd(5)} ${op.padEnd(16)} c=${String(connections).padEnd(3)} ${fmt(run.rps).padStart(8)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms  server CPU ${run.serverCpu}%${flag}`,
            );
          }
        }
      }
    } finally {
      for (const [target, probe] of started) {
        peakRss.set(target, Math.max(peakRss.get(target) ?? 0, memoryOf(probe.server.pid).hwm));
        await probe.server.stop();
      }
    }
  }
  const rows: ThroughputRow[] = [];
  for (const op of allOps) {
    for (const connections of options.connections) {
      for (const target of options.targets) {
        const list = runs.get(`${target}|${op}|${connections}`) ?? [];
        rows.push({
          op,
          connections,
          target,
          runs: list,
          rps: median(list.map((r) => r.rps)),
          p50: median(list.map((r) => r.p50)),
          p99: median(list.map((r) => r.p99)),
          serverCpu: median(list.map((r) => r.serverCpu)),
          perCore: median(list.map((r) => (r.serverCpu > 0 ? (r.rps * 100) / r.serverCpu : Number.NaN))),
        });
      }
    }
  }
  return {
    rows,
    coldStartMs: Object.fromEntries(
      [...coldStart].map(([target, samples]) => [target, { median: median(samples), samples }]),
    ),
    peakRssMb: Object.fromEntries([...peakRss].map(([target, bytes]) => [target, mb(bytes)])),
  };
}

export type ThroughputResult = Awaited<ReturnType<typeof throughput>>;

/** The throughput result as Markdown tables: req/s and latency, CPU and req/s per core, cold start and peak RSS. */
export function throughputTable(result: ThroughputResult, options: Options): string {
  const lines: string[] = [];
  const head = [
    'operation',
    'conns',
    ...options.targets.map((t) => `${t} req/s`),
    ...options.targets.map((t) => `${t} p50/p99 ms`),
  ];
  const ratios = options.targets.includes('fake')
    ? options.targets.filter((t) => t !== 'fake').map((t) => `fake/${t}`)
    : [];
  lines.push(`| ${[...head, ...ratios].join(' | ')} |`, `|${[...head, ...ratios].map(() => '---').join('|')}|`);
  for (const op of allOps) {
    for (const connections of options.connections) {
      const byTarget = new Map(
        result.rows.filter((r) => r.op === op && r.connections === connections).map((r) => [r.target, r]),
      );
      const fake = byTarget.get('fake');
      const cells = [
        op,
        String(connections),
        ...options.targets.map((t) => fmt(byTarget.get(t)?.rps ?? Number.NaN)),
        ...options.targets.map(
          (t) => `${fmt(byTarget.get(t)?.p50 ?? Number.NaN, 1)} / ${fmt(byTarget.get(t)?.p99 ?? Number.NaN, 1)}`,
        ),
        ...ratios.map((ratio) => {
          const other = byTarget.get(ratio.slice(5) as Target);
          return fake && other ? `${fmt(fake.rps / other.rps, 2)}×` : 'n/a';
        }),
      ];
      lines.push(`| ${cells.join(' | ')} |`);
    }
  }
  // The same runs seen from the server's side: when the load generator (one core) is the limit, a server is not busy all
  // the time, and req/s per core of server CPU is the fairer comparison.
  lines.push(
    '',
    `| operation | conns | ${options.targets.map((t) => `${t} CPU %`).join(' | ')} | ${options.targets.map((t) => `${t} req/s per core`).join(' | ')} | ${ratios.map((r) => `${r} per core`).join(' | ')} |`,
  );
  lines.push(
    `|---|---|${options.targets.map(() => '---').join('|')}|${options.targets.map(() => '---').join('|')}|${ratios.map(() => '---').join('|')}|`,
  );
  for (const op of allOps) {
    for (const connections of options.connections) {
      const byTarget = new Map(
        result.rows.filter((r) => r.op === op && r.connections === connections).map((r) => [r.target, r]),
      );
      const fake = byTarget.get('fake');
      lines.push(
        `| ${op} | ${connections} | ${options.targets.map((t) => fmt(byTarget.get(t)?.serverCpu ?? Number.NaN)).join(' | ')} | ${options.targets.map((t) => fmt(byTarget.get(t)?.perCore ?? Number.NaN)).join(' | ')} | ${ratios
          .map((ratio) => {
            const other = byTarget.get(ratio.slice(5) as Target);
            return fake && other ? `${fmt(fake.perCore / other.perCore, 2)}×` : 'n/a';
          })
          .join(' | ')} |`,
      );
    }
  }
  lines.push('', `| | ${options.targets.join(' | ')} |`, `|---|${options.targets.map(() => '---').join('|')}|`);
  lines.push(
    `| cold start, spawn → first 201 (median ms) | ${options.targets.map((t) => fmt(result.coldStartMs[t]?.median ?? Number.NaN)).join(' | ')} |`,
  );
  lines.push(
    `| peak RSS (MB, max over rounds) | ${options.targets.map((t) => fmt(result.peakRssMb[t] ?? Number.NaN, 1)).join(' | ')} |`,
  );
  return lines.join('\n');
}
