// The installed kit run as a user runs it: every entry imported from plain Node 24 and the oldest Node `engines`
// allows, `serve --state` on that Node, `serve`, `token` and `contract` by npx, a validating proxy before a browser
// page whose recording spec-change replays and serve --from-recording serves, and the CLI's help and one-line errors.
// Registered in consumer.test.ts's describe; reads `scratch` when its tests run.
import { spawn } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { chromiumPresent, launchChromium } from '../browser/chromium.ts';
import { serveStatic } from '../browser/static-server.ts';
import { stopsAnswering } from '../support/stops-answering.ts';
import {
  appBin,
  appEnv,
  oldestNode,
  root,
  run,
  scratch,
  type StartedGroups,
  startListening,
  stopGroups,
  succeeded,
} from './scratch-app.ts';

/** Registers the steps that import and serve the installed kit; call it inside consumer.test.ts's describe. */
export function installedServeSteps(): void {
  entrySteps();
  npxServeSteps();
  proxySteps();
}

/** Every entry imported from plain Node (this one and the oldest), and serve --state on the oldest. */
function entrySteps(): void {
  it.each([
    ['Node 24 (this one)', () => process.execPath],
    [`Node ${oldestNode}`, () => scratch.oldNode],
  ])(
    'imports every entry from plain %s with no flags (browser refused in Node, as msw/browser is)',
    async (_name, node) => {
      const { app } = scratch;
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
    const { app, oldNode } = scratch;
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
}

/** serve, token and contract by npx; stopping npx stops the server. */
function npxServeSteps(): void {
  it('serves with npx, mints a token, deploys, and passes its own contract suite; killing the npx PID stops it', async () => {
    const { app } = scratch;
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
}

/** The validating proxy before a browser page, its recording replayed and served. */
function proxySteps(): void {
  it.skipIf(!chromiumPresent)(
    'puts a validating proxy with npx in front of a server, used by a browser page; its recording is replayed by spec-change and served by serve --from-recording',
    async () => {
      const { app } = scratch;
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
}

/** Registers the step on the CLI's help and errors; call it inside consumer.test.ts's describe. */
export function cliMessageSteps(): void {
  it('lists its subcommands, and says in one line with status 2 what is wrong', async () => {
    const { app } = scratch;
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
}
