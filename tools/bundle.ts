// The JavaScript of the package: `npm run build` runs it after `tsc -p tsconfig.build.json --emitDeclarationOnly` has
// written the .d.ts files. rolldown bundles every published entry in one run with code splitting, so each entry keeps
// its path (package.json `exports` and `bin` name them) and what two entries share sits once in a chunk of
// dist/chunks/: a class or a module-level registry exists once when an app imports ./node and ./server alike.
// Loading a handful of chunks instead of ~90 modules is most of what an import of an entry costs (docs/performance.md).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

/**
 * Packages whose code the build copies into dist/ instead of importing, each with its licence at the top of the chunk
 * that holds it: the kit runs a small part of each, and as a dependency each would cost every app its whole package.
 * @faker-js/faker: the catalogue's seeded random draws, `locale/base` only (128 KB of a 3.9 MB package; the word lists
 * are generated literals). ajv-formats: the format checks the generated validators call (`formats.js`, 12 KB; the
 * package would bring ajv, 2.5 MB, which only the lazily loaded schema compiler needs).
 */
const inlined = ['@faker-js/faker', 'ajv-formats'];

/** Whether a bare import `id` names a package of `inlined`. */
function isInlined(id: string): boolean {
  return inlined.some((name) => id === name || id.startsWith(`${name}/`));
}

/** The licence notices of the inlined packages whose files `moduleIds` holds, as one comment bundlers keep. */
function licenceBanner(root: string, moduleIds: readonly string[]): string {
  const require = createRequire(join(root, 'package.json'));
  const notices = inlined.flatMap((name) => {
    const folder = join(require.resolve(`${name}/package.json`), '..');
    if (!moduleIds.some((id) => id.replaceAll('\\', '/').includes(`/node_modules/${name}/`))) return [];
    const { version, license } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
      version: string;
      license: string;
    };
    const text = readFileSync(join(folder, 'LICENSE'), 'utf8').replaceAll('*/', '* /').trim();
    return [`${name} ${version} (${license}), inlined by the kit's build:\n\n${text}`];
  });
  return notices.length === 0 ? '' : `/*!\n${notices.join('\n\n')}\n*/`;
}

/** Chunks holding code of the command line or the contract suite: package.json `sideEffects` lists their folder. */
const toolFolders = /\/(scripts|contract-tests)\//;

/**
 * The modules the package runs, keyed by their path in dist/ without `.js`: every target of package.json `exports` and
 * `bin` (the command line's subcommands, loaded lazily, become chunks of their own), and the contract suite that
 * `contract` hands to vitest by path: its test files and its vitest config stay beside each other in dist/contract-tests/.
 * @example bundleInputs(repoRoot)['mocks/entries/node']; // '<root>/mocks/entries/node.ts'
 */
export function bundleInputs(root: string): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, string | Record<string, string | null>>;
    bin: Record<string, string>;
  };
  const targets = [
    ...Object.values(manifest.exports).flatMap((target) =>
      typeof target === 'string' ? [target] : Object.values(target),
    ),
    ...Object.values(manifest.bin),
  ];
  const entries = [
    // dist/console/ is the console's own build (bundleConsole), with Preact inside.
    ...targets.flatMap((target) => /^(?:\.\/)?dist\/(?!console\/)(.+)\.js$/.exec(target ?? '')?.slice(1) ?? []),
    'contract-tests/vitest.config',
    ...readdirSync(join(root, 'contract-tests'))
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => `contract-tests/${name.slice(0, -'.ts'.length)}`),
  ];
  return Object.fromEntries(entries.map((entry) => [entry, join(root, `${entry}.ts`)]));
}

/**
 * Writes the bundled JavaScript into `root`/dist/ beside the declarations. Every bare import but those of `inlined`
 * stays an import (the dependencies, the peers, Node's modules): an optional peer loaded by a dynamic `import()` stays
 * dynamic and lazy.
 * @example await bundle(repoRoot);
 */
