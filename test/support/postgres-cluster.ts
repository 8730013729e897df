// A throwaway PostgreSQL cluster for the tests and the bench, from Debian's binaries: initdb and pg_ctl in a temp directory, on a free
// loopback port, run as the `postgres` user when the tests run as root. Nothing depends on a server started by hand.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** Where Debian puts the server binaries: the newest /usr/lib/postgresql/<major>/bin (`PG_BIN` overrides it). */
export const POSTGRES_BIN =
  process.env.PG_BIN ??
  (() => {
    const majors = existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .filter((name) => /^\d+$/.test(name))
          .sort((a, b) => Number(b) - Number(a))
      : [];
    return `/usr/lib/postgresql/${majors[0] ?? '15'}/bin`;
  })();

export interface PostgresCluster {
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  port: number;
  dir: string;
  /** A new empty database, for one test. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server at once (as a crash would) or cleanly; it can be started again with `start`. */
  stop(mode?: 'immediate' | 'fast'): void;
  start(): void;
  /** Stops the server and removes its directory. */
  destroy(): void;
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** Runs a PostgreSQL binary, as the postgres user when this process is root (the server refuses to run as root). */
function run(binary: string, args: string[]): void {
  const path = join(POSTGRES_BIN, binary);
  const asRoot = process.getuid?.() === 0;
  execFileSync(asRoot ? 'runuser' : path, asRoot ? ['-u', 'postgres', '--', path, ...args] : args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 60_000,
  });
}

/** Whether the binaries are here (`.ci/run` installs Debian's `postgresql` package when they are not). */
export const postgresInstalled = (): boolean => existsSync(join(POSTGRES_BIN, 'initdb'));

/**
 * Starts the server on a free port, trying another when it fails: another process (a parallel test run's cluster) may
 * take the port between the probe and the server's bind. The last failure names the server log's last lines.
 */
async function startOnFreePort(start: (port: number) => void, log: string): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    try {
      start(port);
      return port;
    } catch (error) {
      if (attempt < 3) continue;
      const tail = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-5).join(' | ') : 'no log';
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new Error(`PostgreSQL did not start after ${attempt} tries (${message}); its log ends: ${tail}`);
    }
  }
}

/**
 * Creates and starts a cluster; `destroy()` stops it and removes it (also registered for process exit).
 * @example const cluster = await startPostgresCluster(); const url = await cluster.createDatabase('t1'); cluster.destroy();
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  if (!postgresInstalled())
    throw new Error(`PostgreSQL's binaries are not in ${POSTGRES_BIN}: apt-get install postgresql (or set PG_BIN)`);
  const dir = mkdtempSync(join(tmpdir(), 'ark-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const log = join(dir, 'log');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  let port = 0;
  let running = false;
  const start = (): void => {
    // Autovacuum's runs are logged: the replicas bench counts those that overlap each measure (they take CPU from it).
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=128MB -c log_autovacuum_min_duration=0`;
    run('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', log, '-o', options]);
    running = true;
  };
  try {
    port = await startOnFreePort((chosen) => {
      port = chosen;
      start();
    }, log);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const stop = (mode: 'immediate' | 'fast' = 'fast'): void => {
    if (!running) return;
    running = false;
    try {
      run('pg_ctl', ['stop', '-w', '-t', '60', '-m', mode, '-D', data]);
    } catch {
      // Already stopped.
    }
  };
  let destroyed = false;
  const destroy = (): void => {
    if (destroyed) return;
    destroyed = true;
    stop('immediate');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', destroy);
  const url = (database = 'postgres'): string => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    url,
    port,
    dir,
    stop,
    start,
    destroy,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
  };
}
