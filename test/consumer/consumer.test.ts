// The package as an app gets it: `npm pack` (of a fresh build), installed with msw 3, vitest, jsdom and happy-dom from
// the registry (or npm's cache) into a scratch app in the OS temp dir, then used there: tests in three environments,
// a React component tested in jsdom through the typed test API, tsc --strict (and tsc refusing wrong overrides and
// seeds), plain Node 24 and the oldest Node `engines` allows, Vite builds with and without msw's worker, and the CLI by npx.
// `npm run test:consumer` runs it alone. What every step shares (the scratch app, running a command in it) is in
// scratch-app.ts; each group of steps about one feature lives in a file of its own here (app-builds.ts,
// app-checks.ts, installed-cli.ts, …), registered in the describe below; this file packs and installs, and checks what
// the tarball holds.
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packKit } from '../../tools/pack-kit.ts';
import { appBuildSteps } from './app-builds.ts';
import { appCheckSteps } from './app-checks.ts';
import { bareInstallSteps } from './bare-install.ts';
import { devtoolsSteps } from './devtools.ts';
import { docSnippetSteps } from './doc-snippets.ts';
import { githubActionSteps } from './github-action.ts';
import { cliMessageSteps, installedServeSteps } from './installed-cli.ts';
import { pactExportSteps } from './pact-export.ts';
import { pactVerifySteps } from './pact-verify.ts';
import {
  appBin,
  appEnv,
  fixture,
  install,
  manifest,
  oldestNode,
  root,
  run,
  scratch,
  succeeded,
} from './scratch-app.ts';
import { storybookSteps } from './storybook.ts';
import { treeShakingSteps } from './tree-shaking.ts';

let work = '';
let app = '';
let packed: typeof scratch.packed;

/**
 * Packs the kit and installs it, with what the app uses, into the scratch app; then `msw init public/ --save`, the one
 * step that writes the app's package.json, so that every step after reads it whole and the steps can run side by side.
 */
