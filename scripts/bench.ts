// `npm run bench`: measures the standalone fake against Prism and a bare node:http ceiling, interleaved round by round,
// then the fake's cold start, its memory with 1k/10k/100k agents, its memory under a steady load and the msw path.
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, totalmem, platform, release } from 'node:os';
import { getAtPointer, openapiDocument } from '../spec/index.ts';
import { cliError } from './cli-error.ts';
import { parseCommandLine } from './command-line.ts';
import {
  canPin,
  cpuSecondsOf,
  freePort,
  memoryOf,
  repoRoot,
  spawnServer,
  type SpawnedServer,
} from './spawned-server.ts';

const usage =
  'usage: npm run bench -- [--quick] [--duration S] [--rounds N] [--connections 1,50] [--targets fake,prism,bare] ' +
  '[--sections throughput,cold,scale,steady,msw,persistence] [--scale 1000,10000,100000] [--steady S] [--json FILE] [--fake-node-args="--cpu-prof --cpu-prof-dir=artifacts/prof"]';

type Target = 'fake' | 'prism' | 'bare';
type Op = 'getAgent' | 'deployAgent' | 'executeAgentTask';
type Section = 'throughput' | 'cold' | 'scale' | 'steady' | 'msw' | 'persistence';
const allTargets: Target[] = ['fake', 'prism', 'bare'];
const allOps: Op[] = ['getAgent', 'deployAgent', 'executeAgentTask'];
const allSections: Section[] = ['throughput', 'cold', 'scale', 'steady', 'msw', 'persistence'];

function list<T extends string>(flag: string, raw: string, allowed: readonly T[]): T[] {
  const values = raw
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  for (const value of values)
    if (!allowed.includes(value as T)) cliError(`--${flag} takes ${allowed.join(', ')}; got ${value}`);
  return values as T[];
}

function positive(flag: string, raw: string, integer: boolean): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    cliError(`--${flag} must be a positive ${integer ? 'integer' : 'number'}, got ${raw}; ${usage}`);
  }
  return value;
}

function readOptions() {
  const values = parseCommandLine(
    {
      quick: { type: 'boolean', default: false },
      duration: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string', default: '1,50' },
      targets: { type: 'string', default: allTargets.join(',') },
      sections: { type: 'string', default: allSections.join(',') },
      scale: { type: 'string' },
      steady: { type: 'string' },
      json: { type: 'string' },
      'fake-node-args': { type: 'string', default: '' },
    },
    { usage },
  );
  const quick = values.quick;
  return {
    quick,
    duration: positive('duration', values.duration ?? (quick ? '1' : '4'), false),
    rounds: positive('rounds', values.rounds ?? (quick ? '1' : '3'), true),
    connections: values.connections.split(',').map((raw) => positive('connections', raw, true)),
    targets: list('targets', values.targets, allTargets),
    sections: list('sections', values.sections, allSections),
    scale: (values.scale ?? (quick ? '1000' : '1000,10000,100000'))
      .split(',')
      .map((raw) => positive('scale', raw, true)),
    steady: positive('steady', values.steady ?? (quick ? '3' : '60'), false),
    json: values.json,
    fakeNodeArgs: values['fake-node-args'].split(' ').filter(Boolean),
  };
}

type Options = ReturnType<typeof readOptions>;

function example(name: string): string {
  const value = getAtPointer(openapiDocument, `/components/examples/${name}/value`);
  if (value === undefined) throw new Error(`spec/openapi.yaml has no example ${name}`);
  return JSON.stringify(value);
}
const deployBody = example('DeployRequestTrading');
const executeBody = example('ExecuteRequestAnalysis');
const serverCpu = 0;
const loadCpu = 1;

// ---------------------------------------------------------------------------------------------------------------------
// Servers

