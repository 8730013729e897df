// A scratch app in the OS temp dir with the packed kit installed from its tarball, as a user gets it, for the probes
// that measure what the package costs an app (load-time.ts, bundle-size.ts; install-size.ts packs with tools/pack-kit.ts). The
// caller removes it with `remove()`.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packKit } from '../../tools/pack-kit.ts';

const repository = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

export interface PackedApp {
  /** The app's folder: its package.json, node_modules with the kit and `packages`. */
  dir: string;
  /** Runs `node` (this one) on a file of the app, returning its stdout. */
  node: (file: string, args?: string[]) => Promise<string>;
  /** Writes a file of the app (folders made as needed). */
  write: (file: string, text: string) => Promise<void>;
  remove: () => Promise<void>;
}

/** This process's environment without npm's own variables (npm_config_local_prefix would install into the repository). */
function npmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}

/**
 * Packs the kit (built afresh unless dist/ is provably the build of the sources on disk) and installs the tarball with
 * `packages` (e.g. `msw@^3`) into a new app. `root` is this checkout unless another is given (to compare with it).
 * @example const app = await packedApp(['msw@^3']); try { … } finally { await app.remove(); }
 */
export async function packedApp(packages: string[], root: string = repository): Promise<PackedApp> {
  const work = await mkdtemp(join(tmpdir(), 'agent-registry-kit-probe-'));
  const dir = join(work, 'app');
  await mkdir(dir);
  const env = npmEnv();
  const { filename } = await packKit(work, { root });
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'probe-app', private: true, type: 'module' })}\n`,
  );
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, filename), ...packages], {
    cwd: dir,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return {
    dir,
    node: async (file, args = []) => (await run(process.execPath, [file, ...args], { cwd: dir, env })).stdout,
    write: async (file, text) => {
      await mkdir(join(dir, file, '..'), { recursive: true });
      await writeFile(join(dir, file), text);
    },
    remove: () => rm(work, { recursive: true, force: true }),
  };
}

/**
 * The version of a package the repository pins in its devDependencies (the probe installs the same one).
 * @example await devVersion('vite') // '^8.3.8'
 */
export async function devVersion(name: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(repository, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const version = manifest.devDependencies[name];
  if (version === undefined) throw new Error(`package.json has no devDependency ${name}`);
  return version;
}

/**
 * The machine's 1-minute load average, as the docs quote it beside a figure.
 * @example console.log(`load ${load()}`)
 */
export function load(): string {
  return loadavg()[0]?.toFixed(1) ?? '?';
}