async function packAndInstall(): Promise<void> {
  // Packed as a release is: `prepack` builds dist/, unless it is provably the build of the sources now on disk
  // (tools/pack-kit.ts, tools/dist-stamp.ts), as after the package lint of the same run.
  packed = await packKit(work, { root, env: appEnv });

  await cp(fixture, app, { recursive: true });
  await writeFile(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'consumer-app', private: true, type: 'module' })}\n`,
  );
  const installed = await run(
    'npm',
    [
      ...install,
      join(work, packed.filename),
      `msw@${manifest.peerDependencies.msw}`,
      // The kit's optional peers, which contract, serve --state postgres:// and spec-change need (bare-install.ts goes
      // without them).
      `vitest@${manifest.peerDependencies.vitest}`,
      `fast-check@${manifest.peerDependencies['fast-check']}`,
      `pg@${manifest.peerDependencies.pg}`,
      `ajv@${manifest.peerDependencies.ajv}`,
      `ajv-formats@${manifest.peerDependencies['ajv-formats']}`,
      `typescript@${manifest.devDependencies.typescript}`,
      'jsdom',
      'happy-dom',
      `@playwright/test@${manifest.devDependencies['@playwright/test']}`,
      // The React app of test/consumer/app/src, its component tests and its types.
      'react',
      'react-dom',
      '@testing-library/react',
      '@testing-library/dom',
      '@types/react',
      '@types/react-dom',
      // Node's types, for the node-only server entry (tsconfig.node.json).
      `@types/node@${manifest.devDependencies['@types/node']}`,
      // The TanStack Query component and its tests (src/AgentQueryCard.tsx, tests/agent-query.spec.tsx).
      '@tanstack/react-query@5',
      // Storybook with msw-storybook-addon (.storybook/, stories/; steps in storybook.ts).
      'storybook@10',
      '@storybook/react-vite@10',
      'msw-storybook-addon@3',
      // What the guides' snippets import beside the kit (doc-snippets.ts type-checks every one).
      `openapi-fetch@${manifest.devDependencies['openapi-fetch']}`,
      `@sparticuz/chromium@${manifest.devDependencies['@sparticuz/chromium']}`,
      // Pact's own verifier (its Rust core from a platform package), for the pact steps (pact-export.ts).
      `@pact-foundation/pact@${manifest.devDependencies['@pact-foundation/pact']}`,
    ],
    app,
    // Playwright's browsers are never downloaded: the tests use test/browser/chromium.ts's Chromium.
    { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  );
  succeeded(installed, 'npm install in the scratch app');
  succeeded(await run(appBin('msw'), ['init', 'public/', '--save'], app), 'msw init public/ --save');
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'agent-registry-kit-consumer-'));
  app = join(work, 'app');
  Object.assign(scratch, { work, app });
  const node22 = join(work, 'oldest-node');
  await mkdir(node22);
  // The `node` package installs its binary from a platform package in its preinstall script.
  await writeFile(
    join(node22, 'package.json'),
    `${JSON.stringify({ name: 'oldest-node', private: true, allowScripts: { node: true } })}\n`,
  );
  // The oldest Node needs nothing of the package: its install runs beside the pack and the app's install.
  const [installedNode] = await Promise.all([run('npm', [...install, `node@${oldestNode}`], node22), packAndInstall()]);
  succeeded(installedNode, `npm install node@${oldestNode}`);
  scratch.oldNode = join(node22, 'node_modules', '.bin', 'node');
  scratch.packed = packed;
}, 600_000);

afterAll(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true });
});

// Each step runs real installs and processes; none is timed, the budget is only there to end a hung one (on a loaded
// 2-core machine a tsc or a whole vitest suite takes minutes alone, and longer beside the other steps:
// docs/performance.md, "Contract suite and test suite run times"). The steps run side by side (this file is the longest
// of npm test, and most steps wait on a browser, a server or npm); none writes what another reads.
describe('the packed package, installed into a scratch app', { timeout: 400_000, concurrent: true }, () => {
  bareInstallSteps();
  githubActionSteps();
  pactVerifySteps();
  pactExportSteps();
  treeShakingSteps();
  docSnippetSteps();
  devtoolsSteps();

  appBuildSteps();

  it('holds the compiled kit and none of the repository’s tests, benchmarks, configs or CI files', async () => {
    const paths = packed.files.map((file) => file.path).sort();
    const stray = paths.filter(
      (path) =>
        // The console's page and style sheet ship beside its script (the page /__mock/ui/ serves).
        // The control plane's document ships beside the API's: the guides link it, and it refers to spec/openapi.yaml.
        !/^(README\.md|LICENSE|CHANGELOG\.md|package\.json|(spec\/openapi|mocks\/control-plane\/control-plane)\.yaml|docs\/[\w-]+\.md|dist\/.+\.(js|d\.ts)|dist\/console\/(index\.html|console\.css))$/.test(
          path,
        ) ||
        /(^|\/)(test|bench\w*|soak|demo|generate|prism|browser-demo|worker|\.ci)(\/|\.)/.test(path) ||
        // The contract suite is what `contract` runs, so its own files and config are the one exception.
        (/\.test\.|vitest\.config/.test(path) && !/^dist\/contract-tests\/[\w.-]+\.js$/.test(path)),
    );
    expect(stray).toEqual([]);
    // The whole contract suite is there, or `contract` would pass on fewer checks than `npm run contract` runs.
    const suite = (await readdir(join(root, 'contract-tests'))).filter((name) => name.endsWith('.test.ts'));
    expect(suite.length).toBeGreaterThan(0);
    for (const name of suite) expect(paths).toContain(`dist/contract-tests/${name.replace(/\.ts$/, '.js')}`);
    // Every entry of the exports map and the bin are in it.
    const targets = Object.values(manifest.exports).flatMap((target) =>
      typeof target === 'string' ? [target] : Object.values(target).filter((value) => value !== null),
    );
    for (const target of [...targets, ...Object.values(manifest.bin)])
      expect(paths).toContain(target.replace(/^\.\//, ''));
  });

  // Which of its peers it loads where, and that the optional ones are loaded only where needed: bare-install.ts.
  it('imports at run time only its dependencies, its peers and Node’s own modules', async () => {
    const installed = join(app, 'node_modules', 'agent-registry-kit');
    const allowed = new Set([
      'agent-registry-kit',
      ...Object.keys(manifest.dependencies),
      ...Object.keys(manifest.peerDependencies),
    ]);
    const strays: string[] = [];
    for (const { path } of packed.files.filter((file) => file.path.endsWith('.js'))) {
      const source = await readFile(join(installed, path), 'utf8');
      for (const [, specifier = ''] of source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"]+)['"]/g)) {
        if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
        const name = specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/');
        if (!allowed.has(name)) strays.push(`${path}: ${specifier}`);
      }
    }
    expect(strays).toEqual([]);
  });

  appCheckSteps();
  installedServeSteps();
  storybookSteps();
  cliMessageSteps();
});
