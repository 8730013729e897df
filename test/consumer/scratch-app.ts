// What every step of the consumer test shares: the repository's manifest, the environment of a command run in a scratch
// app (none of the repository's tools on PATH), running a command there, and the scratch app the steps use, which
// consumer.test.ts packs and installs before any step runs. A step file registers its tests with a function taking
// nothing: it reads `scratch` when its tests run.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const fixture = fileURLToPath(new URL('./app', import.meta.url));

interface Manifest {
  engines: { node: string };
  exports: Record<string, string | Record<string, string | null>>;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
}
export const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Manifest;
/** The oldest Node the package says it supports, installed from the registry to prove it. */
export const oldestNode = /^>=(\d+\.\d+\.\d+)$/.exec(manifest.engines.node)?.[1];

/**
 * The environment of every command run for the scratch app: this Node (the repository's 24) first on PATH, none of the
 * repository's own node_modules/.bin (a tool the app lacks must not be found there), and none of the npm_* or VITEST*
 * variables of the run that started this test (npm_config_local_prefix would make npm install into the repository).
 */
export const appEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|VITEST)/i.test(name))),
  PATH: [
    dirname(process.execPath),
    ...(process.env.PATH ?? '').split(delimiter).filter((entry) => entry !== '' && !entry.startsWith(root)),
  ].join(delimiter),
};

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...appEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

export function succeeded(result: Run, what: string): Run {
  if (result.status !== 0)
    throw new Error(`${what} exited ${String(result.status)}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** The packed kit and the scratch app it is installed in, filled by consumer.test.ts's beforeAll. */
export const scratch = {
  /** The temp folder holding the tarball, the app and whatever a step writes beside them. */
  work: '',
  /** The scratch app: test/consumer/app copied, with the kit and what the steps use installed. */
  app: '',
  /** The oldest Node `engines` allows (`oldestNode`), installed from the registry: its binary. */
  oldNode: '',
  /** `npm pack --json`'s answer for the kit. */
  packed: { filename: '', files: [] as { path: string }[] },
};

/** npm's install arguments for every install of the consumer test. */
export const install = ['install', '--no-audit', '--no-fund', '--prefer-offline'];

/**
 * A tool the scratch app installed, run directly: an `npx` in front of it costs a whole npm start each time,
 * and what is proven of npx itself, the steps that say so prove.
 */
export function appBin(name: string, app: string = scratch.app): string {
  return join(app, 'node_modules', '.bin', name);
}

/** The process groups a step started, for `stopGroups` to end whatever each spawned. */
export type StartedGroups = { pid: number | undefined }[];

/**
 * Starts `command args` in `cwd` in a process group of its own (so the clean-up reaches a server npx started) and
 * resolves with the URL it prints after `listening` (the fake's `fake backend listening on`, the proxy's line).
 */
export function startListening(
  command: string,
  args: string[],
  started: StartedGroups,
  {
    cwd = scratch.app,
    listening = /fake backend listening on (http:\/\/[\d.:]+)/,
  }: { cwd?: string; listening?: RegExp } = {},
): Promise<string> {
  const child = spawn(command, args, { cwd, env: appEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  started.push({ pid: child.pid });
  return new Promise<string>((resolve, reject) => {
    let output = '';
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = listening.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${String(code)}: ${output}`)));
  });
}

/** Kills every process group a step started; a group already gone is nothing left running. */
export function stopGroups(started: StartedGroups): void {
  for (const { pid } of started)
    try {
      if (pid !== undefined) process.kill(-pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
}
