// `npm start` as a user runs it: a child process, its one listening line, clear one-line errors, clean stops, kill -9 safety.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { DEFAULT_SEED } from '../../mocks/assembly/mock-core.ts';
import { seedFromText } from '../../mocks/domain/random.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const LISTENING = /^agent-registry-kit: fake backend listening on (http:\/\/127\.0\.0\.1:(\d+))$/m;
const children = new Set<ChildProcess>();

function start(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; url: string; stdout: () => string }> {
  const child = spawn(process.execPath, ['scripts/commands/serve.ts', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = LISTENING.exec(stdout);
      if (match?.[1]) resolve({ child, url: match[1], stdout: () => stdout });
    });
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`exited ${String(code)} before listening: ${stderr}`)));
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

function run(args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['scripts/commands/serve.ts', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    // Ends a hung start, never times one: with test files side by side on a loaded machine a refusal takes many times
    // what it takes alone.
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
});

describe('npm start', () => {
  it('prints the listening line and where the console is, serves, and stops cleanly on SIGTERM', async () => {
    const { child, url, stdout } = await start(['--port', '0']);
    const health = await fetch(`${url}/__mock/health`);
    expect(health.status).toBe(200);
    const token = await mintToken();
    const list = (await (await fetch(`${url}/__mock/agents?limit=1`)).json()) as { agents: { agentId: string }[] };
    const agent = await fetch(`${url}/v1/agents/${list.agents[0]?.agentId ?? ''}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(agent.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited(child)).toEqual({ code: 0, signal: null });
    const lines = stdout().trim().split('\n');
    expect(lines).toEqual([
      `agent-registry-kit: fake backend listening on ${url}`,
      `agent-registry-kit: console: ${url}/__mock/ui/ (a bearer token for /v1: npx agent-registry-kit token)`,
    ]);
  });

  it('takes the seed from --seed or MOCK_SEED: the catalogue of that seed, not the default one', async () => {
    const fromFlag = await start(['--port', '0', '--seed', 'demo']);
    const fromEnv = await start(['--port', '0'], { MOCK_SEED: 'demo' });
    const byDefault = await start(['--port', '0']);
    const seedOf = async (url: string): Promise<unknown> =>
      ((await (await fetch(`${url}/__mock/health`)).json()) as { seed: unknown }).seed;
    const list = async (url: string): Promise<string> => (await fetch(`${url}/__mock/agents`)).text();
    expect(await seedOf(fromFlag.url)).toBe(seedFromText('demo'));
    expect(await seedOf(fromEnv.url)).toBe(seedFromText('demo'));
    expect(await seedOf(byDefault.url)).toBe(DEFAULT_SEED);
    expect(seedFromText('demo')).not.toBe(DEFAULT_SEED);
    expect(await list(fromFlag.url)).toBe(await list(fromEnv.url));
    expect(await list(fromFlag.url)).not.toBe(await list(byDefault.url));
  });

  it('bounds sessions with --max-sessions and --session-records, and turns them off with --max-sessions 0', async () => {
    const bounded = await start(['--port', '0', '--max-sessions', '3', '--session-records', '50']);
    const listed = (await (await fetch(`${bounded.url}/__mock/sessions`)).json()) as Record<string, unknown>;
    expect(listed).toMatchObject({ max: 3, maxRecords: 50 });
    const off = await start(['--port', '0', '--max-sessions', '0']);
    const named = await fetch(`${off.url}/__mock/health`, { headers: { 'x-mock-session': 'w1' } });
    expect(named.status).toBe(400);
    expect(await named.text()).toMatch(/--max-sessions 0/);
  });

  it('holds one session to --session-records too, and lets no page of another site start one', async () => {
    const server = await start(['--port', '0', '--agents', '1000', '--session-records', '50']);
    const authorization = `Bearer ${await mintToken()}`;
    const deploy = () =>
      fetch(`${server.url}/v1/agents/deploy`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json', 'x-mock-session': 'big' },
        body: JSON.stringify({ name: 'Bot', category: 'gaming', model: 'gpt-4', initialSupply: 10 }),
      });
    const statuses = new Set<number>();
    for (let index = 0; index < 60; index += 1) statuses.add((await deploy()).status);
    expect([...statuses].sort()).toEqual([201, 503]);
    const listed = async () =>
      ((await (await fetch(`${server.url}/__mock/sessions`)).json()) as { sessions: { id: string; records: number }[] })
        .sessions;
    expect((await listed())[0]?.records).toBeLessThanOrEqual(50);
    const foreign = await fetch(`${server.url}/v1/agents/agt_none`, {
      headers: { authorization, origin: 'https://evil.example', 'x-mock-session': 'theirs' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBe('https://evil.example');
    const refused = await fetch(`${server.url}/__mock/health`, {
      headers: { 'sec-fetch-site': 'cross-site', 'x-mock-session': 'theirs-too' },
    });
    expect(refused.status).toBe(403);
    expect((await listed()).map((session) => session.id)).toEqual(['big']);
  });

  it('prints its options with --help', () => {
    const result = run(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/--port <n>/);
  });

  it.each([
    ['an unknown flag', ['--prot', '1'], {}, /Unknown option '--prot'/],
    ['a bad port', ['--port', 'http'], {}, /port must be a whole number/],
    ['a bad PORT', [], { PORT: '99999' }, /port must be a whole number from 0 to 65535, got 99999/],
    [
      'a negative port',
      ['--port', '-1'],
      {},
      /^agent-registry-kit: port must be a whole number from 0 to 65535, got -1 \(--port or PORT\)$/m,
    ],
    ['a bad failure ratio', ['--failure-ratio', '2'], {}, /--failure-ratio must be a number from 0 to 1/],
    ['a zero journal size', ['--journal-size', '0'], {}, /--journal-size must be a whole number from 1/],
    [
      'a session bound that is not a number',
      ['--max-sessions', 'many'],
      {},
      /--max-sessions must be a whole number from 0/,
    ],
    ['a JSON state file', ['--state', 'package.json'], {}, /is JSON, not SQLite: JSON state files of earlier versions/],
    ['a file that is not SQLite', ['--state', 'README.md'], {}, /is not an SQLite database/],
    [
      'a network address without a control token',
      ['--host', '0.0.0.0', '--port', '0'],
      {},
      /--host 0\.0\.0\.0 makes the fake reachable from the network.*--control-token/,
    ],
    [
      'a network address from HOST without a control token',
      ['--port', '0'],
      { HOST: '::' },
      /--host :: makes the fake reachable.*--unsafe-open-control-plane/,
    ],
    [
      'an allowed host with a scheme',
      ['--allowed-host', 'http://fake.internal'],
      {},
      /--allowed-host takes a host name/,
    ],
    ['an allowed host with a port', ['--allowed-host', 'fake.internal:4010'], {}, /without scheme, port or path/],
    ['MOCK_ALLOWED_HOSTS with a path', [], { MOCK_ALLOWED_HOSTS: 'a.test,b.test/x' }, /got "b\.test\/x"/],
    ['a control token with spaces', ['--control-token', 'two words'], {}, /--control-token .* without spaces/],
    ['a javascript: CORS origin', ['--cors-origin', 'javascript:alert(1)'], {}, /--cors-origin takes one origin/],
    ['two CORS origins in one', ['--cors-origin', 'http://a,b'], {}, /--cors-origin .*got "http:\/\/a,b"/],
    ['a CORS origin with a path', [], { MOCK_CORS_ORIGINS: 'http://localhost:3000/app' }, /--cors-origin takes/],
    // The value is quoted in the line: its escape sequence is printed visible, never sent to the terminal.
    ['a port holding escapes', ['--port', '\u001b]0;TITLE\u0007\u001b[2J'], {}, /got \\x1b\]0;TITLE\\x07\\x1b\[2J /],
  ] as const)('refuses %s with one line on stderr', (_name, args, env, message) => {
    const result = run([...args], env);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^agent-registry-kit: /);
    expect(result.stderr).not.toContain('\u001b');
  });

  it('prints a stored record that it refuses terminal-safe: an agent id with escapes is shown as escapes', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'serve-escapes-'));
    try {
      const file = join(directory, 'store.db');
      const { openSqliteStorage } = await import('../../mocks/storage/sqlite/sqlite-storage.ts');
      const { createMockCore } = await import('../../mocks/assembly/mock-core.ts');
      const storage = openSqliteStorage(file, { seed: DEFAULT_SEED, catalogueSize: 0, maxTasks: 10_000 });
      await createMockCore({ catalogueSize: 0, storage }).persist();
      await storage.close();
      const { DatabaseSync } = await import('node:sqlite');
      const db = new DatabaseSync(file);
      const id = 'agt_\u001b]0;TITLE\u0007\u001b[2J\u001b[8m';
      db.prepare(
        'INSERT INTO agents (agent_id, catalogue_index, status, tasks_failed, agent) VALUES (?, NULL, ?, 0, ?)',
      ).run(id, 'active', JSON.stringify({ agentId: id, creator: 'c'.repeat(70_000) }));
      db.close();
      const result = run(['--port', '0', '--state', file, '--agents', '0']);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('agt_\\x1b]0;TITLE\\x07\\x1b[2J\\x1b[8m');
      // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may reach the terminal
      expect(result.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('accepts the Host names given with --allowed-host or MOCK_ALLOWED_HOSTS, and refuses others with 403', async () => {
    const { request } = await import('node:http');
    const status = (url: string, host: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const target = new URL(url);
        request(
          { host: target.hostname, port: target.port, path: '/__mock/health', headers: { host }, agent: false },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        )
          .on('error', reject)
          .end();
      });
    const flag = await start(['--port', '0', '--allowed-host', 'fake.internal', '--allowed-host', '.corp.test']);
    const env = await start(['--port', '0'], { MOCK_ALLOWED_HOSTS: 'fake.internal, .corp.test' });
    for (const { url } of [flag, env]) {
      expect(await status(url, 'fake.internal:4010')).toBe(200);
      expect(await status(url, 'api.corp.test')).toBe(200);
      expect(await status(url, 'localhost:4010')).toBe(200);
      expect(await status(url, 'evil.example')).toBe(403);
    }
  });

  it('says clearly when the port is in use', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const result = run(['--port', String(port)]);
      expect(result.status).toBe(2);
      expect(result.stderr.trim()).toBe(
        `agent-registry-kit: port ${port} on 127.0.0.1 is already in use; stop the other process or pick another with --port (0 = any free port)`,
      );
    } finally {
      blocker.close();
    }
  });

  it('keeps every acknowledged deploy in --state across kill -9', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'agent-registry-start-'));
    const file = join(directory, 'store.db');
    try {
      const first = await start(['--port', '0', '--state', file]);
      const token = await mintToken();
      const acknowledged: string[] = [];
      const deploy = async (index: number): Promise<void> => {
        const response = await fetch(`${first.url}/v1/agents/deploy`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            name: `durable-${index}`,
            category: 'automation',
            model: 'llama-2',
            initialSupply: 5,
          }),
        });
        if (response.status === 201) acknowledged.push(((await response.json()) as { agentId: string }).agentId);
      };
      // Ten clients keep deploying while the process is killed: every deploy acknowledged before the kill must survive.
      let killed = false;
      const client = async (worker: number): Promise<void> => {
        for (let index = 0; !killed; index += 1) await deploy(worker * 10_000 + index).catch(() => {});
      };
      const clients = Array.from({ length: 10 }, (_, worker) => client(worker));
      while (acknowledged.length < 100) await new Promise((resolve) => setTimeout(resolve, 5));
      first.child.kill('SIGKILL');
      await exited(first.child);
      killed = true;
      await Promise.all(clients);
      expect(acknowledged.length).toBeGreaterThan(0);
      const second = await start(['--port', '0', '--state', file]);
      for (const agentId of acknowledged) {
        const response = await fetch(`${second.url}/v1/agents/${agentId}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(response.status).toBe(200);
      }
      second.child.kill('SIGTERM');
      await exited(second.child);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
