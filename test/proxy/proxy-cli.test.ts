// `agent-registry-kit proxy` as a process: one-line usage mistakes with exit 2, and the whole loop a developer runs:
// the proxy in front of one fake records the app's session, `spec-change --report` replays the recording, and
// `serve --from-recording` serves the same agents from a second fake.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { repoRoot, spawnServer, type SpawnedServer } from '../support/spawned-server.ts';
import { appSession, playSession } from './app-session.ts';

const run = promisify(execFile);
const cli = join(repoRoot, 'scripts/cli.ts');

async function kit(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { cwd: repoRoot, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

function start(name: string, args: string[]): Promise<SpawnedServer> {
  return spawnServer({
    name,
    args: [cli, ...args],
    ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    timeoutMs: 30_000,
  });
}

describe('proxy usage mistakes', () => {
  it.each([
    [[], /--upstream is required/],
    [['--upstream', 'ftp://staging.example.com'], /--upstream must be http or https, got ftp:/],
    [['--upstream', 'https://user:pw@staging.example.com'], /--upstream must not carry a user or password/],
    [['--upstream', 'http://127.0.0.1:1', '--timeout', '0'], /--timeout must be a whole number of at least 1/],
    [['--upstream', 'http://127.0.0.1:1', '--recrd', 'x.json'], /Unknown option '--recrd'/],
    [
      ['--upstream', 'http://127.0.0.1:1', '--host', '0.0.0.0', '--port', '0'],
      /--host 0\.0\.0\.0 makes .* reachable from the network.*--control-token/,
    ],
    [
      ['--upstream', 'http://127.0.0.1:1', '--record', '/nonexistent-dir/x.json'],
      /cannot write --record \/nonexistent-dir\/x\.json/,
    ],
    // Node ignores a CA file with no PEM certificate in it: the proxy would trust nothing extra and say nothing.
    [['--upstream', 'https://127.0.0.1:1', '--ca', 'package.json'], /--ca package\.json holds no PEM certificate/],
  ])('%j: one line, exit 2', async (args, message) => {
    const { code, stdout, stderr } = await kit(['proxy', ...args]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--help lists every option and exits 0', async () => {
    const { code, stdout } = await kit(['proxy', '--help']);
    expect(code).toBe(0);
    for (const flag of ['--upstream', '--fail-on-violation', '--record', '--insecure', '--timeout', '--ca'])
      expect(stdout).toContain(flag);
  });
});

describe('record, replay, serve', () => {
  let work = '';
  let fake: SpawnedServer;
  let token = '';

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'agent-registry-kit-proxy-cli-'));
    fake = await start('fake', ['serve', '--port', '0']);
    token = await mintToken({ sub: 'proxy-cli' });
  }, 60_000);

  afterAll(async () => {
    await fake.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('the recording of a session is replayed by spec-change and its agents served by serve --from-recording', async () => {
    const file = join(work, 'session.json');
    const proxy = await start('proxy', ['proxy', '--upstream', fake.baseUrl, '--port', '0', '--record', file]);
    const auth = { authorization: `Bearer ${token}` };
    const list = (await (await fetch(`${fake.baseUrl}/__mock/agents?status=active`)).json()) as {
      agents: { agentId: string }[];
    };
    const seen = list.agents.slice(0, 2).map((agent) => agent.agentId);
    const lastSeen: unknown[] = [];
    try {
      await playSession(proxy.baseUrl, appSession(token, seen[0] ?? ''));
      // The agents as the app last saw them, through the proxy: what the recording holds and the served fake starts from.
      for (const agentId of seen)
        lastSeen.push(await (await fetch(`${proxy.baseUrl}/v1/agents/${agentId}`, { headers: auth })).json());
    } finally {
      await proxy.stop();
    }
    expect(proxy.output()).toMatch(/distinct violation\(s\) seen:\n✗ \[/);
    expect(proxy.output()).toContain('✗ [request-validation]');
    const recorded = await readFile(file, 'utf8');
    expect(proxy.output() + recorded).not.toContain(token);

    const head = join(work, 'head.yaml');
    const spec = await readFile(join(repoRoot, 'spec/openapi.yaml'), 'utf8');
    await writeFile(head, spec.replace('enum: [low, normal, high]', 'enum: [normal, high]'));
    const replayed = await kit([
      'spec-change',
      '--base',
      join(repoRoot, 'spec/openapi.yaml'),
      '--head',
      head,
      '--report',
      file,
    ]);
    expect(replayed.code).toBe(1);
    expect(replayed.stdout).toMatch(/recording #2/);
    expect(replayed.stdout).toMatch(/[1-9]\d* report exchange\(s\)/);

    const served = await start('served', ['serve', '--port', '0', '--from-recording', file]);
    try {
      // The two agents the app retrieved and the one it deployed and read back.
      expect(served.output()).toContain('starting from 3 recorded agent(s)');
      const again = [];
      for (const agentId of seen)
        again.push(await (await fetch(`${served.baseUrl}/v1/agents/${agentId}`, { headers: auth })).json());
      expect(again).toEqual(lastSeen);
      // Stateful from there on: the recorded agent takes tasks, and a reset brings back the recording, not nothing.
      const task = await fetch(`${served.baseUrl}/v1/agents/${seen[0]}/execute`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ task: 'again' }),
      });
      expect(task.status).toBe(200);
      await fetch(`${served.baseUrl}/__mock/reset`, { method: 'POST' });
      const listed = (await (await fetch(`${served.baseUrl}/__mock/agents`)).json()) as { total: number };
      expect(listed.total).toBe(3);
    } finally {
      await served.stop();
    }
  }, 120_000);

  it('serve --from-recording refuses a file that is not a recording with one line and exit 2', async () => {
    const file = join(work, 'not-a-recording.json');
    await writeFile(file, '{"checks": []}');
    const { code, stderr } = await kit(['serve', '--port', '0', '--from-recording', file]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^agent-registry-kit: --from-recording .*: the file is not a recording/);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});
