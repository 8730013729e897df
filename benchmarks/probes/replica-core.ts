// What a PostgreSQL replica costs without HTTP in the way: deploys and GETs straight through a core (48 callers), on
// SQLite and on PostgreSQL, optionally beside the PostgreSQL storage of another checkout, in interleaved rounds; CPU per
// request of this process and of the cluster. Less swayed by a busy machine than the HTTP bench (no load generator).
// Runs alone: `node benchmarks/probes/replica-core.ts --help`. PostgreSQL is a throwaway cluster (test/support/postgres-cluster.ts).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mintToken } from '../../mocks/core/request/auth.ts';
import type { MockCore, MockCoreOptions } from '../../mocks/assembly/mock-core.ts';
import type { MockRequest } from '../../mocks/core/mock-http.ts';
import type { Storage } from '../../mocks/state/storage.ts';
import { cliError } from '../../scripts/cli-error.ts';
import { parseCommandLine } from '../../scripts/command-line.ts';
import { startPostgresCluster } from '../../test/support/postgres-cluster.ts';
import { cpuSnapshot, cpuSpent, postgresPids } from '../process-cpu.ts';
import { deployBody } from '../servers.ts';

const SEED = 42;
const CALLERS = 48;

type StoreIdentity = { seed: number; catalogueSize: number; logger: unknown };

/** What this bench needs of a checkout of the kit (this one or the baseline's). */
interface Kit {
  createMockCore(options: MockCoreOptions): MockCore;
  /** The shared state: its storage and the options of createMockCore that put a core on it. */
  openPostgresState(url: string, options: StoreIdentity): Promise<MockCoreOptions & { storage: Storage }>;
  openSqliteStorage(file: string, options: StoreIdentity): Storage;
  silentLogger: unknown;
}

async function loadKit(root: string): Promise<Kit> {
  const module = (path: string): Promise<Record<string, unknown>> =>
    import(pathToFileURL(join(resolve(root), path)).href) as Promise<Record<string, unknown>>;
  // A baseline checkout may keep the assembly and the logger where they were before mocks/ had its floors.
  const found = (path: string, before: string) => (existsSync(join(resolve(root), path)) ? path : before);
  const [core, postgres, sqlite, logger] = await Promise.all([
    module(found('mocks/assembly/mock-core.ts', 'mocks/core/core.ts')),
    module('mocks/storage/postgres/postgres-storage.ts'),
    module('mocks/storage/sqlite/sqlite-storage.ts'),
    module(found('mocks/domain/logger.ts', 'mocks/core/logger.ts')),
  ]);
  // A checkout from before mocks/storage/postgres/postgres-state.ts: its core wires the replica layer itself.
  const state = existsSync(join(resolve(root), 'mocks/storage/postgres/postgres-state.ts'))
    ? await module('mocks/storage/postgres/postgres-state.ts')
    : {
        openPostgresState: async (url: string, options: StoreIdentity) => ({
          storage: await (postgres.openPostgresStorage as (url: string, options: StoreIdentity) => Promise<Storage>)(
            url,
            options,
          ),
        }),
      };
  return { ...core, ...postgres, ...state, ...sqlite, ...logger } as unknown as Kit;
}

interface Target {
  name: string;
  core: MockCore;
  agentId: string;
  runs: { deploy: Run[]; get: Run[] };
}

interface Run {
  rps: number;
  cpuUs: number;
  dbCpuUs: number;
}

