// `agent-registry-kit diff` as a process: one-line mistakes with exit 2, exit 0 when two fakes agree, exit 1 on a
// divergence or a step left out by --max-writes, --read-only sends nothing a correct server accepts, tokens never printed.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { startBreakingProxy, type Breakage } from '../contract/breaking-proxy.ts';
import { buildScript, defaultScriptOptions } from '../../differential/diff-script.ts';
import { brokenServers } from '../contract/broken-servers.ts';
import { startFake } from '../robustness/fake-process.ts';
import { repoRoot, type SpawnedServer } from '../support/spawned-server.ts';

const run = promisify(execFile);

async function diff(
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number; stdout: string; stderr: string; json: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-registry-diff-'));
  const jsonFile = join(dir, 'diff.json');
  const childEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE,
    NO_COLOR: '1',
  };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) childEnv[name] = value;
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/commands/diff.ts', '--json', jsonFile, ...args], {
      cwd: repoRoot,
      env: childEnv,
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr, json: readFileSync(jsonFile, 'utf8') };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    let json = '';
    try {
      json = readFileSync(jsonFile, 'utf8');
    } catch {
      json = '';
    }
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '', json };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let fakeA: SpawnedServer | undefined;
let fakeB: SpawnedServer | undefined;
let token = '';
let otherToken = '';

beforeAll(async () => {
  [fakeA, fakeB] = await Promise.all([startFake(), startFake(['--seed', '9'])]);
  token = await mintToken({ sub: 'diff-cli' });
  otherToken = await mintToken({ sub: 'diff-cli-real' });
}, 60_000);

afterAll(async () => {
  await Promise.all([fakeA?.stop(), fakeB?.stop()]);
});

function urls(): { a: string; b: string } {
  if (!fakeA || !fakeB) throw new Error('a fake did not start');
  return { a: fakeA.baseUrl, b: fakeB.baseUrl };
}

describe('misuse: one line saying what to fix, exit status 2', () => {
  test.each([
    [['--real', 'http://127.0.0.1:1'], { API_TOKEN: 't' }, /--fake is required/],
    [['--fake', 'nope', '--real', 'http://127.0.0.1:1'], { API_TOKEN: 't' }, /--fake is not a URL/],
    [['--fake', 'http://127.0.0.1:1/v1', '--real', 'http://127.0.0.1:1'], { API_TOKEN: 't' }, /must not end with \/v1/],
    [['--fake', 'http://127.0.0.1:1', '--real', 'http://127.0.0.1:2'], {}, /no token is set; export FAKE_TOKEN/],
    [['--fake', 'http://127.0.0.1:1', '--real', 'http://127.0.0.1:2'], { FAKE_TOKEN: 't' }, /REAL_TOKEN is not set/],
    [
      ['--fake', 'http://127.0.0.1:1', '--real', 'http://127.0.0.1:2', '--read-only'],
      { API_TOKEN: 't' },
      /--read-only needs an existing agent/,
    ],
    [
      ['--fake', 'http://127.0.0.1:1', '--real', 'http://127.0.0.1:2', '--seed', 'x'],
      { API_TOKEN: 't' },
      /--seed must/,
    ],
    [['--fake', 'http://127.0.0.1:1', '--bogus'], { API_TOKEN: 't' }, /Unknown option '--bogus'/],
    [
      ['--fake', 'http://127.0.0.1:1', '--real', 'http://127.0.0.1:2'],
      { FAKE_TOKEN: 'Bearer t', REAL_TOKEN: 't' },
      /FAKE_TOKEN holds a space/,
    ],
    [
      ['--fake', 'http://127.0.0.1:1', '--real', 'http://127.0.0.1:1'],
      { API_TOKEN: 'secret.token.value' },
      /cannot reach the fake server/,
    ],
  ])('%j %j', async (args, env, message) => {
    const result = await diff(args, env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^agent-registry-kit: /);
    expect(result.stderr).not.toContain('secret.token.value');
  });
});