export async function bundle(root: string): Promise<void> {
  const build = await rolldown({
    cwd: root,
    input: bundleInputs(root),
    platform: 'neutral',
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !isInlined(id),
    transform: { target: 'es2024' },
    treeshake: true,
    // Warnings fail the build: one means code that may not run as written.
    onwarn(warning) {
      throw new Error(`rolldown: ${warning.message}`);
    },
  });
  try {
    await build.write({
      dir: join(root, 'dist'),
      format: 'esm',
      entryFileNames: '[name].js',
      banner: (chunk) => licenceBanner(root, chunk.moduleIds),
      chunkFileNames: (chunk) => {
        // A group's chunk is named for the group, then for the entries sharing it (`validators~mocks/…`): the group only.
        const name = chunk.name.replace(/[~/].*$/, '');
        const tool = chunk.moduleIds.some((id) => toolFolders.test(id.replaceAll('\\', '/')));
        return `chunks/${tool ? 'cli/' : ''}${name}-[hash].js`;
      },
      // The generated validators and the format checks they call (ajv-formats' formats.js, inlined), in chunks of their
      // own, which package.json declares free of side effects: an app importing only an enum from ./spec drops them.
      codeSplitting: {
        groups: [
          {
            name: 'validators',
            test: /validators\.generated\.ts$|node_modules[\\/]ajv-formats[\\/]/,
            entriesAware: true,
          },
        ],
      },
      sourcemap: false,
    });
  } finally {
    await build.close();
  }
}

/**
 * Writes the console (console/: the page /__mock/ui/ serves) into `root`/dist/console/: one minified script with Preact
 * inside (the page loads nothing from elsewhere and works offline; the package needs no UI dependency), its page and
 * style sheet beside it.
 * @example await bundleConsole(repoRoot);
 */
export async function bundleConsole(root: string): Promise<void> {
  const out = join(root, 'dist', 'console');
  // Two builds, not one with two entries: each script stands alone (the report is inlined into one HTML file).
  // The devtools panel is a module (package.json `./devtools`) that setupMockWorker imports when asked; its style sheet
  // is inlined as text, for the shadow root it mounts.
  const scripts = [
    { name: 'console', entry: join(root, 'console', 'main.tsx'), format: 'esm' },
    { name: 'report', entry: join(root, 'console', 'report', 'report-main.tsx'), format: 'iife' },
    { name: 'devtools', entry: join(root, 'console', 'devtools.tsx'), format: 'esm' },
  ] as const;
  for (const script of scripts) {
    const build = await rolldown({
      cwd: root,
      input: { [script.name]: script.entry },
      platform: 'browser',
      moduleTypes: { '.css': 'text' },
      // JSX compiles as tsconfig.json says (the automatic runtime of Preact).
      transform: { target: 'es2022' },
      treeshake: true,
      onwarn(warning) {
        throw new Error(`rolldown (console): ${warning.message}`);
      },
    });
    try {
      await build.write({
        dir: out,
        format: script.format,
        entryFileNames: '[name].js',
        minify: true,
        sourcemap: false,
      });
    } finally {
      await build.close();
    }
  }
  mkdirSync(out, { recursive: true });
  for (const name of ['index.html', 'console.css']) copyFileSync(join(root, 'console', name), join(out, name));
  writeFileSync(join(out, 'devtools.d.ts'), DEVTOOLS_DECLARATION);
}

/** The declaration of `agent-registry-kit/devtools` (in the repository TypeScript maps the package's own name back to console/devtools.tsx). */
const DEVTOOLS_DECLARATION = `/** The journal's Server-Sent Events text, read in the page: gets the headers and a push; returns stop. */
export type StreamSource = (headers: Record<string, string>, push: (text: string) => void) => () => void;
/** Mounts the console as a floating panel over the page; returns a function that removes it. */
export declare function mountDevtools(options: { stream: StreamSource }): () => void;
`;

if (import.meta.main) {
  const root = fileURLToPath(new URL('../', import.meta.url));
  await bundle(root);
  await bundleConsole(root);
}
