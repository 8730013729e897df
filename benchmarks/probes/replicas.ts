// The replicas section of `npm run bench`: deploy and GET req/s with 1, 2 and 3 replicas on one PostgreSQL, beside the
// in-memory fake and --state store.db, at 0, 100k and 1M stored agents; p99; a replica's start on the loaded database.
// Runs alone: `node benchmarks/probes/replicas.ts --help`. PostgreSQL is a throwaway cluster (test/support/postgres-cluster.ts).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { createFixedClock } from '../../mocks/domain/clock.ts';
import { createMockCore } from '../../mocks/assembly/mock-core.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';
import { openPostgresState } from '../../mocks/storage/postgres/postgres-state.ts';
import type { DeployRequest } from '../../spec/index.ts';
import { cliError } from '../../scripts/cli-error.ts';
import { parseCommandLine } from '../../scripts/command-line.ts';
import { startPostgresCluster } from '../../test/support/postgres-cluster.ts';
import { spawnServer, type SpawnedServer } from '../../test/support/spawned-server.ts';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { seedDatabase } from './persistence.ts';
import { deployBody } from '../servers.ts';
import { load, withCpu } from './replica-load.ts';

export interface ReplicasOptions {
  sizes: number[];
  /** Which targets (default all three kinds). */
  targets?: ReplicasTarget[];
  duration: number;
  connections: number;
  rounds: number;
  /**
   * Another checkout of the kit (its root directory): one replica of it on a database of its own, measured in the same
   * rounds as `postgres × 1 (baseline)`, for a before/after side by side.
   */
  baseline?: string;
}

export interface ReplicasRow {
  size: number;
  target: string;
  /** Spawn to listening line of the (first) server, ms. */
  startMs: number;
  deployRps: number;
  deployP99Ms: number;
  getRps: number;
  getP99Ms: number;
  non2xx: number;
  /** CPU per request, µs: the target's servers, and (PostgreSQL targets) the cluster's processes. */
  deployCpuUs: number;
  deployDbCpuUs: number;
  getCpuUs: number;
  getDbCpuUs: number;
  /** PostgreSQL over SQLite, the median of the per-round ratios (both measured in the same round, on the same load). */
  deployShare?: number;
  getShare?: number;
}

const SEED = 42;
const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** A database with `count` deployed agents: the template deployed through the storage, the rest copied in by SQL. */
export async function seedPostgres(url: string, count: number): Promise<string> {
  const state = await openPostgresState(url, { seed: SEED, catalogueSize: 36, logger: silentLogger });
  const core = createMockCore({ seed: SEED, ...state, clock: createFixedClock(Date.now()), logger: silentLogger });
  // The store's deploy checks the body with the spec's validator itself (a MockInputError names a bad field).
  const { agentId } = core.store.deploy(JSON.parse(deployBody) as DeployRequest, 'bench');
  await core.persist();
  await state.storage.close();
  if (count > 1) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // One transaction: the two secondary indexes are dropped and built again after the rows are in (one sorted build
    // instead of a million random insertions), then one INSERT … SELECT over generate_series copies the template's
    // JSON with its own 16-character id into each row.
    await client.query("BEGIN; SET LOCAL maintenance_work_mem = '256MB'");
    await client.query('ALTER TABLE ark_agents DROP CONSTRAINT ark_agents_agent_id_key; DROP INDEX ark_agents_version');
    await client.query(
      `INSERT INTO ark_agents (agent_id, catalogue_index, status, tasks_failed, agent, version)
       SELECT id, NULL, 'active', 0, replace(t.agent, $1, id), 1
       FROM ark_agents t, LATERAL (SELECT 'agt_' || substr(md5(i::text), 1, 16) AS id FROM generate_series(2, $2) i) g
       WHERE t.agent_id = $1`,
      [agentId, count],
    );
    await client.query(
      'ALTER TABLE ark_agents ADD CONSTRAINT ark_agents_agent_id_key UNIQUE (agent_id); CREATE INDEX ark_agents_version ON ark_agents (version); COMMIT',
    );
    await client.query('ANALYZE');
    await client.end();
  }
  return agentId;
}

