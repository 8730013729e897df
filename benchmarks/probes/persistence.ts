// The persistence section of `npm run bench`: deploy req/s with `--state store.db` beside the in-memory fake at 0, 100,000
// and 1,000,000 stored agents, the start time and the RSS. Runs alone: `node benchmarks/probes/persistence.ts --help`.
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createFixedClock } from '../../mocks/domain/clock.ts';
import { createMockCore } from '../../mocks/assembly/mock-core.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';
import { createRandom } from '../../mocks/domain/random.ts';
import { openSqliteStorage } from '../../mocks/storage/sqlite/sqlite-storage.ts';
import { primaryCreation } from '../../verifier-client/requests/linked-operations.ts';
import { fillPath } from '../../verifier-client/requests/path-parameters.ts';
import type { DeployRequest } from '../../spec/index.ts';
import { cliError } from '../../scripts/cli-error.ts';
import { parseCommandLine } from '../../scripts/command-line.ts';
import { canPin, memoryOf, repoRoot, spawnServer, type SpawnedServer } from '../../test/support/spawned-server.ts';
import { requestBody } from '../servers.ts';

export interface PersistenceOptions {
  /** Stored (deployed) agents before the measured run. */
  sizes: number[];
  /** Seconds of deploy load per measurement. */
  duration: number;
  connections: number;
  /** Measurements per fake, alternating (the median is reported). */
  rounds: number;
}

export interface PersistenceRow {
  mode: 'in memory' | '--state';
  size: number;
  /** Spawn to the listening line, ms (with --state: opening and checking the database). */
  startMs: number;
  /** RSS once the agents are there, before the measured load (MB). */
  rssMb: number;
  /** Highest RSS by the end of the measured load (MB). */
  peakRssMb: number;
  deployRps: number;
  p99Ms: number;
  non2xx: number;
  /** Size of the database file with its WAL (MB), --state only. */
  databaseMb: number | undefined;
}

const SEED = 42;
const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;
const log = (line: string): void => void process.stderr.write(`${line}\n`);

// The write measured is the spec's creating operation (its links say which: the deploy), with its first example.
const { creator } = primaryCreation();
const deployPath = fillPath(creator, {});

function deployBody(): string {
  return requestBody(creator) ?? '{}';
}

function bearer(): string {
  return `Bearer ${execFileSync(process.execPath, ['scripts/commands/token.ts'], { cwd: repoRoot, encoding: 'utf8' }).trim()}`;
}

/**
 * Writes `count` deployed agents straight into a state database (no HTTP): a new database as the fake makes it, then
 * rows in one transaction, each a real deploy's record with its own id.
 * @example await seedDatabase('/tmp/store.db', 1_000_000);
 */
export async function seedDatabase(file: string, count: number): Promise<void> {
  const storage = openSqliteStorage(file, { seed: SEED, catalogueSize: 36, maxTasks: 10_000, logger: silentLogger });
  const core = createMockCore({ seed: SEED, storage, clock: createFixedClock(Date.now()), logger: silentLogger });
  await core.persist();
  // The store's own deploy method makes the template record, so this one call names the body it takes.
  // The store's deploy checks the body with the spec's validator itself (a MockInputError names a bad field).
  const template = core.store.get(core.store.deploy(JSON.parse(deployBody()) as DeployRequest, 'bench').agentId);
  await core.persist();
  await storage.close();
  if (!template) throw new Error('the template agent was not deployed');
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = OFF');
  const insert = db.prepare(
    "INSERT INTO agents (agent_id, catalogue_index, status, tasks_failed, agent) VALUES (?, NULL, 'active', 0, ?)",
  );
  const random = createRandom(0xbe9c4);
  db.exec('BEGIN');
  for (let index = 1; index < count; index += 1) {
    const agentId = `agt_${random.string(16)}`;
    insert.run(agentId, JSON.stringify({ ...template, agentId }));
  }
  db.exec('COMMIT');
  db.close();
}

function fileMb(file: string): number {
  let bytes = 0;
  for (const name of [file, `${file}-wal`]) {
    try {
      bytes += statSync(name).size;
    } catch {
      // No WAL after a clean close.
    }
  }
  return mb(bytes);
}

function load(url: string, options: Partial<autocannon.Options>): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, timeout: 20, ...options }, (error, result) => {
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve(result);
    });
  });
}

/** A started server with its agents in place, ready to be measured. */
interface Prepared {
  mode: PersistenceRow['mode'];
  server: SpawnedServer;
  file: string | undefined;
  rss: number;
  runs: { rps: number; p99: number; non2xx: number }[];
}

