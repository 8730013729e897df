// A copy of the repository in the temp directory, for the tests that change the spec or the code of a copy and run the
// kit's own commands in it (an added operation, a bad keyword): every tracked file, node_modules linked, not copied.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './spawned-server.ts';

const execFileAsync = promisify(execFile);

/**
 * Copies the repository's tracked files into `root` (an empty directory) and links its node_modules there; resolves to
 * the files copied, relative to the root.
 * @example const copy = mkdtempSync(join(tmpdir(), 'agent-registry-x-')); await copyTrackedFiles(copy);
 */
export async function copyTrackedFiles(root: string): Promise<string[]> {
  const { stdout } = await execFileAsync('git', ['ls-files', '-z'], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
  const files = stdout.split('\0').filter((path) => path !== '');
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    cpSync(join(repoRoot, file), join(root, file));
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  return files;
}

/** What a command run in a copy printed, and its exit code (-1 when it did not exit by itself). */
export interface CopyRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout, then stderr. */
  output: string;
}

/**
 * Runs `command` (node when only arguments are given) in the copy at `root` with a small environment (PATH, HOME, the
 * compile cache, NO_COLOR) plus `env`; never throws.
 * @example const generated = await runInCopy(copy, ['tools/generate.ts']);
 */
export async function runInCopy(
  root: string,
  args: string[],
  options: { command?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CopyRun> {
  try {
    const { stdout, stderr } = await execFileAsync(options.command ?? process.execPath, args, {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE,
        NO_COLOR: '1',
        ...options.env,
      },
      maxBuffer: 64 * 1024 * 1024,
      timeout: options.timeoutMs ?? 300_000,
    });
    return { code: 0, stdout, stderr, output: `${stdout}\n${stderr}` };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    const out = failed.stdout ?? '';
    const err = failed.stderr ?? '';
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: out,
      stderr: err,
      output: `${out}\n${err}`,
    };
  }
}

/** A fresh temp directory named `prefix…` for a copy, and how to remove it. */
export function makeCopyDirectory(prefix: string): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