const fake = (name: string, args: string[], root = '.'): Promise<SpawnedServer> =>
  spawnServer({
    name,
    args: [
      join(resolve(root), 'scripts/commands/serve.ts'),
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--seed',
      String(SEED),
      ...args,
    ],
    ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    timeoutMs: 600_000,
  });

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

interface Target {
  name: string;
  servers: SpawnedServer[];
  getId: string;
  runs: {
    deploy: number;
    deployP99: number;
    get: number;
    getP99: number;
    non2xx: number;
    deployCpu: number;
    deployDbCpu: number;
    getCpu: number;
    getDbCpu: number;
  }[];
}

/** The three kinds of target; `--targets postgres` skips the others (a 1M-agent in-memory preload over HTTP is long). */
export type ReplicasTarget = 'memory' | 'sqlite' | 'postgres';

/** Starts the targets for one size: in memory (preloaded over HTTP), SQLite, and three replicas on PostgreSQL. */
async function prepare(
  size: number,
  directory: string,
  urls: { url: string; baselineUrl: string | undefined; baseline: string | undefined },
  authorization: string,
  kinds: readonly ReplicasTarget[],
): Promise<Target[]> {
  const { url } = urls;
  const headers = { authorization, 'content-type': 'application/json' };
  const deployed = async (server: SpawnedServer): Promise<string> => {
    const answer = await fetch(`${server.baseUrl}/v1/agents/deploy`, { method: 'POST', headers, body: deployBody });
    return ((await answer.json()) as { agentId: string }).agentId;
  };
  const targets: Target[] = [];
  if (kinds.includes('memory')) {
    const memory = await fake('memory', []);
    if (size > 0)
      await load([`${memory.baseUrl}/v1/agents/deploy`], {
        method: 'POST',
        headers,
        body: deployBody,
        connections: 50,
        amount: size,
      });
    targets.push({ name: 'in memory', servers: [memory], getId: await deployed(memory), runs: [] });
  }
  if (kinds.includes('sqlite')) {
    const file = join(directory, `store-${size}.db`);
    if (size > 0) await seedDatabase(file, size);
    const sqlite = await fake('sqlite', ['--state', file]);
    targets.push({ name: '--state store.db', servers: [sqlite], getId: await deployed(sqlite), runs: [] });
  }
  if (kinds.includes('postgres')) {
    const before = performance.now();
    const pgAgent = await seedPostgres(url, size);
    log(
      `  seeded ${size.toLocaleString('en-US')} agents in PostgreSQL in ${Math.round(performance.now() - before)} ms`,
    );
    const replicas: SpawnedServer[] = [];
    for (let index = 0; index < 3; index += 1) replicas.push(await fake(`postgres ${index}`, ['--state', url]));
    log(
      `  replica start on ${size.toLocaleString('en-US')} agents: ${replicas.map((r) => Math.round(r.readyMs)).join(', ')} ms`,
    );
    for (const count of [1, 2, 3])
      targets.push({ name: `postgres × ${count}`, servers: replicas.slice(0, count), getId: pgAgent, runs: [] });
    if (urls.baseline && urls.baselineUrl) {
      // Seeded by the baseline's own code: its layout may differ from this checkout's.
      const theirs = (await import(
        pathToFileURL(join(resolve(urls.baseline), 'benchmarks/probes/replicas.ts')).href
      )) as {
        seedPostgres: typeof seedPostgres;
      };
      const baselineAgent = await theirs.seedPostgres(urls.baselineUrl, size);
      const server = await fake('postgres baseline', ['--state', urls.baselineUrl], urls.baseline);
      targets.push({ name: 'postgres × 1 (baseline)', servers: [server], getId: baselineAgent, runs: [] });
    }
  }
  return targets;
}

