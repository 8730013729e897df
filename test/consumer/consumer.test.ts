// The package as an app gets it: `npm pack` (of a fresh build), installed with msw 3, vitest, jsdom and happy-dom from
// the registry (or npm's cache) into a scratch app in the OS temp dir, then used there: tests in three environments,
// a React component tested in jsdom through the typed test API, tsc --strict (and tsc refusing wrong overrides and
// seeds), plain Node 24 and the oldest Node `engines` allows, Vite builds with and without msw's worker, and the CLI by npx.
// `npm run test:consumer` runs it alone. What every step shares (the scratch app, running a command in it) is in
// scratch-app.ts; a group of steps about one feature may live in a file of its own here, registered in the describe below.
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packKit } from '../../tools/pack-kit.ts';
import { pactVerifySteps } from './pact-verify.ts';
import { freePort } from '../support/spawned-server.ts';
import { chromiumExecutable, chromiumPresent, launchChromium } from '../browser/chromium.ts';
import { serveStatic } from '../browser/static-server.ts';
import { stopsAnswering } from '../support/stops-answering.ts';
import { pactExportSteps } from './pact-export.ts';
import { treeShakingSteps } from './tree-shaking.ts';
import { devtoolsSteps } from './devtools.ts';
import {
  appBin,
  appEnv,
  fixture,
  install,
  manifest,
  oldestNode,
  type Run,
  root,
  run,
  scratch,
  type StartedGroups,
  startListening,
  stopGroups,
  succeeded,
} from './scratch-app.ts';
import { bareInstallSteps } from './bare-install.ts';
import { githubActionSteps } from './github-action.ts';
import { storybookSteps } from './storybook.ts';
import { docSnippetSteps } from './doc-snippets.ts';

let appAndTypeErrorsRun: Promise<Run> | undefined;
/**
 * tsc over the app's browser side (src, web) and its type-errors/ files in one program (tsconfig.type-errors.json):
 * the compiler options are the same, so one run (about 12 CPU-s on a 2-core machine: every .d.ts is checked) gives
 * both the app's diagnostics, which must be none, and the ones type-errors/ must raise.
 */
function appAndTypeErrors(): Promise<Run> {
  appAndTypeErrorsRun ??= run(appBin('tsc'), ['-p', 'tsconfig.type-errors.json'], app);
  return appAndTypeErrorsRun;
}

let work = '';
let app = '';
let oldNode = '';
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
  oldNode = join(node22, 'node_modules', '.bin', 'node');
  scratch.packed = packed;
}, 600_000);

afterAll(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true });
});

