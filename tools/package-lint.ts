// The package as the ecosystem's own linters see it, run by `npm run lint`: publint (package.json against the files it
// names: exports, types, bin, files) and arethetypeswrong (every entry's types under each module resolution an ESM-only
// package must serve). Both read one tarball, packed once into a temporary folder (tools/pack-kit.ts: no build when dist/
// is that of the sources on disk), and run side by side. Any message of either fails the lint.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packKit } from './pack-kit.ts';

const run = promisify(execFile);
/** A linter's command as the repository installed it (no PATH needed: `node tools/package-lint.ts` works alone). */
const bin = (name: string): string => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

/**
 * arethetypeswrong's arguments. `esm-only`: the kit is ESM only (no `require` condition), so the CommonJS resolutions
 * (node10, node16 from CJS) are not checked. `./openapi.yaml` is excluded because it is a data file, the spec for code
 * generators (`openapi-typescript node_modules/agent-registry-kit/spec/openapi.yaml`), read from disk, never imported:
 * there are no types to resolve for it.
 */
const attwArgs = ['--profile', 'esm-only', '--exclude-entrypoints', './openapi.yaml', '--format', 'ascii'];
/** publint's: `--strict` makes a warning fail too; its suggestions (none today) are printed with the rest. */
const publintArgs = ['run', '--strict', '--level', 'suggestion'];

/** Runs one linter's bin on the tarball: its output, and whether it said anything (a suggestion counts). */
async function lint(name: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run(bin(name), args, { maxBuffer: 16 * 1024 * 1024 });
    return { ok: true, output: `${stdout}${stderr}` };
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${stdout}${stderr}` };
  }
}

if (import.meta.main) {
  const work = await mkdtemp(join(tmpdir(), 'agent-registry-kit-package-lint-'));
  try {
    const tarball = join(work, (await packKit(work)).filename);
    const [publint, attw] = await Promise.all([
      lint('publint', [...publintArgs, tarball]),
      lint('attw', [...attwArgs, tarball]),
    ]);
    // publint exits 0 on a suggestion: a package a team adopts should not carry one, so any numbered message fails.
    const publintClean = publint.ok && !/^\d+\. /m.test(publint.output);
    if (!publintClean) process.stderr.write(`publint:\n${publint.output}\n`);
    if (!attw.ok) process.stderr.write(`attw ${attwArgs.join(' ')}:\n${attw.output}\n`);
    if (publintClean && attw.ok) process.stdout.write('package lint: publint and attw --profile esm-only clean\n');
    else process.exitCode = 1;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