/** Measures every target, round after round in alternation, so a busy machine weighs on all alike. */
async function measureRounds(
  targets: readonly Target[],
  options: ReplicasOptions,
  authorization: string,
  dataDir: string,
): Promise<void> {
  const headers = { authorization, 'content-type': 'application/json' };
  const common = { connections: options.connections, duration: options.duration };
  for (let round = 0; round < options.rounds; round += 1)
    for (const target of targets) {
      const cluster = target.name.startsWith('postgres') ? dataDir : undefined;
      const deploy = await withCpu(target.servers, cluster, () =>
        load(
          target.servers.map((server) => `${server.baseUrl}/v1/agents/deploy`),
          { ...common, method: 'POST', headers, body: deployBody },
        ),
      );
      const get = await withCpu(target.servers, cluster, () =>
        load(
          target.servers.map((server) => `${server.baseUrl}/v1/agents/${target.getId}`),
          { ...common, headers: { authorization } },
        ),
      );
      target.runs.push({
        deploy: deploy.rps,
        deployP99: deploy.p99,
        get: get.rps,
        getP99: get.p99,
        non2xx: deploy.non2xx + get.non2xx,
        deployCpu: deploy.cpuUs,
        deployDbCpu: deploy.dbCpuUs,
        getCpu: get.cpuUs,
        getDbCpu: get.dbCpuUs,
      });
      const vacuums = cluster ? `, autovacuum runs ${deploy.autovacuums} / ${get.autovacuums}` : '';
      log(
        `  round ${round + 1}, ${target.name}: ${deploy.rps} deploys/s (${deploy.cpuUs} + ${deploy.dbCpuUs} µs CPU each), ${get.rps} GETs/s (${get.cpuUs} + ${get.dbCpuUs} µs)${vacuums} (load average ${loadavg()[0]?.toFixed(1)})`,
      );
    }
}

/** One row per target: medians of its rounds, PostgreSQL's shares of SQLite from ratios paired by round. */
function rowsOf(size: number, targets: readonly Target[]): ReplicasRow[] {
  const sqliteRuns = targets.find((target) => target.name === '--state store.db')?.runs;
  const share = (target: Target, key: 'deploy' | 'get'): number | undefined =>
    sqliteRuns && target.name.startsWith('postgres')
      ? median(target.runs.map((run, round) => run[key] / (sqliteRuns[round]?.[key] || Number.NaN)))
      : undefined;
  const of = (target: Target, key: keyof Target['runs'][number]): number => median(target.runs.map((run) => run[key]));
  return targets.map((target) => ({
    size,
    target: target.name,
    startMs: Math.round(target.servers[0]?.readyMs ?? 0),
    deployRps: of(target, 'deploy'),
    deployP99Ms: of(target, 'deployP99'),
    getRps: of(target, 'get'),
    getP99Ms: of(target, 'getP99'),
    non2xx: target.runs.reduce((sum, run) => sum + run.non2xx, 0),
    deployCpuUs: of(target, 'deployCpu'),
    deployDbCpuUs: of(target, 'deployDbCpu'),
    getCpuUs: of(target, 'getCpu'),
    getDbCpuUs: of(target, 'getDbCpu'),
    deployShare: share(target, 'deploy'),
    getShare: share(target, 'get'),
  }));
}

/**
 * Measures every target at every size (rounds in alternation); medians reported.
 * @example const rows = await replicasBench({ sizes: [0], duration: 3, connections: 48, rounds: 2 });
 */
export async function replicasBench(options: ReplicasOptions): Promise<ReplicasRow[]> {
  const cluster = await startPostgresCluster();
  const directory = mkdtempSync(join(tmpdir(), 'agent-registry-kit-bench-replicas-'));
  const authorization = `Bearer ${await mintToken({ sub: 'bench' })}`;
  const rows: ReplicasRow[] = [];
  try {
    for (const size of options.sizes) {
      log(`replicas: ${size.toLocaleString('en-US')} stored agents (load average ${loadavg()[0]?.toFixed(1)})…`);
      const url = await cluster.createDatabase(`bench_${size}`);
      const baseline = options.baseline;
      const baselineUrl = baseline ? await cluster.createDatabase(`bench_${size}_baseline`) : undefined;
      const targets = await prepare(
        size,
        directory,
        { url, baselineUrl, baseline },
        authorization,
        options.targets ?? ['memory', 'sqlite', 'postgres'],
      );
      try {
        await measureRounds(targets, options, authorization, join(cluster.dir, 'data'));
        rows.push(...rowsOf(size, targets));
      } finally {
        const servers = new Set(targets.flatMap((target) => target.servers));
        await Promise.all([...servers].map((server) => server.stop(10_000)));
      }
    }
  } finally {
    cluster.destroy();
    rmSync(directory, { recursive: true, force: true });
  }
  return rows;
}

