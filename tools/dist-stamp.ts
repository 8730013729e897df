// Proves that dist/ is the build of the sources now on disk, so tools/pack-kit.ts can pack it without building it again
// (`npm pack` runs the whole build in `prepack`; the package lint and the consumer test of one run both pack).
// `npm run build` ends by recording a digest of every input the build may read (the TypeScript and JSON files of the
// repository, the installed dependency tree) and of every file it wrote; dist/ is fresh only while both still match.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const stampName = '.build-stamp.json';
/** Never read by the build, or written while tests run (test/ stays in: reading more only makes a rebuild likelier). */
const skippedDirs = new Set(['node_modules', 'dist', 'build', 'artifacts', '.git', '.state']);
const inputFile = /\.(ts|mts|cts|tsx|json)$/;

interface Stamp {
  inputs: string;
  outputs: string;
}

/** Every file under `dir` that `keep` accepts, as paths relative to `root` with `/`, sorted. */
function filesUnder(root: string, dir: string, keep: (path: string) => boolean): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skippedDirs.has(entry.name)) found.push(...filesUnder(root, path, keep));
    } else if (entry.isFile() && keep(entry.name)) {
      found.push(relative(root, path).split(sep).join('/'));
    }
  }
  return found.sort();
}

/** One digest of the files' names and contents: a file added, removed, renamed or changed changes it. */
function digest(root: string, files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update('\0');
  return hash.digest('hex');
}

function currentStamp(root: string): Stamp {
  // npm writes node_modules/.package-lock.json for the tree it installed: the compiler's version and every type it reads.
  const inputs = [...filesUnder(root, root, (name) => inputFile.test(name)), 'node_modules/.package-lock.json'];
  const outputs = filesUnder(root, join(root, 'dist'), (name) => name !== stampName);
  return { inputs: digest(root, inputs), outputs: digest(root, outputs) };
}

/**
 * Records what dist/ was built from and what it holds; `npm run build` calls it once tsc and tools/bundle.ts have written dist/.
 * @example writeDistStamp(repoRoot);
 */
export function writeDistStamp(root: string): void {
  writeFileSync(join(root, 'dist', stampName), `${JSON.stringify(currentStamp(root), null, 2)}\n`);
}

/**
 * True when dist/ holds exactly what the last build wrote, from exactly the inputs now on disk; false when anything
 * changed, or there is no record of a build.
 * @example const command = distIsFresh(repoRoot) ? ['pack', '--ignore-scripts'] : ['pack'];
 */
export function distIsFresh(root: string): boolean {
  let recorded: Stamp;
  try {
    recorded = JSON.parse(readFileSync(join(root, 'dist', stampName), 'utf8')) as Stamp;
  } catch {
    return false;
  }
  const now = currentStamp(root);
  return recorded.inputs === now.inputs && recorded.outputs === now.outputs;
}

if (import.meta.main) writeDistStamp(fileURLToPath(new URL('../', import.meta.url)));
