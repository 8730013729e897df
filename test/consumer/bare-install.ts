import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { expect, it } from 'vitest';
import {
  appBin,
  install,
  manifest,
  root,
  run,
  type Run,
  type StartedGroups,
  scratch,
  startListening,
  stopGroups,
  succeeded,
} from './scratch-app.ts';

/** The optional peers of the kit (@playwright/test included: only its own entry may load it). */
const optionalPeers = Object.keys(manifest.peerDependencies).filter(
  (name) => manifest.peerDependenciesMeta[name]?.optional === true,
);
/** The packages a frontend app may lack: the ones the bare app leaves out. */
const heavyPeers = ['vitest', 'fast-check', 'pg', 'ajv', 'ajv-formats'];
/**
 * Files the guides link for readers of the repository (how to contribute, the lint configs, the console's screenshots:
 * some 700 kB of pictures an install has no use for): not in the package.
 */
const repositoryOnly = new Set(['CONTRIBUTING.md', '.dependency-cruiser.cjs', '.spectral.yaml']);
const repositoryOnlyFolders = ['docs/console/'];

/** npm's output of the bare app's install. */
let bareInstallOutput = '';
/** The bare app, installed once for the steps below (the tarball and msw 3 only). */
let bareInstall: Promise<string> | undefined;
function bareApp(): Promise<string> {
  bareInstall ??= (async () => {
    const app = join(scratch.work, 'bare-app');
    await mkdir(app);
    await writeFile(
      join(app, 'package.json'),
      `${JSON.stringify({ name: 'bare-app', private: true, type: 'module' })}\n`,
    );
    const installed = succeeded(
      await run(
        'npm',
        [...install, join(scratch.work, scratch.packed.filename), `msw@${manifest.peerDependencies.msw}`],
        app,
      ),
      'npm install in the bare app',
    );
    bareInstallOutput = `${installed.stdout}${installed.stderr}`;
    return app;
  })();
  return bareInstall;
}

/** The one line a refused command printed (npm's own warnings aside), after checking it exited 2. */
function oneLine(result: Run, what: string): string {
  expect(result.status, `${what}: ${result.stdout}${result.stderr}`).toBe(2);
  const lines = result.stderr.split('\n').filter((line) => line !== '' && !/^npm (warn|notice)/.test(line));
  expect(lines, what).toHaveLength(1);
  return lines[0] ?? '';
}

/** The npm command a missing-peer line names: `npm install --save-dev a@^1 b@^2`, as arguments. */
function namedInstall(line: string): string[] {
  const command = /; run (npm install [^,]+), then try again$/.exec(line)?.[1];
  expect(command, line).toBeDefined();
  return (command ?? '').split(' ').slice(1);
}

/** A plain Node script of the app: the msw handlers in-process, a deploy through fetch. */
const mswScript = `import { mintToken, setupMockServer } from 'agent-registry-kit/node';
const server = setupMockServer({ baseUrl: 'https://api.example.test' });
server.listen({ onUnhandledFrame: 'error' });
const answer = await fetch('https://api.example.test/v1/agents/deploy', {
  method: 'POST',
  headers: { authorization: 'Bearer ' + (await mintToken()), 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'Bare', category: 'nft', model: 'claude-3', initialSupply: 10 }),
});
console.log(answer.status, (await answer.json()).name);
server.close();
`;