let bearer = '';
function token(): string {
  if (bearer) return bearer;
  try {
    bearer = execFileSync(process.execPath, ['scripts/token.ts'], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim().split('\n').at(-1) ?? '';
    cliError(
      `cannot get a token from scripts/token.ts (${stderr || (error as Error).message}); is the fake backend built? Try --targets prism,bare`,
      1,
    );
  }
  return bearer;
}

function headers(): Record<string, string> {
  return { authorization: `Bearer ${token()}`, 'content-type': 'application/json' };
}

async function startTarget(
  target: Target,
  options: Options,
  fakeArgs: string[] = [],
  env?: NodeJS.ProcessEnv,
): Promise<SpawnedServer> {
  switch (target) {
    case 'fake':
      return spawnServer({
        name: 'fake',
        args: [...options.fakeNodeArgs, 'scripts/start.ts', '--port', '0', '--host', '127.0.0.1', ...fakeArgs],
        ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
        cpu: serverCpu,
        ...(env && { env }),
      });
    case 'bare':
      return spawnServer({
        name: 'bare',
        args: ['scripts/bench-baseline-server.ts', '--port', '0'],
        ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
        cpu: serverCpu,
      });
    case 'prism': {
      const port = await freePort();
      return spawnServer({
        name: 'prism',
        args: [
          'node_modules/@stoplight/prism-cli/dist/index.js',
          'mock',
          'spec/openapi.yaml',
          '-h',
          '127.0.0.1',
          '-p',
          String(port),
        ],
        ready: /Prism is listening/,
        port,
        cpu: serverCpu,
      });
    }
  }
}

/** Deploys one agent; resolves with its id once the server answers 2xx (retrying while the socket is not yet accepting). */
async function deployOne(server: SpawnedServer): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    try {
      const response = await fetch(`${server.baseUrl}/v1/agents/deploy`, {
        method: 'POST',
        headers: headers(),
        body: deployBody,
      });
      const text = await response.text();
      if (response.status === 201) {
        const parsed: unknown = JSON.parse(text);
        const id = typeof parsed === 'object' && parsed !== null && 'agentId' in parsed ? parsed.agentId : undefined;
        if (typeof id !== 'string')
          throw new Error(`${server.name} deploy answered without an agentId: ${text.slice(0, 200)}`);
        return id;
      }
      throw new Error(`${server.name} answered deploy with ${response.status}: ${text.slice(0, 300)}`);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith(server.name)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  throw new Error(`${server.name} never answered a deploy`);
}

interface Started {
  server: SpawnedServer;
  agentId: string;
  /** Spawn to the first successful deploy, in ms. */
  coldStartMs: number;
}

async function startAndProbe(
  target: Target,
  options: Options,
  fakeArgs: string[] = [],
  env?: NodeJS.ProcessEnv,
): Promise<Started> {
  const before = performance.now();
  const server = await startTarget(target, options, fakeArgs, env);
  const agentId = await deployOne(server);
  return { server, agentId, coldStartMs: performance.now() - before };
}

// ---------------------------------------------------------------------------------------------------------------------
// Load

let current: autocannon.Instance | undefined;

interface Run {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  /** Share of one core the server used during the run; well under 100 % means the load generator was the limit. */
  serverCpu: number;
  non2xx: number;
  errors: number;
}

function requestFor(op: Op, agentId: string): { method: 'GET' | 'POST'; path: string; body?: string } {
  switch (op) {
    case 'getAgent':
      return { method: 'GET', path: `/v1/agents/${agentId}` };
    case 'deployAgent':
      return { method: 'POST', path: '/v1/agents/deploy', body: deployBody };
    case 'executeAgentTask':
      return { method: 'POST', path: `/v1/agents/${agentId}/execute`, body: executeBody };
  }
}

function load(url: string, options: Partial<autocannon.Options>): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    current = autocannon({ url, timeout: 10, ...options }, (error, result) => {
      current = undefined;
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve(result);
    });
  });
}