/** `duration` ms of one request kind through a core, 48 callers at once; CPU of this process and of the cluster. */
async function measure(target: Target, request: MockRequest, duration: number, dataDir: string): Promise<Run> {
  const pids = postgresPids(dataDir);
  const dbBefore = cpuSnapshot(pids);
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  let requests = 0;
  const caller = async (): Promise<void> => {
    while (performance.now() < start + duration) {
      const response = await target.core.handle(request);
      if (response.status >= 300) throw new Error(`${target.name} answered ${response.status}: ${response.body}`);
      requests += 1;
    }
  };
  await Promise.all(Array.from({ length: CALLERS }, caller));
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const dbSeconds = cpuSpent(dbBefore, cpuSnapshot(pids));
  return {
    rps: Math.round(requests / seconds),
    cpuUs: Math.round((cpu.user + cpu.system) / requests),
    dbCpuUs: Math.round((dbSeconds * 1e6) / requests),
  };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const usage =
  'usage: node benchmarks/probes/replica-core.ts [--duration MS] [--rounds N] [--baseline DIR] (DIR: another checkout of the kit)';

/**
 * Runs the rounds and prints one line per round and the medians, PostgreSQL's shares of SQLite paired by round.
 * @example await main(['--duration', '2000', '--rounds', '5', '--baseline', '/tmp/before']);
 */
export async function main(args: string[]): Promise<void> {
  const values = parseCommandLine(
    {
      duration: { type: 'string', default: '2000' },
      rounds: { type: 'string', default: '5' },
      baseline: { type: 'string' },
    },
    { usage },
    args,
  );
  const duration = Number(values.duration);
  const rounds = Number(values.rounds);
  if (!(duration > 0) || !Number.isInteger(rounds) || rounds < 1)
    cliError(`--duration takes milliseconds above 0 and --rounds a positive integer; ${usage}`);
  if (values.baseline !== undefined && !existsSync(join(values.baseline, 'mocks/storage/postgres/postgres-storage.ts')))
    cliError(
      `--baseline takes the root of another checkout of the kit (with mocks/storage/postgres/postgres-storage.ts); ${usage}`,
    );
  const cluster = await startPostgresCluster();
  const directory = mkdtempSync(join(tmpdir(), 'agent-registry-kit-bench-replica-core-'));
  try {
    const targets = await prepare(cluster, directory, values.baseline);
    await runRounds(targets, duration, rounds, join(cluster.dir, 'data'));
  } finally {
    cluster.destroy();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** SQLite and PostgreSQL of this checkout, and PostgreSQL of the baseline's, each on a store of its own. */
async function prepare(
  cluster: Awaited<ReturnType<typeof startPostgresCluster>>,
  directory: string,
  baseline: string | undefined,
): Promise<Target[]> {
  const own = await loadKit('.');
  const kits: [string, Kit][] = [['postgres', own]];
  if (baseline) kits.push(['postgres (baseline)', await loadKit(baseline)]);
  const options = (kit: Kit) => ({ seed: SEED, catalogueSize: 36, logger: kit.silentLogger });
  const states: [string, Kit, MockCoreOptions][] = [
    ['--state store.db', own, { storage: own.openSqliteStorage(join(directory, 'store.db'), options(own)) }],
  ];
  for (const [name, kit] of kits) {
    const url = await cluster.createDatabase(`core_${states.length}`);
    states.push([name, kit, await kit.openPostgresState(url, options(kit))]);
  }
  const targets: Target[] = [];
  for (const [name, kit, state] of states) {
    const core = kit.createMockCore({ seed: SEED, ...state, logger: kit.silentLogger as MockCoreOptions['logger'] });
    const deployed = await core.handle(await deployRequest());
    const agentId = String((JSON.parse(deployed.body) as { agentId?: unknown }).agentId);
    targets.push({ name, core, agentId, runs: { deploy: [], get: [] } });
  }
  return targets;
}

let authorization = '';
async function deployRequest(): Promise<MockRequest> {
  authorization ||= `Bearer ${await mintToken({ sub: 'bench' })}`;
  const headers = { authorization, 'content-type': 'application/json' };
  return { method: 'POST', path: '/v1/agents/deploy', query: '', headers, body: new TextEncoder().encode(deployBody) };
}

async function runRounds(targets: Target[], duration: number, rounds: number, dataDir: string): Promise<void> {
  const deploy = await deployRequest();
  for (let round = 1; round <= rounds; round += 1)
    for (const kind of ['deploy', 'get'] as const) {
      const cells: string[] = [];
      for (const target of targets) {
        const get = {
          method: 'GET',
          path: `/v1/agents/${target.agentId}`,
          query: '',
          headers: { authorization },
          body: null,
        };
        const run = await measure(target, kind === 'deploy' ? deploy : get, duration, dataDir);
        target.runs[kind].push(run);
        cells.push(`${target.name} ${run.rps}/s (${run.cpuUs} + ${run.dbCpuUs} µs)`);
      }
      process.stdout.write(`round ${round} ${kind}: ${cells.join(' | ')} (load average ${loadavg()[0]?.toFixed(1)})\n`);
    }
  const sqlite = targets[0];
  for (const kind of ['deploy', 'get'] as const)
    for (const target of targets) {
      const of = (key: keyof Run): number => median(target.runs[kind].map((run) => run[key]));
      const share = median(
        target.runs[kind].map((run, index) => run.rps / (sqlite?.runs[kind][index]?.rps || Number.NaN)),
      );
      process.stdout.write(
        `median ${kind}, ${target.name}: ${of('rps')}/s, ${of('cpuUs')} + ${of('dbCpuUs')} µs CPU per request${target === sqlite ? '' : `, ${Math.round(100 * share)} % of SQLite's (paired)`}\n`,
      );
    }
}

if (import.meta.main) await main(process.argv.slice(2));