describe('against servers', () => {
  test('two fakes agree: exit 0, AGREE, and the --json report says so', async () => {
    const { a, b } = urls();
    const result = await diff(['--fake', a, '--real', b, '--seed', '11'], { API_TOKEN: token });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    // The script's length comes from the script itself, so a step added to it (an operation, an auth variant) needs no edit here.
    const steps = buildScript({ seed: 11, ...defaultScriptOptions, existingAgent: false }).length;
    expect(result.stdout).toMatch(new RegExp(`^AGREE: ${steps} of ${steps} steps compared, 0 diverged`, 'm'));
    const report = JSON.parse(result.json) as { verdict: string; seed: number; steps: unknown[] };
    expect({ verdict: report.verdict, seed: report.seed, steps: report.steps.length }).toEqual({
      verdict: 'agree',
      seed: 11,
      steps,
    });
  }, 60_000);

  test('a divergence exits 1, and neither token appears anywhere, even when the server echoes it', async () => {
    const { a, b } = urls();
    const altered = brokenServers.find(([name]) => name.startsWith('accepts a token whose signature'))?.[1];
    const accepts = altered?.given({ token: otherToken }) ?? {};
    const echo: Breakage = {
      request: (req) => accepts.request?.(req) ?? req,
      response: (res, req) => ({
        ...res,
        headers: { ...res.headers, 'x-echo-authorization': req.headers.authorization ?? '' },
        body: res.body.replace('"detail":"', `"detail":"you sent ${req.headers.authorization ?? 'nothing'}; `),
      }),
    };
    const proxy = await startBreakingProxy(b, echo);
    try {
      const result = await diff(['--fake', a, '--real', proxy.url, '--seed', '11'], {
        FAKE_TOKEN: token,
        // As read from a token file with CRLF endings: fetch sends it trimmed, so the redactor must match it trimmed.
        REAL_TOKEN: ` ${otherToken}\r\n`,
      });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toContain('✗ auth/getAgent/bad-signature');
      expect(result.stdout).toContain('Bearer <REAL_TOKEN>');
      expect(result.json).toContain('you sent Bearer <redacted>');
      const secrets = [token, otherToken, ...token.split('.'), ...otherToken.split('.')].filter((s) => s.length >= 8);
      for (const [where, text] of Object.entries({ stdout: result.stdout, stderr: result.stderr, json: result.json }))
        for (const secret of secrets) expect(text.includes(secret), `${where} contains part of a token`).toBe(false);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  test('tokens neither server accepts: nothing diverges, but the run is inconclusive and says why, exit 1', async () => {
    const { a, b } = urls();
    const result = await diff(['--fake', a, '--real', b, '--seed', '11'], { API_TOKEN: 'a.token-no-server.accepts' });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^INCONCLUSIVE: .* 0 diverged/m);
    expect(result.stdout).toContain('deploy/example-1: both 401, the spec says 201');
    expect(result.stdout).toContain('are FAKE_TOKEN / REAL_TOKEN tokens each server accepts?');
  }, 60_000);

  test('--max-writes caps the POSTs each server gets, and the steps it leaves out fail the run', async () => {
    const { a, b } = urls();
    const proxy = await startBreakingProxy(b, {});
    try {
      const result = await diff(['--fake', a, '--real', proxy.url, '--max-writes', '5'], { API_TOKEN: token });
      expect(proxy.log.filter((entry) => entry.method === 'POST').length).toBe(5);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('left out by --max-writes (does not count as agreement)');
      expect(result.stdout).toMatch(/0 diverged \(0 divergence\(s\)\)/);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  test('--read-only sends nothing a correct server accepts except GETs, and passes on agreeing servers', async () => {
    const { a, b } = urls();
    const deployed = await Promise.all(
      [a, b].map(async (base) => {
        const answer = await fetch(`${base}/v1/agents/deploy`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'read-only target', category: 'defi', model: 'llama-2', initialSupply: 10 }),
        });
        return ((await answer.json()) as { agentId: string }).agentId;
      }),
    );
    const proxies = await Promise.all([startBreakingProxy(a, {}), startBreakingProxy(b, {})]);
    try {
      const result = await diff(['--fake', proxies[0].url, '--real', proxies[1].url, '--read-only'], {
        API_TOKEN: token,
        FAKE_AGENT_ID: deployed[0],
        REAL_AGENT_ID: deployed[1],
      });
      expect(result.code, result.stdout).toBe(0);
      for (const proxy of proxies) {
        expect(proxy.log.filter((entry) => entry.method === 'POST' && entry.status < 400)).toEqual([]);
        expect(proxy.log.some((entry) => entry.method === 'GET' && entry.status === 200)).toBe(true);
      }
      expect(result.stdout).toContain('not compared, --read-only');
    } finally {
      await Promise.all(proxies.map((proxy) => proxy.close()));
    }
  }, 60_000);
});
