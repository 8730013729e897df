// Packs the kit as a release does: `npm pack`, whose `prepack` script runs the build (`npm ci` builds nothing: the
// repository runs its TypeScript directly, and a tarball's user installs no sources to build). When dist/ is provably
// the build of the sources now on disk (tools/dist-stamp.ts), it packs dist/ as it is with `--ignore-scripts` instead
// of building it again. The package lint, the consumer test and the probes that measure the package all pack here.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { distIsFresh } from './dist-stamp.ts';

const repository = fileURLToPath(new URL('../', import.meta.url));
const run = promisify(execFile);

/** npm's account of one packed tarball (`npm pack --json`). */
export interface PackedKit {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

/**
 * This process's environment without npm's own variables: under `npm run`, npm_config_local_prefix and the like would
 * make a nested npm act on the wrong folder.
 */
function npmEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^npm_/i.test(name)));
}

/**
 * Packs the kit of `root` (this checkout unless another is given) into the folder `destination`, built afresh unless
 * dist/ is provably the build of the sources on disk; resolves with npm's account of the tarball.
 * @example const { filename } = await packKit(work); // agent-registry-kit-0.1.0.tgz in work
 */
export async function packKit(
  destination: string,
  { root = repository, env = process.env }: { root?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<PackedKit> {
  const args = [
    'pack',
    '--json',
    '--pack-destination',
    destination,
    ...(distIsFresh(root) ? ['--ignore-scripts'] : []),
  ];
  let stdout: string;
  try {
    ({ stdout } = await run('npm', args, { cwd: root, env: npmEnv(env), maxBuffer: 64 * 1024 * 1024 }));
  } catch (error) {
    const { stdout: out = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm ${args.join(' ')} failed in ${root}:\n${out}\n${stderr}`);
  }
  // The build's own output (prepack) comes first on stdout; npm's JSON is the last thing it prints.
  const json = stdout.slice(stdout.lastIndexOf('\n[\n') + 1);
  const [packed] = JSON.parse(json.startsWith('[') ? json : stdout) as [PackedKit];
  return packed;
}
