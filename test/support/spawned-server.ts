// Starts a server as a child process and waits for its "listening" line, for the benchmark, the soak and the robustness
// tests; it also reads the child's memory from /proc and makes sure no child outlives the process that started it.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, so children run with the same paths whatever the caller's cwd. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** A running child server. */
export interface SpawnedServer {
  name: string;
  pid: number;
  port: number;
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  /** Milliseconds from spawn to the listening line. */
  readyMs: number;
  child: ChildProcess;
  /** The last 64 KiB the child printed (stdout and stderr together), for error messages. */
  output(): string;
  /** Resolves with the exit code or signal once the child has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  name: string;
  /** Arguments after the node binary, e.g. `['scripts/commands/serve.ts', '--port', '0']`. */
  args: string[];
  /** Matches the line that says the server accepts connections; its first group is the port (else `port` is used). */
  ready: RegExp;
  /** The port, when the server cannot be told to pick one and print it. */
  port?: number;
  /** Pin the child to this CPU with taskset, when taskset exists and the machine has more than one core. */
  cpu?: number;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/**
 * How to start Prism mocking this repository's spec on 127.0.0.1:`port` (the bench and the contract self-check both do).
 * @example await spawnServer({ name: 'prism', ...prismMock(await freePort()) });
 */
export function prismMock(port: number): Pick<SpawnOptions, 'args' | 'ready' | 'port'> {
  return {
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
  };
}

const running = new Set<ChildProcess>();
let cleanupInstalled = false;
let spawnCount = 0;

function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  // A child that outlives us would keep a port and a core busy; kill them on any way out.
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

/** Whether `taskset` can pin processes here (Linux with util-linux, and more than one core to pin to). */
export function canPin(): boolean {
  return availableParallelism() > 1 && ['/usr/bin/taskset', '/bin/taskset'].some((path) => existsSync(path));
}

/** A free loopback port, for servers that must be told a port (Prism). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Spawns `node <args>` (the same node as the caller) and resolves once its ready line is printed.
 * @example
 * const fake = await spawnServer({ name: 'fake', args: ['scripts/commands/serve.ts', '--port', '0'], ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/ });
 * await fake.stop();
 */
export function spawnServer(options: SpawnOptions): Promise<SpawnedServer> {
  installCleanup();
  const pin = options.cpu !== undefined && canPin();
  const command = pin ? 'taskset' : process.execPath;
  const args = pin ? ['-c', String(options.cpu), process.execPath, ...options.args] : options.args;
  // The child writes to a file, not a pipe: a chatty server (Prism logs every request) would otherwise stall on a pipe
  // whenever our own event loop is busy driving load, and be measured slower than it is.
  spawnCount += 1;
  const logFile = join(tmpdir(), `agent-registry-kit-${options.name}-${process.pid}-${spawnCount}.log`);
  const writeFd = openSync(logFile, 'w');
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: repoRoot,
    stdio: ['ignore', writeFd, writeFd],
    env: options.env ?? process.env,
  });
  closeSync(writeFd);
  running.add(child);
  const readFd = openSync(logFile, 'r');
  let logOpen = true;
  let offset = 0;
  let output = '';
  /** Text read from the log that the ready-line matcher has not looked at yet. */
  let unread = '';
  function readMore(): void {
    // Once the child has exited the log is closed: reading its descriptor again would fail (or read another file that
    // reused the number), and everything up to the exit is already in `output` and `unread`.
    if (!logOpen) return;
    const chunk = Buffer.alloc(65_536);
    let text = '';
    for (;;) {
      const size = readSync(readFd, chunk, 0, chunk.length, offset);
      if (size === 0) break;
      offset += size;
      text += chunk.subarray(0, size).toString('utf8');
    }
    output = (output + text).slice(-65_536);
    unread += text;
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      readMore();
      logOpen = false;
      closeSync(readFd);
      rmSync(logFile, { force: true });
      resolve({ code, signal });
    });
  });
  return new Promise((resolve, reject) => {
    let settled = false;
    let lineBuffer = '';
    const limit = options.timeoutMs ?? 60_000;
    const timer = setTimeout(() => fail(`did not print its ready line within ${limit} ms`), limit);
    const poll = setInterval(check, 5);
    function fail(reason: string): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      child.kill('SIGKILL');
      reject(new Error(`${options.name} ${reason}; its output was:\n${output.slice(-4000)}`));
    }
    function check(): void {
      if (settled) return;
      readMore();
      lineBuffer += unread;
      unread = '';
      const lines = lineBuffer.split('\n');
      lineBuffer = lines.pop() ?? '';
      for (const line of lines) {
        const match = options.ready.exec(line);
        if (!match) continue;
        const port = match[1] !== undefined ? Number(match[1]) : options.port;
        if (port === undefined || !Number.isInteger(port)) {
          fail(`printed a ready line without a port: ${line}`);
          return;
        }
        settled = true;
        clearTimeout(timer);
        clearInterval(poll);
        const stop = async (graceMs = 3000): Promise<void> => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const timeout = setTimeout(() => child.kill('SIGKILL'), graceMs);
          await exited;
          clearTimeout(timeout);
        };
        resolve({
          name: options.name,
          pid: child.pid ?? -1,
          port,
          baseUrl: `http://127.0.0.1:${port}`,
          readyMs: performance.now() - started,
          child,
          output: () => {
            readMore();
            return output;
          },
          exited,
          stop,
        });
        return;
      }
    }
    child.once('error', (error) => fail(`could not start: ${error.message}`));
    void exited.then(({ code, signal }) => {
      check();
      fail(`exited (code ${code}, signal ${signal}) before it was ready`);
    });
  });
}

/** Resident memory of a process and the children it spawned, in bytes, from /proc (Linux); `hwm` is the kernel's peak. */
export function memoryOf(pid: number): { rss: number; hwm: number } {
  let rss = 0;
  let hwm = 0;
  for (const id of [pid, ...descendantsOf(pid)]) {
    try {
      const status = readFileSync(`/proc/${id}/status`, 'utf8');
      rss += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
      hwm += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      // The process ended between listing and reading; it holds no memory any more.
    }
  }
  return { rss, hwm };
}

/**
 * CPU time a process has used so far (user + system, in seconds), from /proc/<pid>/stat; NaN where there is no /proc.
 * Sampled around a load run, it tells whether the server was saturated or the load generator was the limit.
 */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at ")"; utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Every process started by `pid`, its children's children too (empty where there is no /proc). */
export function descendantsOf(pid: number): number[] {
  const found: number[] = [];
  try {
    for (const task of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)) {
      if (!task) continue;
      const child = Number(task);
      found.push(child, ...descendantsOf(child));
    }
  } catch {
    // No /proc (not Linux) or the process is gone: no descendants to count.
  }
  return found;
}
