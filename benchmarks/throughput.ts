// The throughput section: every operation against the fake, Prism and a bare node:http server, and its Markdown tables.
import type { OperationId } from '../spec/index.ts';
import { memoryOf } from '../test/support/spawned-server.ts';
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
 * Requests of each warm-up run (per operation, 50 connections). A count, not a time: every target then holds the same
 * agents and tasks when its measured runs start, whatever its speed.
 */
export const WARM_UP_REQUESTS = 5_000;

/** The warm-up size of a run: a tenth of it for `--quick` or sub-2-second runs (a smoke run, or a test of the bench). */
export function warmUpRequests(options: Pick<Options, 'quick' | 'duration'>): number {
  return options.quick || options.duration < 2 ? WARM_UP_REQUESTS / 10 : WARM_UP_REQUESTS;
}

/** Requests that fill `seconds` at `rate` req/s, in whole thousands (at least 1,000). */
function runSize(rate: number, seconds: number): number {
  return Number.isFinite(rate) ? Math.max(1_000, Math.round((rate * seconds) / 1_000) * 1_000) : 1_000;
}

/** What the rounds gather: every run by `target|op|connections`, cold starts, peak RSS, and the size of each run. */
interface Gathered {
  runs: Map<string, Run[]>;
  coldStart: Map<Target, number[]>;
  peakRss: Map<Target, number>;
  /** Requests per measured run of each operation: `--requests`, or what the first round's warm-ups say fills `--duration`. */
  requests: Map<OperationId, number>;
}

/** One round: fresh processes of every target (in a rotated order), warmed up alike, then each run interleaved. */
async function oneRound(round: number, options: Options, gathered: Gathered): Promise<void> {
  const { runs, coldStart, peakRss, requests } = gathered;
  // Fresh processes each round: each starts from the seed, and each start is one more cold-start sample.
  const order = options.targets.map((_, index) => options.targets[(index + round) % options.targets.length] as Target);
  const started = new Map<Target, Started>();
  const warmRates = new Map<OperationId, number[]>();
  try {
    for (const target of order) {
      const probe = await startAndProbe(target, options);
      started.set(target, probe);
      coldStart.set(target, [...(coldStart.get(target) ?? []), probe.coldStartMs]);
      for (const op of allOps) {
        const warm = await measure(probe, op, 50, { requests: warmUpRequests(options) });
        warmRates.set(op, [...(warmRates.get(op) ?? []), warm.rps]);
      }
    }
    for (const op of allOps) {
      if (!requests.has(op))
        requests.set(op, options.requests ?? runSize(median(warmRates.get(op) ?? []), options.duration));
      for (const connections of options.connections) {
        for (const target of order) {
          const probe = started.get(target);
          if (!probe) continue;
          // The same number of requests on every target: each run starts from the same state (see RunLength).
          const run = await measure(probe, op, connections, { requests: requests.get(op) ?? 1_000 });
          const key = `${target}|${op}|${connections}`;
          runs.set(key, [...(runs.get(key) ?? []), run]);
          const flag = run.non2xx || run.errors ? `  (${run.non2xx} non-2xx, ${run.errors} errors)` : '';
          log(
            `round ${round + 1}/${options.rounds} ${target.padEnd(5)} ${op.padEnd(16)} c=${String(connections).padEnd(3)} ${fmt(run.rps).padStart(8)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms  server CPU ${run.serverCpu}%  (${fmt(run.total)} requests)${flag}`,
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

/**
 * The fake, Prism and the bare server, interleaved round by round (fresh processes each round). Every measured run of
 * an operation sends the same number of requests to every target, so a deploy run starts from the same store size.
 * @example const result = await throughput(options); console.log(throughputTable(result, options));
 */
export async function throughput(options: Options) {
  const gathered: Gathered = { runs: new Map(), coldStart: new Map(), peakRss: new Map(), requests: new Map() };
  for (let round = 0; round < options.rounds; round += 1) await oneRound(round, options, gathered);
  const { runs, coldStart, peakRss } = gathered;
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
          perCore: median(list.map(perCoreOf)),
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
    requestsPerRun: Object.fromEntries(gathered.requests),
  };
}

export type ThroughputResult = Awaited<ReturnType<typeof throughput>>;

/** Requests per second per core of server CPU in one run; NaN when the server's CPU share was not measured. */
const perCoreOf = (run: Run): number => (run.serverCpu > 0 ? (run.rps * 100) / run.serverCpu : Number.NaN);

/**
 * fake ÷ other round by round (each round ran both side by side, so a change of the machine's load hits both), as the
 * median and the range over rounds: `0.96× (0.90–1.02)`.
 */
function pairedRatio(fake: ThroughputRow, other: ThroughputRow, figure: (run: Run) => number): string {
  const ratios = fake.runs
    .map((run, round) => {
      const paired = other.runs[round];
      return paired ? figure(run) / figure(paired) : Number.NaN;
    })
    .filter(Number.isFinite);
  if (ratios.length === 0) return 'n/a';
  const range = ratios.length > 1 ? ` (${fmt(Math.min(...ratios), 2)}–${fmt(Math.max(...ratios), 2)})` : '';
  return `${fmt(median(ratios), 2)}×${range}`;
}

/** The throughput result as Markdown tables: req/s and latency, CPU and req/s per core, cold start and peak RSS. */
export function throughputTable(result: ThroughputResult, options: Options): string {
  const sizes = Object.entries(result.requestsPerRun).map(([op, count]) => `${op} ${fmt(count)}`);
  const lines: string[] = [
    `Every run sends the same number of requests to each target (${sizes.join(', ')}; warm-up ${fmt(warmUpRequests(options))} per operation); ratios are the median of the per-round ratios, with their range.`,
    '',
  ];
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
          return fake && other ? pairedRatio(fake, other, (run) => run.rps) : 'n/a';
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
            return fake && other ? pairedRatio(fake, other, perCoreOf) : 'n/a';
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