/** Installs without vitest, fast-check, pg and ajv beside msw alone, and there serves, mints a token and mocks with msw. */
async function servesWithoutPeers(): Promise<void> {
  const app = await bareApp();
  const listed = await run('npm', ['ls', ...heavyPeers, '--all', '--parseable'], app);
  expect(listed.stdout.trim(), 'npm ls vitest fast-check pg').toBe('');
  const started: StartedGroups = [];
  try {
    const url = await startListening('npx', ['agent-registry-kit', 'serve', '--port', '0'], started, { cwd: app });
    const token = succeeded(await run('npx', ['agent-registry-kit', 'token'], app), 'token').stdout.trim();
    const deployed = await fetch(`${url}/v1/agents/deploy`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bare serve', category: 'nft', model: 'claude-3', initialSupply: 10 }),
    });
    expect(deployed.status).toBe(201);
  } finally {
    stopGroups(started);
  }
  await writeFile(join(app, 'msw-deploy.mjs'), mswScript);
  const msw = succeeded(await run(process.execPath, ['msw-deploy.mjs'], app), 'node msw-deploy.mjs');
  expect(msw.stdout.trim()).toBe('201 Bare');
}

/**
 * Installs from the tarball with no install-script warning naming the kit: it builds before packing (`prepack`), so its
 * package.json has no script npm runs on install.
 */
async function installsWithoutScripts(): Promise<void> {
  const app = await bareApp();
  const warnings = bareInstallOutput
    .split('\n')
    .filter((line) => /install-scripts|lifecycle|prepare|postinstall/i.test(line));
  expect(warnings.filter((line) => line.includes('agent-registry-kit'))).toEqual([]);
  const installed = JSON.parse(
    await readFile(join(app, 'node_modules', 'agent-registry-kit', 'package.json'), 'utf8'),
  ) as { scripts?: Record<string, string> };
  for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
    expect(installed.scripts?.[hook], hook).toBeUndefined();
}

/**
 * Says in one line (exit 2) what contract, diff, serve --state postgres:// and spec-change need, and runs the first
 * three once that is installed.
 */