async function prepare(
  mode: PersistenceRow['mode'],
  size: number,
  directory: string,
  headers: Record<string, string>,
): Promise<Prepared> {
  const args = ['scripts/commands/serve.ts', '--port', '0', '--host', '127.0.0.1', '--seed', String(SEED)];
  let file: string | undefined;
  if (mode === '--state') {
    file = join(directory, `store-${size}.db`);
    const before = performance.now();
    if (size > 0) await seedDatabase(file, size);
    if (size > 0)
      log(`  seeded ${size.toLocaleString('en-US')} agents in SQLite in ${Math.round(performance.now() - before)} ms`);
    args.push('--state', file);
  }
  const server = await spawnServer({
    name: `fake ${mode}`,
    args,
    ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    timeoutMs: 300_000,
    ...(canPin() && { cpu: 0 }),
  });
  if (mode === 'in memory' && size > 0) {
    // The in-memory fake has no file to seed: its agents are deployed over HTTP first.
    const preload = await load(`${server.baseUrl}${deployPath}`, {
      method: 'POST',
      headers,
      body: deployBody(),
      connections: 50,
      amount: size,
    });
    if (preload.non2xx > 0) throw new Error(`preloading answered ${preload.non2xx} non-2xx`);
  }
  log(`  ${mode}: started in ${Math.round(server.readyMs)} ms, RSS ${mb(memoryOf(server.pid).rss)} MB`);
  return { mode, server, file, rss: memoryOf(server.pid).rss, runs: [] };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/**
 * Runs the section: for each size, both fakes are started with their agents in place, then measured in alternation
 * (in memory, --state, in memory, …) so that a busy machine weighs on both alike; the medians are reported.
 * @example const rows = await persistenceBench({ sizes: [0, 100_000], duration: 10, connections: 50, rounds: 3 });
 */
export async function persistenceBench(options: PersistenceOptions): Promise<PersistenceRow[]> {
  const directory = mkdtempSync(join(tmpdir(), 'agent-registry-kit-bench-state-'));
  const rows: PersistenceRow[] = [];
  const headers = { authorization: bearer(), 'content-type': 'application/json' };
  try {
    for (const size of options.sizes) {
      log(`persistence: ${size.toLocaleString('en-US')} stored agents…`);
      const prepared: Prepared[] = [];
      try {
        for (const mode of ['in memory', '--state'] as const)
          prepared.push(await prepare(mode, size, directory, headers));
        for (let round = 0; round < options.rounds; round += 1) {
          for (const target of prepared) {
            const result = await load(`${target.server.baseUrl}${deployPath}`, {
              method: 'POST',
              headers,
              body: deployBody(),
              connections: options.connections,
              duration: options.duration,
            });
            const rps = Math.round(result.requests.total / result.duration);
            target.runs.push({ rps, p99: result.latency.p99, non2xx: result.non2xx });
            log(`  round ${round + 1}, ${target.mode}: ${rps} deploys/s`);
          }
        }
        for (const target of prepared) {
          rows.push({
            mode: target.mode,
            size,
            startMs: Math.round(target.server.readyMs),
            rssMb: mb(target.rss),
            peakRssMb: mb(memoryOf(target.server.pid).hwm),
            deployRps: median(target.runs.map((run) => run.rps)),
            p99Ms: median(target.runs.map((run) => run.p99)),
            non2xx: target.runs.reduce((sum, run) => sum + run.non2xx, 0),
            databaseMb: target.file ? fileMb(target.file) : undefined,
          });
        }
      } finally {
        for (const target of prepared) {
          await target.server.stop(10_000);
          if (target.file) for (const name of [target.file, `${target.file}-wal`]) rmSync(name, { force: true });
        }
      }
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  return rows;
}

/**
 * The rows as a Markdown table, with --state as a share of in-memory at the same size.
 * @example persistenceTable(await persistenceBench({ sizes: [0], duration: 2, connections: 50 }))
 */
export function persistenceTable(rows: PersistenceRow[]): string {
  const lines = [
    '| stored agents | mode | deploy req/s (median) | p99 ms | --state / in memory | start ms | RSS MB (loaded) | peak RSS MB | database MB |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const memory = rows.find((other) => other.size === row.size && other.mode === 'in memory');
    const share =
      row.mode === '--state' && memory && memory.deployRps > 0
        ? `${Math.round((100 * row.deployRps) / memory.deployRps)} %`
        : '';
    lines.push(
      `| ${row.size.toLocaleString('en-US')} | ${row.mode} | ${row.deployRps.toLocaleString('en-US')} | ${row.p99Ms} | ${share} | ${row.startMs} | ${row.rssMb} | ${row.peakRssMb} | ${row.databaseMb ?? ''} |`,
    );
  }
  return lines.join('\n');
}

const usage =
  'usage: node benchmarks/probes/persistence.ts [--sizes 0,100000,1000000] [--duration S] [--connections N] [--rounds N] [--quick]';

/**
 * Runs the section on its own and prints the table.
 * @example await main(['--sizes', '0,1000', '--duration', '2']);
 */
export async function main(args: string[]): Promise<void> {
  const values = parseCommandLine(
    {
      sizes: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string', default: '50' },
      rounds: { type: 'string' },
      quick: { type: 'boolean', default: false },
    },
    { usage },
    args,
  );
  const sizes = (values.sizes ?? (values.quick ? '0,10000' : '0,100000,1000000')).split(',').map(Number);
  const duration = Number(values.duration ?? (values.quick ? '2' : '5'));
  const connections = Number(values.connections);
  if (sizes.some((size) => !Number.isInteger(size) || size < 0 || size > 10_000_000))
    cliError(`--sizes takes whole numbers from 0 to 10000000, comma-separated; ${usage}`);
  if (!(duration > 0) || !Number.isInteger(connections) || connections < 1)
    cliError(`--duration must be a positive number and --connections a positive integer; ${usage}`);
  const rounds = Number(values.rounds ?? (values.quick ? '1' : '3'));
  if (!Number.isInteger(rounds) || rounds < 1) cliError(`--rounds must be a positive integer; ${usage}`);
  // As `npm run bench` does: the load generator on CPU 1, the servers on CPU 0.
  if (canPin()) execFileSync('taskset', ['-pc', '1', String(process.pid)], { stdio: 'ignore' });
  const rows = await persistenceBench({ sizes, duration, connections, rounds });
  process.stdout.write(`${persistenceTable(rows)}\n`);
}

if (import.meta.main) await main(process.argv.slice(2));