/** The rows as a Markdown table, PostgreSQL as a share of SQLite at the same size. */
export function replicasTable(rows: ReplicasRow[]): string {
  const lines = [
    '| stored agents | target | deploy req/s | deploy p99 ms | GET req/s | GET p99 ms | deploy / SQLite (paired) | GET / SQLite (paired) | deploy CPU µs/req | GET CPU µs/req | start ms | non-2xx |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    // Server + PostgreSQL, for the replicas.
    const cpu = (server: number, database: number): string =>
      row.target.startsWith('postgres') ? `${server} + ${database}` : String(server);
    const share = (ratio: number | undefined): string =>
      ratio !== undefined && Number.isFinite(ratio) ? `${Math.round(100 * ratio)} %` : '';
    lines.push(
      `| ${row.size.toLocaleString('en-US')} | ${row.target} | ${row.deployRps.toLocaleString('en-US')} | ${row.deployP99Ms} | ${row.getRps.toLocaleString('en-US')} | ${row.getP99Ms} | ${share(row.deployShare)} | ${share(row.getShare)} | ${cpu(row.deployCpuUs, row.deployDbCpuUs)} | ${cpu(row.getCpuUs, row.getDbCpuUs)} | ${row.startMs} | ${row.non2xx} |`,
    );
  }
  return lines.join('\n');
}

const usage =
  'usage: node benchmarks/probes/replicas.ts [--sizes 0,100000,1000000] [--targets memory,sqlite,postgres] [--duration S] [--connections N] [--rounds N] [--baseline DIR] [--quick]';

/**
 * Runs the section on its own and prints the table.
 * @example await main(['--sizes', '0', '--duration', '2']);
 */
export async function main(args: string[]): Promise<void> {
  const values = parseCommandLine(
    {
      sizes: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string', default: '48' },
      rounds: { type: 'string' },
      quick: { type: 'boolean', default: false },
      targets: { type: 'string', default: 'memory,sqlite,postgres' },
      baseline: { type: 'string' },
    },
    { usage },
    args,
  );
  const sizes = (values.sizes ?? (values.quick ? '0,10000' : '0,100000,1000000')).split(',').map(Number);
  const duration = Number(values.duration ?? (values.quick ? '2' : '4'));
  const connections = Number(values.connections);
  const rounds = Number(values.rounds ?? (values.quick ? '1' : '3'));
  if (sizes.some((size) => !Number.isInteger(size) || size < 0 || size > 10_000_000))
    cliError(`--sizes takes whole numbers from 0 to 10000000, comma-separated; ${usage}`);
  if (!(duration > 0) || !Number.isInteger(connections) || connections < 1 || !Number.isInteger(rounds) || rounds < 1)
    cliError(`--duration must be positive, --connections and --rounds positive integers; ${usage}`);
  const before = loadavg()[0]?.toFixed(2);
  const kinds = values.targets.split(',');
  const targets = kinds.filter((kind): kind is ReplicasTarget => ['memory', 'sqlite', 'postgres'].includes(kind));
  if (targets.length === 0 || targets.length !== kinds.length)
    cliError(`--targets takes memory, sqlite and postgres, comma-separated; ${usage}`);
  if (values.baseline !== undefined && !existsSync(join(values.baseline, 'scripts/commands/serve.ts')))
    cliError(`--baseline takes the root of another checkout of the kit (with scripts/commands/serve.ts); ${usage}`);
  const rows = await replicasBench({ sizes, duration, connections, rounds, targets, baseline: values.baseline });
  process.stdout.write(
    `load average before ${before}, after ${loadavg()[0]?.toFixed(2)} (2 cores, shared)\n${replicasTable(rows)}\n`,
  );
}

if (import.meta.main) await main(process.argv.slice(2));
