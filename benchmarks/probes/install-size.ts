// What installing the kit adds to an app's node_modules, measured from the packed tarball: four scratch apps in the OS
// temp dir (msw 3 alone, msw 3 + the kit, msw 3 + vitest of the kit's major, and that + the kit), each installed by npm
// from the registry (or its cache). Prints the size of each node_modules (bytes of its files, in MB of 10^6 bytes), its
// package count, what the kit adds, whether pg, fast-check or a second vitest came along, and the goal (≤ 10 MB beside
// msw 3 and vitest 5). Runs alone:
// `node benchmarks/probes/install-size.ts` (`--keep` leaves the apps in place and prints where). No assertion.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { packKit } from '../../tools/pack-kit.ts';

const root = resolve(import.meta.dirname, '..', '..');
const manifest = (await import(join(root, 'package.json'), { with: { type: 'json' } })).default as {
  peerDependencies: Record<string, string>;
};

interface Tree {
  bytes: number;
  packages: number;
  /** Every folder of a package, relative to the app (node_modules/a, node_modules/a/node_modules/b, …). */
  folders: string[];
}

/** The bytes of every file under `folder` (symlinks not followed) and the package folders among them. */
function measure(folder: string, relative = 'node_modules', tree: Tree = { bytes: 0, packages: 0, folders: [] }): Tree {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      const inNodeModules = folder.endsWith('node_modules') || /node_modules[/\\]@[^/\\]+$/.test(folder);
      if (
        inNodeModules &&
        !entry.name.startsWith('.') &&
        !entry.name.startsWith('@') &&
        existsSync(join(path, 'package.json'))
      ) {
        tree.packages += 1;
        tree.folders.push(`${relative}/${entry.name}`);
      }
      measure(path, `${relative}/${entry.name}`, tree);
    } else tree.bytes += lstatSync(path).size;
  }
  return tree;
}

function npm(args: string[], cwd: string): string {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_fund: 'false' } });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} exited ${result.status}:\n${result.stderr}`);
  return result.stdout;
}

const work = mkdtempSync(join(tmpdir(), 'agent-registry-kit-install-size-'));
try {
  const packed = await packKit(work);
  const tarball = join(work, packed.filename);
  const vitestMajor = `vitest@^${/\d+/.exec(manifest.peerDependencies.vitest ?? '')?.[0]}`;
  const apps: [string, string[]][] = [
    ['msw', ['msw@^3']],
    ['msw + kit', ['msw@^3', tarball]],
    ['msw + vitest', ['msw@^3', vitestMajor]],
    ['msw + vitest + kit', ['msw@^3', vitestMajor, tarball]],
  ];
  const trees = new Map<string, Tree>();
  for (const [name, packages] of apps) {
    const app = join(work, name.replaceAll(/\W+/g, '-'));
    mkdirSync(app);
    writeFileSync(
      join(app, 'package.json'),
      `${JSON.stringify({ name: 'install-size', private: true, type: 'module' })}\n`,
    );
    npm(['install', '--no-audit', '--prefer-offline', ...packages], app);
    trees.set(name, measure(join(app, 'node_modules')));
  }
  const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);
  console.log(`tarball ${mb(packed.size)} MB packed, ${mb(packed.unpackedSize)} MB unpacked (${packed.filename})`);
  for (const [name, tree] of trees)
    console.log(`${name.padEnd(20)} ${mb(tree.bytes).padStart(6)} MB  ${tree.packages} packages`);
  for (const [base, withKit] of [
    ['msw', 'msw + kit'],
    ['msw + vitest', 'msw + vitest + kit'],
  ] as const) {
    const before = trees.get(base) as Tree;
    const after = trees.get(withKit) as Tree;
    const added = after.folders.filter((folder) => !before.folders.includes(folder));
    const has = (name: string): string[] => after.folders.filter((folder) => folder.endsWith(`node_modules/${name}`));
    console.log(
      `the kit adds to "${base}": ${mb(after.bytes - before.bytes)} MB, ${after.packages - before.packages} packages; ` +
        `pg ${has('pg').length > 0 ? 'installed' : 'absent'}, fast-check ${has('fast-check').length > 0 ? 'installed' : 'absent'}, ` +
        `vitest copies ${has('vitest').length}`,
    );
    const app = join(work, withKit.replaceAll(/\W+/g, '-'));
    const largest = added
      .filter((folder) => !folder.includes('/node_modules/', 'node_modules/'.length))
      .map((folder) => [folder.replace(/^node_modules\//, ''), measure(join(app, folder)).bytes] as const)
      .sort((a, b) => b[1] - a[1]);
    console.log(
      `  largest added: ${largest
        .slice(0, 6)
        .map(([name, bytes]) => `${name} ${mb(bytes)} MB`)
        .join(', ')}`,
    );
    console.log(`  added: ${added.map((folder) => folder.replace(/^node_modules\//, '')).join(', ')}`);
  }
  // The goal is stated beside both peers an app of the kit has: msw 3 and vitest of the kit's major.
  const beside = (trees.get('msw + vitest + kit') as Tree).bytes - (trees.get('msw + vitest') as Tree).bytes;
  console.log(
    `goal: the kit adds ≤ 10 MB beside msw 3 and ${vitestMajor}: ${mb(beside)} MB, ${beside <= 10e6 ? 'MET' : 'MISS'}`,
  );
} finally {
  if (process.argv.includes('--keep')) console.log(`apps kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