async function refusesThenRunsWithPeers(): Promise<void> {
  const app = await bareApp();
  const cli = appBin('agent-registry-kit', app);
  const env = { API_BASE_URL: 'http://127.0.0.1:1', API_TOKEN: 'not-a-secret-token' };
  const postgres = ['serve', '--port', '0', '--state', 'postgres://127.0.0.1:1/x'];
  const [contract, diff, pg, specChange] = await Promise.all([
    run(cli, ['contract'], app, env),
    run(cli, ['diff', '--fake', env.API_BASE_URL, '--real', env.API_BASE_URL], app, env),
    run(cli, postgres, app),
    run(cli, ['spec-change', '--base', 'node_modules/agent-registry-kit/spec/openapi.yaml'], app),
  ]);
  const lines = {
    contract: oneLine(contract, 'contract'),
    diff: oneLine(diff, 'diff'),
    postgres: oneLine(pg, 'serve --state postgres://'),
    specChange: oneLine(specChange, 'spec-change'),
  };
  const peerRange = (name: string): string => `${name}@${manifest.peerDependencies[name]}`;
  expect(lines.contract).toBe(
    `agent-registry-kit: contract needs vitest and fast-check, which are not installed here; run npm install --save-dev ${peerRange('vitest')} ${peerRange('fast-check')}, then try again`,
  );
  expect(lines.diff).toMatch(
    /^agent-registry-kit: diff needs fast-check, which is not installed here; run npm install/,
  );
  expect(lines.postgres).toMatch(
    /^agent-registry-kit: serve --state postgres:\/\/… needs pg, which is not installed here; run npm install --save-dev pg@/,
  );
  expect(lines.specChange).toBe(
    `agent-registry-kit: spec-change needs ajv and ajv-formats, which are not installed here; run npm install --save-dev ${peerRange('ajv')} ${peerRange('ajv-formats')}, then try again`,
  );

  // What the lines name, at the ranges they name: the ones the scratch app's npm install resolved and installed
  // (consumer.test.ts installs `name@<peer range>` for each), so npm's resolution of them is proven there. Here they are
  // added beside a copy of the bare app (hard links; the bare app itself stays bare for the steps beside this one) as
  // links to the scratch app's copies, which saves two npm installs and proves the same of the kit: it runs with what
  // the lines name added to the bare install, and nothing else.
  expect(namedInstall(lines.contract)).toEqual(['install', '--save-dev', peerRange('vitest'), peerRange('fast-check')]);
  expect(namedInstall(lines.postgres)).toEqual(['install', '--save-dev', peerRange('pg')]);
  const withPeers = join(scratch.work, 'bare-app-with-peers');
  succeeded(await run('cp', ['-al', app, withPeers], scratch.work), 'cp -al bare-app');
  for (const name of ['vitest', 'fast-check', 'pg'])
    await symlink(join(scratch.app, 'node_modules', name), join(withPeers, 'node_modules', name));
  const peersCli = appBin('agent-registry-kit', withPeers);
  const connecting = oneLine(await run(peersCli, postgres, withPeers), 'serve --state postgres:// with pg');
  expect(connecting).toMatch(/postgres:\/\/127\.0\.0\.1:1\/x cannot be used \(connect ECONNREFUSED/);
  const started: StartedGroups = [];
  try {
    const url = await startListening(peersCli, ['serve', '--port', '0'], started, { cwd: withPeers });
    const token = succeeded(await run(peersCli, ['token'], withPeers), 'token').stdout.trim();
    const passed = await run(peersCli, ['contract'], withPeers, { API_BASE_URL: url, API_TOKEN: token });
    expect(passed.stdout, passed.stderr).toMatch(/^PASSED: \d+ passed, 0 failed/m);
    expect(passed.status).toBe(0);
  } finally {
    stopGroups(started);
  }
}

/** Runs the README’s CI line for any CI as written in an empty folder: npx installs the kit with what contract needs. */
async function runsTheCiSnippet(): Promise<void> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const command = /`(npx --yes [^`]*agent-registry-kit contract [^`]*)`/.exec(readme)?.[1] ?? '';
  const words = command.split(' ');
  expect(words.slice(0, 2)).toEqual(['npx', '--yes']);
  // The packages the snippet gives npx: the kit, and what contract needs (the step above holds its line to these) at
  // the major of the kit's peer range.
  const packages = words.flatMap((word, index) => (words[index - 1] === '-p' ? [word] : []));
  const major = (name: string): string => `${name}@^${/\d+/.exec(manifest.peerDependencies[name] ?? '')?.[0]}`;
  expect(packages).toEqual(['agent-registry-kit', major('vitest'), major('fast-check')]);
  // An empty folder, as on a clean runner; npx's own cache in the scratch folder (the package store is shared, so
  // nothing is downloaded twice), and the tarball where the registry's name is.
  const ci = join(scratch.work, 'ci-runner');
  const cache = join(scratch.work, 'npm-cache');
  await mkdir(ci);
  await mkdir(cache);
  const store = succeeded(await run('npm', ['config', 'get', 'cache'], ci), 'npm config get cache').stdout.trim();
  await symlink(posix.join(store, '_cacache'), join(cache, '_cacache'));
  const args = words
    .slice(1)
    .map((word, index) =>
      word === 'agent-registry-kit' && words[index] === '-p' ? join(scratch.work, scratch.packed.filename) : word,
    );
  const started: StartedGroups = [];
  try {
    const url = await startListening(appBin('agent-registry-kit'), ['serve', '--port', '0'], started);
    const token = succeeded(await run(appBin('agent-registry-kit'), ['token'], scratch.app), 'token').stdout.trim();
    const result = await run('npx', args, ci, {
      API_BASE_URL: url,
      API_TOKEN: token,
      npm_config_cache: cache,
      npm_config_prefer_offline: 'true',
    });
    expect(result.stdout, result.stderr).toMatch(/^PASSED: \d+ passed, 0 failed/m);
    expect(result.status).toBe(0);
    expect(await readFile(join(ci, 'report.xml'), 'utf8')).toMatch(/<testsuites [^>]*failures="0"/);
  } finally {
    stopGroups(started);
  }
}