// Each step runs real installs and processes; none is timed, the budget is only there to end a hung one (on a loaded
// 2-core machine tsc or a whole vitest suite took 130-180 s alone, and the app's vitest 400 s beside the other steps at
// load 25). The steps run side by side (this file is the longest of npm test, and most steps wait on a browser, a
// server or npm); none writes what another reads.
describe('the packed package, installed into a scratch app', { timeout: 400_000, concurrent: true }, () => {
  bareInstallSteps();
  githubActionSteps();
  pactVerifySteps();
  pactExportSteps();
  treeShakingSteps();
  docSnippetSteps();
  devtoolsSteps();

  // msw init public/ --save (beforeAll) put the worker the mock-enabled build ships into public/.
  it('builds the React app with Vite: with the fake when VITE_MOCK=true (a mock-enabled preview build), without it otherwise', async () => {
    const build = async (outDir: string, env: NodeJS.ProcessEnv): Promise<string> => {
      const result = succeeded(
        await run(appBin('vite'), ['build', '--outDir', outDir, '--logLevel', 'warn'], app, env),
        `vite build --outDir ${outDir}`,
      );
      expect(result.stderr).not.toMatch(/error/i);
      const html = await readFile(join(app, outDir, 'index.html'), 'utf8');
      expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">/);
      const assets = join(app, outDir, 'assets');
      const scripts = (await readdir(assets)).filter((name) => name.endsWith('.js'));
      return (await Promise.all(scripts.map((name) => readFile(join(assets, name), 'utf8')))).join('\n');
    };
    const mocked = await build('site-mock', { VITE_MOCK: 'true' });
    expect((await stat(join(app, 'site-mock', 'mockServiceWorker.js'))).isFile()).toBe(true);
    expect(mocked).toContain('mockServiceWorker');
    // The production build leaves the kit out: the worker is only imported behind VITE_MOCK.
    expect(await build('site', {})).not.toContain('mockServiceWorker');
  });

  // Two Playwright runs of 4 browsers each: far longer than the other steps on a loaded machine.
  it('runs Playwright with 4 workers against one serve: colliding tests pass with sessions and fail without', {
    timeout: 900_000,
  }, async () => {
    const playwright = async (sessions: 'on' | 'off'): Promise<{ run: Run; results: Record<string, string> }> => {
      const port = await freePort();
      const json = join(work, `playwright-${sessions}.json`);
      const run_ = await run(
        join(app, 'node_modules', '.bin', 'playwright'),
        ['test', '-c', 'e2e/playwright.config.ts'],
        app,
        // The browser tests' Chromium (the system's, else the packaged one), which the app's config launches.
        { MOCK_PORT: String(port), MOCK_SESSIONS: sessions, PW_JSON: json, CHROMIUM: await chromiumExecutable() },
      );
      const report = JSON.parse(await readFile(json, 'utf8')) as {
        suites: { specs: { title: string; ok: boolean }[] }[];
      };
      const specs = report.suites.flatMap((suite) => suite.specs);
      return {
        run: run_,
        results: Object.fromEntries(specs.map((spec) => [spec.title, spec.ok ? 'passed' : 'failed'])),
      };
    };
    const on = await playwright('on');
    expect(on.results, `${on.run.stdout}\n${on.run.stderr}`).toEqual({
      'a paused agent refuses tasks (409)': 'passed',
      'an active agent accepts tasks (200)': 'passed',
      'a 500 scenario on getAgent shows the error': 'passed',
      'an agent seeded by this test is there': 'passed',
      'the deploy form posted its name and revenue share (waitForRequest)': 'passed',
      'this session’s requests are this test’s own (requests)': 'passed',
    });
    expect(on.run.status).toBe(0);
    expect(on.run.stdout).toMatch(/6 passed/);
    expect(on.run.stdout).toMatch(/using 4 workers/);
    // The same tests on the shared default session: another test's reset, pause or 500 scenario leaks into them. Which
    // ones fail depends on when each worker's reset lands, so the check is that some do, each with a leaked answer.
    const off = await playwright('off');
    expect(Object.values(off.results).filter((result) => result === 'failed').length, off.run.stdout).toBeGreaterThan(
      0,
    );
    // A leaked answer: the task's bare status, the 500 problem's title, or a retrieve that came back 200 with an agent's
    // name because another worker's reset removed the 500 scenario.
    expect(off.run.stdout).toMatch(/Received string: {2}"(409|500 Internal server error|200|200 [^"]+)"/);
    expect(off.run.status).toBe(1);
  });

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

  it('runs the fake in vitest’s node, jsdom and happy-dom environments, and fails a request no handler covers', async () => {
    const result = await run(
      join(app, 'node_modules', '.bin', 'vitest'),
      ['run', '--reporter=default', '--reporter=json', '--outputFile.json=results.json'],
      app,
    );
    const report = JSON.parse(await readFile(join(app, 'results.json'), 'utf8')) as {
      testResults: {
        name: string;
        status: string;
        assertionResults: { status: string; failureMessages: string[] }[];
      }[];
    };
    const byFile = Object.fromEntries(
      report.testResults.map((file) => [
        file.name.slice(file.name.lastIndexOf('/') + 1),
        file.assertionResults.map((test) => test.status),
      ]),
    );
    const output = `${result.stdout}\n${result.stderr}`;
    expect(byFile, output).toEqual({
      'api-node.spec.ts': ['passed'],
      'api-jsdom.spec.ts': ['passed'],
      'api-happy-dom.spec.ts': ['passed'],
      'unhandled-request.spec.ts': ['failed'],
      'agent-card.spec.tsx': Array(9).fill('passed'),
      'agent-query.spec.tsx': Array(4).fill('passed'),
      'agent-card-pact.spec.tsx': Array(3).fill('passed'),
      'agent-card-errors.spec.tsx': Array(4).fill('passed'),
      'standalone-server.spec.ts': ['passed'],
      'deploy-form.spec.tsx': Array(3).fill('passed'),
      'standalone-beside-msw.spec.ts': ['passed'],
    });
    // It failed because msw refused the request, not for any other reason.
    expect(output).toMatch(/intercepted a request without a matching request handler/);
    const unhandled = report.testResults.find((file) => file.name.endsWith('unhandled-request.spec.ts'));
    expect(unhandled?.assertionResults[0]?.failureMessages.join('\n')).toMatch(/fetch failed/i);
    expect(result.status).toBe(1);
  }, 900_000);

  it('type-checks with tsc --strict and moduleResolution bundler, without allowImportingTsExtensions', async () => {
    // The browser-side app with no Node types at all (checked in the one program with type-errors/, which must hold
    // every diagnostic of it), and the node-only server entry with them.
    const [browserSide, node] = await Promise.all([
      appAndTypeErrors(),
      run(appBin('tsc'), ['-p', 'tsconfig.node.json'], app),
    ]);
    // Every diagnostic's first line starts with its file (its details follow indented): none may be outside type-errors/.
    const outside = `${browserSide.stdout}${browserSide.stderr}`
      .split('\n')
      .filter((line) => /^\S/.test(line) && !/^type-errors\//.test(line));
    expect(outside, 'tsconfig.json (src, web)').toEqual([]);
    expect(`${node.stdout}${node.stderr}`, 'tsconfig.node.json').toBe('');
    expect(node.status, 'tsconfig.node.json').toBe(0);
    const config = await readFile(join(app, 'tsconfig.json'), 'utf8');
    expect(config).toMatch(/"moduleResolution": "bundler"/);
    expect(config).not.toMatch(/allowImportingTsExtensions/);
    expect(JSON.parse(await readFile(join(app, 'tsconfig.type-errors.json'), 'utf8'))).toEqual({
      extends: './tsconfig.json',
      include: ['src', 'web', 'type-errors'],
    });
  }, 900_000);

  it('refuses, with tsc, every wrong override and seed its type-errors/ files mark, and nothing else there', async () => {
    const result = await appAndTypeErrors();
    expect(result.status).not.toBe(0);
    const found = [...result.stdout.matchAll(/^type-errors\/([\w-]+\.ts)\((\d+),\d+\): error (TS\d+)/gm)].map(
      ([, file, line, code]) => `${file}:${line} ${code}`,
    );
    // Each marked line (`// error TSxxxx: why`) announces the diagnostic tsc must give on the line below it.
    const expected: string[] = [];
    for (const file of await readdir(join(app, 'type-errors'))) {
      const lines = (await readFile(join(app, 'type-errors', file), 'utf8')).split('\n');
      lines.forEach((line, index) => {
        const code = /^\/\/ error (TS\d+):/.exec(line)?.[1];
        if (code) expected.push(`${file}:${index + 2} ${code}`);
      });
    }
    expect(expected.length).toBeGreaterThanOrEqual(10);
    expect(found.sort(), result.stdout).toEqual(expected.sort());
  }, 900_000);

  it.each([
    ['Node 24 (this one)', () => process.execPath],
    [`Node ${oldestNode}`, () => oldNode],
  ])(
    'imports every entry from plain %s with no flags (browser refused in Node, as msw/browser is)',
    async (_name, node) => {
      const version = succeeded(await run(node(), ['--version'], app), 'node --version').stdout.trim();
      expect(version === process.version || version === `v${oldestNode}`).toBe(true);
      const result = succeeded(
        await run(node(), ['import-every-entry.mjs', 'node', 'browser', 'handlers', 'core', 'server', 'spec'], app),
        'import-every-entry.mjs',
      );
      const entries = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(entries).toMatchObject({
        node: expect.arrayContaining(['setupMockServer', 'mintToken', 'overrideHandler', 'uncheckedOverrideHandler']),
        browser: { error: 'ERR_PACKAGE_PATH_NOT_EXPORTED' },
        handlers: expect.arrayContaining(['createHandlers', 'handlers']),
        core: expect.arrayContaining(['createMockCore', 'expectConforms', 'createTestApi', 'createRunnerClock']),
        server: expect.arrayContaining(['startMockServer', 'connectTestApi', 'overrideHandler', 'mintToken']),
        spec: expect.arrayContaining(['validateRequestBody', 'checkResponse', 'assumptions', 'openapiDocument']),
        // The entries share their chunks: one class, one registry, whichever entries an app imports.
        shared: expect.arrayContaining(['OverrideError', 'MockInputError', 'mintToken', 'createTestApi']),
        distinct: [],
      });
      const yaml = await readFile(fileURLToPath(entries['openapi.yaml'] as string), 'utf8');
      expect(yaml).toBe(await readFile(join(root, 'spec', 'openapi.yaml'), 'utf8'));
    },
  );

  it(`serves with --state (node:sqlite) on Node ${oldestNode}`, async () => {
    const server = spawn(
      oldNode,
      [join(app, 'node_modules', '.bin', 'agent-registry-kit'), 'serve', '--port', '0', '--state', 'store.db'],
      { cwd: app, env: appEnv, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        const onData = (chunk: Buffer): void => {
          output += chunk.toString();
          const match = /fake backend listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        };
        server.stdout.on('data', onData);
        server.stderr.on('data', onData);
        server.on('exit', (code) => reject(new Error(`serve exited ${String(code)}: ${output}`)));
      });
      const health = await fetch(`${url}/__mock/health`);
      expect(health.status).toBe(200);
      expect((await stat(join(app, 'store.db'))).isFile()).toBe(true);
    } finally {
      server.kill('SIGKILL');
    }
  });

  it('serves with npx, mints a token, deploys, and passes its own contract suite; killing the npx PID stops it', async () => {
    // In a process group of its own, so the clean-up below reaches the server even if it outlived npx.
    const server = spawn('npx', ['agent-registry-kit', 'serve', '--port', '0'], {
      cwd: app,
      env: appEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        server.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /fake backend listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        server.on('exit', (code) => reject(new Error(`serve exited ${String(code)}: ${output}`)));
      });
      const token = succeeded(await run('npx', ['agent-registry-kit', 'token'], app), 'token').stdout.trim();
      expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      const deployed = await fetch(`${url}/v1/agents/deploy`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'From npx', category: 'nft', model: 'claude-3', initialSupply: 10 }),
      });
      expect(deployed.status).toBe(201);

      const contract = await run('npx', ['agent-registry-kit', 'contract', '--junit', 'report.xml'], app, {
        API_BASE_URL: url,
        API_TOKEN: token,
      });
      expect(contract.stdout).toMatch(/^PASSED: \d+ passed, 0 failed/m);
      expect(contract.status, `${contract.stdout}\n${contract.stderr}`).toBe(0);
      expect(`${contract.stdout}${contract.stderr}`).not.toContain(token);
      expect(await readFile(join(app, 'report.xml'), 'utf8')).toMatch(/<testsuites [^>]*failures="0"/);

      // The PID a shell would get is npx's: stopping it must stop the server, not leave it serving.
      const gone = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await gone;
      expect(await stopsAnswering(`${url}/__mock/health`)).toBe(true);
    } finally {
      try {
        if (server.pid !== undefined) process.kill(-server.pid, 'SIGKILL');
      } catch {
        // the group is gone already: nothing was left running
      }
    }
  });

  it.skipIf(!chromiumPresent)(
    'puts a validating proxy with npx in front of a server, used by a browser page; its recording is replayed by spec-change and served by serve --from-recording',
    async () => {
      const started: StartedGroups = [];
      try {
        const upstream = await startListening('npx', ['agent-registry-kit', 'serve', '--port', '0'], started);
        const proxy = await startListening(
          'npx',
          ['agent-registry-kit', 'proxy', '--upstream', upstream, '--port', '0', '--record', 'recording.json'],
          started,
          { listening: /proxy listening on (http:\/\/[\d.:]+)/ },
        );
        const token = succeeded(await run('npx', ['agent-registry-kit', 'token'], app), 'token').stdout.trim();
        const list = (await (await fetch(`${upstream}/__mock/agents?status=active`)).json()) as {
          agents: { agentId: string }[];
        };
        const agentId = list.agents[0]?.agentId ?? '';
        // A page on another origin, as a dev server would serve the app: it calls the API through the proxy (with the
        // CORS preflight an Authorization header brings), and shows what came back.
        await mkdir(join(app, 'proxy-page'), { recursive: true });
        await writeFile(
          join(app, 'proxy-page', 'index.html'),
          `<!doctype html><title>proxy page</title><script type="module">
const [proxy, agentId, token] = decodeURIComponent(location.hash.slice(1)).split(' ');
const answer = await fetch(proxy + '/v1/agents/' + agentId, { headers: { authorization: 'Bearer ' + token } });
document.body.dataset.result = answer.status + ' ' + (await answer.json()).name;
</script>`,
        );
        const page = await serveStatic(join(app, 'proxy-page'));
        const browser = await launchChromium();
        let shown: string | null = null;
        try {
          const tab = await browser.newPage();
          await tab.goto(`${page.origin}/#${encodeURIComponent(`${proxy} ${agentId} ${token}`)}`);
          await tab.waitForFunction(() => document.body.dataset.result !== undefined);
          shown = await tab.evaluate(() => document.body.dataset.result ?? null);
        } finally {
          await browser.close();
          await page.close();
        }
        const agent = (await (
          await fetch(`${upstream}/v1/agents/${agentId}`, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as { name: string };
        expect(shown).toBe(`200 ${agent.name}`);
        const violations = (await (await fetch(`${proxy}/__mock/violations`)).json()) as { total: number };
        expect(violations.total).toBe(0);
        const coverage = (await (await fetch(`${proxy}/__mock/coverage`)).json()) as {
          entries: { operationId: string; key: string; count: number; category: string }[];
        };
        expect(
          coverage.entries.find((e) => e.category === 'status' && e.operationId === 'getAgent' && e.key === '200')
            ?.count,
        ).toBe(1);

        // The recording is written a moment after each exchange.
        let recording = '';
        for (let attempt = 0; attempt < 50 && !recording.includes('"status": 200'); attempt += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          recording = await readFile(join(app, 'recording.json'), 'utf8');
        }
        expect(recording).toContain('agent-registry-kit-recording');
        expect(recording).not.toContain(token);
        const replayed = await run(
          'npx',
          [
            'agent-registry-kit',
            'spec-change',
            '--base',
            'node_modules/agent-registry-kit/spec/openapi.yaml',
            '--report',
            'recording.json',
          ],
          app,
        );
        expect(replayed.status, replayed.stdout + replayed.stderr).toBe(0);
        expect(replayed.stdout).toMatch(/[1-9]\d* report exchange\(s\)/);
        const served = await startListening(
          'npx',
          ['agent-registry-kit', 'serve', '--port', '0', '--from-recording', 'recording.json'],
          started,
        );
        const again = await fetch(`${served}/v1/agents/${agentId}`, { headers: { authorization: `Bearer ${token}` } });
        expect(((await again.json()) as { name: string }).name).toBe(agent.name);
        const all = (await (await fetch(`${served}/__mock/agents`)).json()) as { total: number };
        expect(all.total).toBe(1);
      } finally {
        stopGroups(started);
      }
    },
  );

  storybookSteps();

  it('lists its subcommands, and says in one line with status 2 what is wrong', async () => {
    // The installed bin itself (npx, which finds the same file, is what the serve and proxy steps use).
    const cli = appBin('agent-registry-kit');
    const help = succeeded(await run(cli, ['--help'], app), '--help');
    for (const name of ['serve', 'contract', 'token', 'assumptions', 'docs', 'pact'])
      expect(help.stdout).toMatch(` ${name} `);
    const version = succeeded(await run(cli, ['--version'], app), '--version');
    expect(version.stdout).toBe(
      `${(JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string }).version}\n`,
    );
    const cases: [string[], RegExp][] = [
      [['deploy'], /^agent-registry-kit: unknown subcommand "deploy"; usage: agent-registry-kit </],
      [['serve', '--prot', '1'], /^agent-registry-kit: Unknown option '--prot'/],
      [['docs'], /^agent-registry-kit: docs needs @redocly\/cli, which is not installed here; run npm install/],
    ];
    for (const [args, message] of cases) {
      const result = await run(cli, args, app);
      expect(result.status, args.join(' ')).toBe(2);
      const lines = result.stderr.split('\n').filter((line) => line !== '' && !/^npm (warn|notice)/.test(line));
      expect(lines, args.join(' ')).toHaveLength(1);
      expect(lines[0]).toMatch(message);
    }
  });
});
