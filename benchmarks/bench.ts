// `npm run bench`: measures the standalone fake against Prism and a bare node:http ceiling, interleaved round by round,
// then the fake's cold start, its memory with 1k/10k/100k agents, its memory under a steady load, the msw path and
// the --state store beside in-memory.
// Each section lives beside this file in benchmarks/; this module runs them and prints the report.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { coldStarts } from './cold-start.ts';
import { fmt, log, stopLoad } from './load.ts';
import { mswPath } from './msw-path.ts';
import { loadCpu, readOptions, serverCpu } from './options.ts';
import { type Report, verdicts } from './report.ts';
import { scale } from './scale.ts';
import { useAnyToken } from './servers.ts';
import { steady } from './steady.ts';
import { throughput, throughputTable } from './throughput.ts';
import { cliError } from '../scripts/cli-error.ts';
import { canPin } from '../test/support/spawned-server.ts';

/** The first fetch in a process loads undici; pay that before any cold start is timed. */
async function warmUpFetch(): Promise<void> {
  const server = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await (await fetch(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`)).text();
  await new Promise((resolve) => server.close(resolve));
}

/**
 * Runs the sections asked for and prints the report (progress on stderr, tables on stdout).
 * @example await main(['--quick', '--sections', 'throughput']);
 */
export async function main(args: string[]): Promise<void> {
  const options = readOptions(args);
  const pinned = canPin();
  // The load generator gets its own core, so the server under test is not measured against autocannon's CPU use.
  if (pinned) execFileSync('taskset', ['-pc', String(loadCpu), String(process.pid)], { stdio: 'ignore' });
  // Prism accepts any non-empty bearer and the bare server none at all; only the fake needs a real token.
  if (!options.targets.includes('fake')) useAnyToken();
  await warmUpFetch();
  const { json, ...shown } = options;
  const report: Report = {
    date: new Date().toISOString(),
    machine: {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      memoryGb: Math.round(totalmem() / 2 ** 30),
      os: `${platform()} ${release()}`,
      node: process.version,
      pinned,
    },
    options: shown,
    load: { before: Math.round((loadavg()[0] ?? 0) * 100) / 100 },
  };
  log(
    `bench: ${options.rounds} round(s) × ${options.duration} s per run; servers on CPU ${pinned ? serverCpu : 'any'}, autocannon on CPU ${pinned ? loadCpu : 'any'}`,
  );
  if (options.sections.includes('throughput')) {
    report.throughput = await throughput(options);
    process.stdout.write(`\n${throughputTable(report.throughput, options)}\n`);
  }
  if (options.sections.includes('path')) {
    // CPU µs per stage of the fake's request path, in this process (benchmarks/probes/request-path.ts).
    const { requestPathCosts, requestPathTable } = await import('./probes/request-path.ts');
    report.path = await requestPathCosts(options.quick ? 2_000 : 20_000);
    process.stdout.write(`\n${requestPathTable(report.path)}\n`);
  }
  const fake = options.targets.includes('fake');
  if (fake && options.sections.includes('cold')) report.cold = await coldStarts(options);
  if (fake && options.sections.includes('scale')) report.scale = await scale(options);
  if (fake && options.sections.includes('steady')) report.steady = await steady(options);
  if (fake && options.sections.includes('msw')) report.msw = await mswPath(options);
  if (fake && options.sections.includes('persistence')) {
    // --state store.db beside in-memory at 0, 100k and 1M stored agents (benchmarks/probes/persistence.ts).
    const { persistenceBench, persistenceTable } = await import('./probes/persistence.ts');
    const sizes = options.quick ? [0, 10_000] : [0, 100_000, 1_000_000];
    report.persistence = await persistenceBench({
      sizes,
      duration: options.quick ? 2 : 5,
      connections: 50,
      rounds: options.quick ? 1 : 3,
    });
    process.stdout.write(`\n${persistenceTable(report.persistence)}\n`);
  }
  if (fake && options.sections.includes('proxy')) {
    // What a validating proxy adds per request, beside Prism's proxy, on the fake (benchmarks/probes/proxy-overhead.ts).
    const { proxyOverhead, proxyOverheadTable } = await import('./probes/proxy-overhead.ts');
    report.proxy = await proxyOverhead({ requests: options.quick ? 200 : 1000, rounds: options.rounds });
    process.stdout.write(`\n${proxyOverheadTable(report.proxy)}\n`);
  }
  if (fake && options.sections.includes('replicas')) {
    // 1, 2 and 3 replicas on one PostgreSQL beside in-memory and SQLite (benchmarks/probes/replicas.ts).
    const { replicasBench, replicasTable } = await import('./probes/replicas.ts');
    report.replicas = await replicasBench({
      sizes: options.quick ? [0, 10_000] : [0, 100_000, 1_000_000],
      duration: options.quick ? 2 : 4,
      connections: 48,
      rounds: options.quick ? 1 : 3,
    });
    process.stdout.write(`\n${replicasTable(report.replicas)}\n`);
  }
  if (report.scale) {
    process.stdout.write(
      `\n| agents in store | how | cold start ms | RSS MB | GET req/s | GET p99 ms | execute req/s | execute p99 ms | deploys/s while filling |\n|---|---|---|---|---|---|---|---|---|\n`,
    );
    for (const row of report.scale) {
      process.stdout.write(
        `| ${fmt(row.agents)} | ${row.how} | ${fmt(row.coldStartMs)} | ${row.rssMb} | ${fmt(row.getRps)} | ${row.getP99} | ${fmt(row.executeRps)} | ${row.executeP99} | ${fmt(row.fillRps)} |\n`,
      );
    }
  }
  if (report.cold) {
    process.stdout.write(
      `\ncold start, spawn → first 201 (median): ${fmt(report.cold.withCacheMs)} ms with node's compile cache, ${fmt(report.cold.withoutCacheMs)} ms without\n`,
    );
  }
  if (report.steady) {
    const s = report.steady;
    process.stdout.write(
      `\nsteady load (${s.seconds} s, 50 conns, mixed valid/invalid): ${fmt(s.requests)} requests, ${s.unexpected5xx} 5xx, ${s.errors} errors; RSS start ${s.rssStartMb} MB, peak 1st half ${s.rssFirstHalfPeakMb} MB, peak 2nd half ${s.rssSecondHalfPeakMb} MB, ${s.rssLastThirdGrowthMb >= 0 ? '+' : ''}${s.rssLastThirdGrowthMb} MB over the last ${s.lastThirdSeconds} s, after 3 s idle ${s.rssAfterIdleMb} MB\n`,
    );
  }
  if (report.msw) {
    process.stdout.write(
      `\nmsw node interceptor (in-process fetch, no socket; no target): ${report.msw.map((r) => `${r.op} ${fmt(r.rps)} req/s at ${r.connections} in flight (p99 ${r.p99} ms)`).join('; ')}\n`,
    );
  }
  report.verdicts = verdicts(report);
  if (report.verdicts.length) {
    process.stdout.write(
      `\n${report.verdicts.map((v) => `${v.met ? 'MET ' : 'MISS'}  ${v.target}: ${v.figure}`).join('\n')}\n`,
    );
  }
  report.load.after = Math.round((loadavg()[0] ?? 0) * 100) / 100;
  process.stdout.write(
    `\n${report.date} · ${report.machine.cpu}, ${report.machine.cores} cores, ${report.machine.memoryGb} GB · node ${report.machine.node} · load average ${report.load.before} before, ${report.load.after} after\n`,
  );
  if (json) writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
}

if (import.meta.main) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      stopLoad();
      log(`bench: stopped by ${signal}; every server it started is being killed`);
      process.exit(130);
    });
  }

  await main(process.argv.slice(2)).catch((error: unknown) => {
    stopLoad();
    cliError(`bench failed: ${error instanceof Error ? error.message : String(error)}`, 1);
  });
}