async function measure(started: Started, op: Op, connections: number, duration: number): Promise<Run> {
  const request = requestFor(op, started.agentId);
  const cpuBefore = cpuSecondsOf(started.server.pid);
  const result = await load(`${started.server.baseUrl}${request.path}`, {
    method: request.method,
    headers: headers(),
    body: request.body,
    connections,
    duration,
  });
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    serverCpu: Math.round((100 * (cpuSecondsOf(started.server.pid) - cpuBefore)) / result.duration),
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;
const fmt = (value: number, digits = 0): string =>
  Number.isFinite(value)
    ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : 'n/a';
const log = (line: string): void => void process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------------------------------
// Sections

interface ThroughputRow {
  op: Op;
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

async function throughput(options: Options) {
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

interface ScaleRow {
  agents: number;
  /** `seeded`: started with --agents N; `deployed`: filled through POST /v1/agents/deploy. */
  how: 'seeded' | 'deployed';
  coldStartMs: number;
  rssMb: number;
  fillRps: number;
  getRps: number;
  getP99: number;
  executeRps: number;
  executeP99: number;
}

async function scaleRow(options: Options, size: number, how: ScaleRow['how']): Promise<ScaleRow> {
  const probe = await startAndProbe('fake', options, how === 'seeded' ? ['--agents', String(size)] : []);
  try {
    let fillRps = Number.NaN;
    if (how === 'deployed') {
      const health = (await (await fetch(`${probe.server.baseUrl}/__mock/health`)).json()) as { agents: number };
      const fill = await load(`${probe.server.baseUrl}/v1/agents/deploy`, {
        method: 'POST',
        headers: headers(),
        body: deployBody,
        connections: 50,
        amount: Math.max(0, size - health.agents),
      });
      if (fill.non2xx || fill.errors)
        throw new Error(`filling the fake to ${size} agents: ${fill.non2xx} non-2xx, ${fill.errors} errors`);
      fillRps = fill.requests.total / fill.duration;
    }
    // Let the allocator settle so RSS is the store's, not a burst's.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const rss = memoryOf(probe.server.pid).rss;
    const get = await measure(probe, 'getAgent', 50, options.duration);
    const execute = await measure(probe, 'executeAgentTask', 50, options.duration);
    log(
      `scale ${fmt(size)} agents (${how}): cold start ${fmt(probe.coldStartMs)} ms, RSS ${mb(rss)} MB, GET ${fmt(get.rps)} req/s p99 ${get.p99} ms, execute ${fmt(execute.rps)} req/s p99 ${execute.p99} ms${how === 'deployed' ? `, filled at ${fmt(fillRps)} deploys/s` : ''}`,
    );
    return {
      agents: size,
      how,
      coldStartMs: probe.coldStartMs,
      rssMb: mb(rss),
      fillRps,
      getRps: get.rps,
      getP99: get.p99,
      executeRps: execute.rps,
      executeP99: execute.p99,
    };
  } finally {
    await probe.server.stop();
  }
}

/**
 * The fake's cold start, spawn → first 201, with node's compile cache as a second start finds it and without it (as the
 * very first start on a machine, or with NODE_DISABLE_COMPILE_CACHE=1).
 */
async function coldStarts(options: Options) {
  const samples = options.quick ? 2 : 5;
  const result: Record<'withCache' | 'withoutCache', number[]> = { withCache: [], withoutCache: [] };
  for (let index = 0; index < samples; index += 1) {
    for (const mode of ['withCache', 'withoutCache'] as const) {
      const env = mode === 'withCache' ? process.env : { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' };
      const probe = await startAndProbe('fake', options, [], env);
      result[mode].push(Math.round(probe.coldStartMs));
      await probe.server.stop();
    }
  }
  const summary = {
    withCacheMs: median(result.withCache),
    withoutCacheMs: median(result.withoutCache),
    samples: result,
  };
  log(
    `cold start (median of ${samples}): ${fmt(summary.withCacheMs)} ms with the compile cache, ${fmt(summary.withoutCacheMs)} ms without`,
  );
  return summary;
}

/** The fake with 1k, 10k and 100k agents: seeded at start (--agents), and the largest also reached through deploys. */
async function scale(options: Options): Promise<ScaleRow[]> {
  const sizes = [...options.scale].sort((a, b) => a - b);
  const rows: ScaleRow[] = [];
  for (const size of sizes) rows.push(await scaleRow(options, size, 'seeded'));
  const largest = sizes.at(-1);
  if (largest !== undefined) rows.push(await scaleRow(options, largest, 'deployed'));
  return rows;
}

async function steady(options: Options) {
  const probe = await startAndProbe('fake', options);
  const auth = headers();
  // Mixed traffic that must not grow memory: retrievals, task submissions (whose history is bounded), and errors.
  const requests: autocannon.Request[] = [
    { method: 'GET', path: `/v1/agents/${probe.agentId}`, headers: auth },
    { method: 'POST', path: `/v1/agents/${probe.agentId}/execute`, headers: auth, body: executeBody },
    { method: 'GET', path: '/v1/agents/agt_doesNotExist', headers: auth },
    { method: 'POST', path: '/v1/agents/deploy', headers: auth, body: '{"name":' },
    { method: 'GET', path: `/v1/agents/${probe.agentId}`, headers: { authorization: 'Bearer not-a-jwt' } },
  ];
  const samples: { second: number; rssMb: number }[] = [];
  const began = performance.now();
  const timer = setInterval(
    () =>
      samples.push({
        second: Math.round((performance.now() - began) / 100) / 10,
        rssMb: mb(memoryOf(probe.server.pid).rss),
      }),
    1000,
  );
  let result: autocannon.Result;
  try {
    result = await load(probe.server.baseUrl, { requests, connections: 50, duration: options.steady });
    clearInterval(timer);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    samples.push({
      second: Math.round((performance.now() - began) / 100) / 10,
      rssMb: mb(memoryOf(probe.server.pid).rss),
    });
  } finally {
    clearInterval(timer);
    await probe.server.stop();
  }
  const during = samples.slice(0, -1);
  const half = Math.floor(during.length / 2);
  // V8 grows its heap in steps early on; what matters is whether RSS has stopped climbing by the last third of the run.
  const lastThird = during.slice(Math.floor((2 * during.length) / 3));
  const summary = {
    seconds: options.steady,
    requests: result.requests.total,
    unexpected5xx: result['5xx'],
    errors: result.errors,
    rssStartMb: samples[0]?.rssMb ?? Number.NaN,
    rssFirstHalfPeakMb: Math.max(...during.slice(0, half).map((s) => s.rssMb), 0),
    rssSecondHalfPeakMb: Math.max(...during.slice(half).map((s) => s.rssMb), 0),
    rssLastThirdGrowthMb: Math.round(((lastThird.at(-1)?.rssMb ?? 0) - (lastThird[0]?.rssMb ?? 0)) * 10) / 10,
    lastThirdSeconds: Math.round((lastThird.at(-1)?.second ?? 0) - (lastThird[0]?.second ?? 0)),
    rssAfterIdleMb: samples.at(-1)?.rssMb ?? Number.NaN,
    samples,
  };
  log(
    `steady ${options.steady} s: ${fmt(result.requests.total)} requests, RSS ${summary.rssStartMb} → peak ${summary.rssFirstHalfPeakMb} (1st half) / ${summary.rssSecondHalfPeakMb} (2nd half), ${summary.rssLastThirdGrowthMb >= 0 ? '+' : ''}${summary.rssLastThirdGrowthMb} MB over the last ${summary.lastThirdSeconds} s → ${summary.rssAfterIdleMb} MB after 3 s idle`,
  );
  return summary;
}

async function mswPath(options: Options) {
  const rows: { op: Op; connections: number; rps: number; p50: number; p99: number; failures: number }[] = [];
  for (const op of ['getAgent', 'deployAgent'] as const) {
    for (const connections of options.connections) {
      const args = [
        'scripts/bench-msw-interceptor.ts',
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

// ---------------------------------------------------------------------------------------------------------------------
// Report

function table(result: Awaited<ReturnType<typeof throughput>>, options: Options): string {
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

interface Verdict {
  target: string;
  met: boolean;
  figure: string;
}

function verdicts(report: Report): Verdict[] {
  const out: Verdict[] = [];
  const rows = report.throughput?.rows ?? [];
  const at = (target: Target, op: Op, connections: number) =>
    rows.find((r) => r.target === target && r.op === op && r.connections === connections);
  for (const op of ['getAgent', 'deployAgent'] as const) {
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

interface Report {
  date: string;
  machine: { cpu: string; cores: number; memoryGb: number; os: string; node: string; pinned: boolean };
  /** 1-minute load average before and after: other work on the machine shows here, and skews every figure. */
  load: { before: number; after?: number };
  options: Omit<Options, 'json'>;
  throughput?: Awaited<ReturnType<typeof throughput>>;
  cold?: Awaited<ReturnType<typeof coldStarts>>;
  scale?: Awaited<ReturnType<typeof scale>>;
  steady?: Awaited<ReturnType<typeof steady>>;
  msw?: Awaited<ReturnType<typeof mswPath>>;
  persistence?: import('./bench/persistence.ts').PersistenceRow[];
  verdicts?: Verdict[];
}

/** The first fetch in a process loads undici (~80 ms); pay that before any cold start is timed. */
async function warmUpFetch(): Promise<void> {
  const server = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await (await fetch(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`)).text();
  await new Promise((resolve) => server.close(resolve));
}

async function main(): Promise<void> {
  const options = readOptions();
  const pinned = canPin();
  // The load generator gets its own core, so the server under test is not measured against autocannon's CPU use.
  if (pinned) execFileSync('taskset', ['-pc', String(loadCpu), String(process.pid)], { stdio: 'ignore' });
  // Prism accepts any non-empty bearer and the bare server none at all; only the fake needs a real token.
  if (!options.targets.includes('fake')) bearer = 'any-token-prism-and-bare-do-not-verify';
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
    process.stdout.write(`\n${table(report.throughput, options)}\n`);
  }
  const fake = options.targets.includes('fake');
  if (fake && options.sections.includes('cold')) report.cold = await coldStarts(options);
  if (fake && options.sections.includes('scale')) report.scale = await scale(options);
  if (fake && options.sections.includes('steady')) report.steady = await steady(options);
  if (fake && options.sections.includes('msw')) report.msw = await mswPath(options);
  if (fake && options.sections.includes('persistence')) {
    // Its own module (scripts/bench/persistence.ts): --state store.db beside in-memory at 0, 100k and 1M stored agents.
    const { persistenceBench, persistenceTable } = await import('./bench/persistence.ts');
    const sizes = options.quick ? [0, 10_000] : [0, 100_000, 1_000_000];
    report.persistence = await persistenceBench({
      sizes,
      duration: options.quick ? 2 : 5,
      connections: 50,
      rounds: options.quick ? 1 : 3,
    });
    process.stdout.write(`\n${persistenceTable(report.persistence)}\n`);
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

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    current?.stop();
    log(`bench: stopped by ${signal}; every server it started is being killed`);
    process.exit(130);
  });
}

main().catch((error: unknown) => {
  current?.stop();
  cliError(`bench failed: ${error instanceof Error ? error.message : String(error)}`, 1);
});