/** Loads an optional peer only on the paths that need it: no entry and no other subcommand imports one. */
async function loadsPeersOnlyWhereNeeded(): Promise<void> {
  const installed = join(scratch.app, 'node_modules', 'agent-registry-kit');
  const shipped = new Set(scratch.packed.files.map((file) => file.path));
  /** The optional peers `file` reaches through static imports (what loading it loads), with the file importing each. */
  const reached = async (file: string, seen = new Set<string>(), found: string[] = []): Promise<string[]> => {
    if (seen.has(file)) return found;
    seen.add(file);
    const source = await readFile(join(installed, file), 'utf8');
    for (const [, specifier = ''] of source.matchAll(
      /^\s*(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?['"]([^'"]+)['"]/gm,
    )) {
      if (specifier.startsWith('.')) {
        const next = posix.normalize(posix.join(posix.dirname(file), specifier));
        expect(shipped.has(next), `${file} imports ${specifier}`).toBe(true);
        await reached(next, seen, found);
      } else {
        const name = specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/');
        if (optionalPeers.includes(name)) found.push(`${name} (${file})`);
      }
    }
    return found;
  };
  const entries = Object.entries(manifest.exports).flatMap(([entry, target]) =>
    (typeof target === 'string' ? [target] : Object.values(target))
      .filter((path): path is string => path?.endsWith('.js') === true)
      .map((path) => [entry, path.replace(/^\.\//, '')] as const),
  );
  const commands = [...shipped].filter((path) => /^dist\/scripts\/(cli|commands\/[\w-]+)\.js$/.test(path));
  const loads: Record<string, string[]> = {};
  for (const [name, file] of [...entries, ...commands.map((file) => [file, file] as const)])
    loads[name] = await reached(file);
  // Only the Playwright entry needs its peer up front; contract, diff and serve load theirs once they know they run.
  expect(loads).toEqual(
    Object.fromEntries(
      Object.keys(loads).map((name) => [
        name,
        name === './playwright' ? ['@playwright/test (dist/mocks/adapters/playwright/playwright.js)'] : [],
      ]),
    ),
  );
}

/** Ships every file its README and guides link (the control plane’s document included). */
async function shipsWhatTheGuidesLink(): Promise<void> {
  const installed = join(scratch.app, 'node_modules', 'agent-registry-kit');
  const shipped = new Set(scratch.packed.files.map((file) => file.path));
  const broken: string[] = [];
  for (const page of [...shipped].filter((path) => path.endsWith('.md'))) {
    const text = await readFile(join(installed, page), 'utf8');
    for (const [, target = ''] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const path = posix.normalize(posix.join(posix.dirname(page), target));
      const onlyInTheRepository =
        repositoryOnly.has(path) || repositoryOnlyFolders.some((folder) => path.startsWith(folder));
      if (!shipped.has(path) && !onlyInTheRepository) broken.push(`${page} → ${target}`);
    }
  }
  expect(broken).toEqual([]);
  expect(shipped).toContain('mocks/control-plane/control-plane.yaml');
}

/** The consumer steps of the install without optional peers; called inside consumer.test.ts's concurrent describe. */
export function bareInstallSteps(): void {
  it(
    'installs from the tarball with no install-script warning of its own (the build runs on prepack)',
    installsWithoutScripts,
  );
  it(
    'installs without vitest, fast-check, pg and ajv beside msw alone, and there serves, mints a token and mocks with msw',
    servesWithoutPeers,
  );
  it(
    'says in one line (exit 2) what contract, diff, serve --state postgres:// and spec-change need, and runs the first three once that is installed',
    refusesThenRunsWithPeers,
  );
  it(
    'runs the README’s CI snippet as written in an empty folder: npx installs the kit with what contract needs',
    runsTheCiSnippet,
  );
  it(
    'loads an optional peer only on the paths that need it: no entry and no other subcommand imports one',
    loadsPeersOnlyWhereNeeded,
  );
  it('ships every file its README and guides link (the control plane’s document included)', shipsWhatTheGuidesLink);
}
