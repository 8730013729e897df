// `--state store.db` as real processes see it: one server per database, a full disk (a real file-size limit), and every
// control-plane change surviving kill -9.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import type { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, type SpawnedServer } from '../support/spawned-server.ts';
import { bearer, keepAliveAgent, send, startFake, type RawResponse } from './fake-process.ts';

const directory = mkdtempSync(join(tmpdir(), 'agent-registry-kit-sqlite-'));
const servers: SpawnedServer[] = [];
const agents: Agent[] = [];
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const agent of agents) agent.destroy();
  for (const server of servers) await server.stop();
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(directory, { recursive: true, force: true });
});

async function fake(args: string[]): Promise<SpawnedServer> {
  const server = await startFake(args);
  servers.push(server);
  return server;
}

function client(): Agent {
  const agent = keepAliveAgent(16);
  agents.push(agent);
  return agent;
}

describe('one server per database', () => {
  it('refuses a second server on the same file with one line, while the first keeps serving', async () => {
    const file = join(directory, 'shared.db');
    const first = await fake(['--state', file]);
    const second = spawnSync(process.execPath, ['scripts/commands/serve.ts', '--port', '0', '--state', file], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(second.status).toBe(2);
    expect(second.stdout).toBe('');
    expect(second.stderr.trim().split('\n')).toEqual([
      `agent-registry-kit: the state database ${file} is in use by another server (it holds the lock); stop that server, or pick another --state path`,
    ]);
    const health = await send(client(), first.baseUrl, { method: 'GET', path: '/__mock/health' });
    expect(health.status).toBe(200);
  });
});

/** Starts the server on `--state file` and expects it to refuse at once: exit 2, nothing on stdout, one line. */
function refusal(file: string, asUser?: number): string[] {
  const run = spawnSync(process.execPath, ['scripts/commands/serve.ts', '--port', '0', '--state', file], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 30_000,
    ...(asUser !== undefined && { uid: asUser, gid: asUser }),
  });
  expect(run.status).toBe(2);
  expect(run.stdout).toBe('');
  return run.stderr.trim().split('\n');
}

describe('--state paths the server cannot use are refused with one line', () => {
  it("a dangling symbolic link: the link's target is not created", () => {
    const link = join(directory, 'dangling.db');
    const target = join(directory, 'nowhere', 'target.db');
    symlinkSync(target, link);
    expect(refusal(link)).toEqual([
      `agent-registry-kit: the state database ${link} is a symbolic link to a file that does not exist; point --state at a real path, or remove the link`,
    ]);
    expect(existsSync(target)).toBe(false);
    expect(existsSync(join(directory, 'nowhere'))).toBe(false);
  });

  it('a directory', () => {
    const folder = join(directory, 'a-folder');
    mkdirSync(folder);
    expect(refusal(folder)).toEqual([
      `agent-registry-kit: the state database ${folder} is a directory; pass the path of a file in it (e.g. --state <dir>/store.db)`,
    ]);
  });

  it('a read-only file is said to be read-only, not unreadable', async () => {
    // Root writes through file modes, so the server runs as nobody when the tests run as root.
    const asUser = process.getuid?.() === 0 ? 65534 : undefined;
    chmodSync(directory, 0o755);
    const folder = mkdtempSync(join(directory, 'read-only-'));
    chmodSync(folder, 0o777);
    const file = join(folder, 'store.db');
    const server = await startFake(['--state', file]);
    await server.stop();
    chmodSync(file, 0o444);
    expect(refusal(file, asUser)).toEqual([
      `agent-registry-kit: the state database ${file} is read-only for this process (EACCES): the fake writes every change to it; make it writable (chmod u+w), or copy it to a writable path`,
    ]);
  });
});

describe('control-plane changes survive kill -9', () => {
  it('keeps status, clock, scenarios (with the failure ratio) and a reset', async () => {
    const file = join(directory, 'control.db');
    const first = await fake(['--state', file]);
    const agent = client();
    const authorization = await bearer('control');
    const call = (method: string, path: string, body?: unknown): Promise<RawResponse> =>
      send(
        agent,
        first.baseUrl,
        body === undefined
          ? { method, path, headers: { authorization } }
          : {
              method,
              path,
              headers: { authorization, 'content-type': 'application/json' },
              body: JSON.stringify(body),
            },
      );
    const deployed = await call('POST', '/v1/agents/deploy', {
      name: 'before reset',
      category: 'nft',
      model: 'claude-3',
      initialSupply: 3,
    });
    expect(deployed.status).toBe(201);
    expect((await call('POST', '/__mock/reset')).status).toBe(200);
    const catalogueId = (
      JSON.parse((await call('GET', '/__mock/agents?limit=1')).body) as { agents: { agentId: string }[] }
    ).agents[0]?.agentId;
    expect((await call('PUT', `/__mock/agents/${catalogueId}/status`, { status: 'deprecated' })).status).toBe(200);
    expect((await call('POST', '/__mock/clock/advance', { seconds: 3600 })).status).toBe(200);
    const scenario = { taskFailureRatio: 1, rateLimit: { limit: 1000, windowSeconds: 1 } };
    expect((await call('PUT', '/__mock/scenarios', scenario)).status).toBe(200);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await fake(['--state', file]);
    const read = async (path: string): Promise<unknown> =>
      JSON.parse((await send(agent, second.baseUrl, { method: 'GET', path, headers: { authorization } })).body);
    expect(await read('/__mock/scenarios')).toEqual(scenario);
    expect(((await read('/__mock/clock')) as { offsetMs: number }).offsetMs).toBe(3_600_000);
    expect(((await read(`/v1/agents/${catalogueId}`)) as { status: string }).status).toBe('deprecated');
    expect(((await read('/__mock/health')) as { agents: number }).agents).toBe(36);
    const deployedId = (JSON.parse(deployed.body) as { agentId: string }).agentId;
    expect(((await read(`/v1/agents/${deployedId}`)) as { status: number }).status).toBe(404);
  });
});

/** Starts the fake under `ulimit -f <blocks>` (1 KiB blocks): every file it writes is capped, as on a full disk. */
function startLimited(
  file: string,
  blocks: number,
): Promise<{ child: ChildProcess; baseUrl: string; output: () => string }> {
  const child = spawn(
    '/bin/sh',
    [
      '-c',
      `ulimit -f ${blocks} && exec "$0" "$@"`,
      process.execPath,
      'scripts/commands/serve.ts',
      '--port',
      '0',
      '--state',
      file,
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) resolve({ child, baseUrl: match[1], output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${String(code)} before listening: ${output}`)));
  });
}

describe('a full disk (a file-size limit of 1 MiB)', () => {
  it('answers 503 for what it cannot write, applies none of it, leaves nothing behind and still stops with 0', async () => {
    const limitedDirectory = mkdtempSync(join(directory, 'full-'));
    const file = join(limitedDirectory, 'store.db');
    const limited = await startLimited(file, 1024);
    const agent = client();
    const authorization = await bearer('disk-full');
    const description = 'x'.repeat(2000);
    const acknowledged = new Map<string, string>();
    const statuses = new Map<number, number>();
    // 8 clients in parallel until the limit is well past: group commits fail whole, and each of their deploys gets 503.
    let refused = 0;
    await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        for (let index = 0; refused < 40 && index < 2000; index += 1) {
          const name = `full ${worker}-${index}`;
          const response = await send(agent, limited.baseUrl, {
            method: 'POST',
            path: '/v1/agents/deploy',
            headers: { authorization, 'content-type': 'application/json' },
            body: JSON.stringify({ name, description, category: 'defi', model: 'gpt-4', initialSupply: 1 }),
          });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status === 201)
            acknowledged.set((JSON.parse(response.body) as { agentId: string }).agentId, name);
          if (response.status === 503) {
            refused += 1;
            expect(response.headers['content-type']).toBe('application/problem+json');
            expect(JSON.parse(response.body)).toMatchObject({
              status: 503,
              type: 'https://agent-registry.dev/problems/state-not-saved',
            });
          }
        }
      }),
    );
    expect([...statuses.keys()].sort()).toEqual([201, 503]);
    expect(acknowledged.size).toBeGreaterThan(0);
    // Nothing refused was applied in memory: the server counts exactly the catalogue and what it acknowledged.
    const health = JSON.parse((await send(agent, limited.baseUrl, { method: 'GET', path: '/__mock/health' })).body) as {
      agents: number;
    };
    expect(health.agents).toBe(36 + acknowledged.size);
    // A reset rewrites far more pages than a deploy: refused too, and the deployed agents are all still there.
    const reset = await send(agent, limited.baseUrl, { method: 'POST', path: '/__mock/reset' });
    expect(reset.status).toBe(503);
    const afterReset = JSON.parse(
      (await send(agent, limited.baseUrl, { method: 'GET', path: '/__mock/health' })).body,
    ) as { agents: number };
    expect(afterReset.agents).toBe(36 + acknowledged.size);
    limited.child.kill('SIGTERM');
    const exit = await new Promise<number | null>((resolve) => limited.child.once('exit', (code) => resolve(code)));
    expect(exit).toBe(0);
    // Only the database (and at most its write-ahead log) is there: no temporary files.
    expect(readdirSync(limitedDirectory).filter((name) => !/^store\.db(-wal)?$/.test(name))).toEqual([]);

    // Without the limit, the same file serves every acknowledged agent, and nothing else was deployed.
    const after = await fake(['--state', file]);
    const afterHealth = JSON.parse(
      (await send(agent, after.baseUrl, { method: 'GET', path: '/__mock/health' })).body,
    ) as {
      agents: number;
    };
    expect(afterHealth.agents).toBe(36 + acknowledged.size);
    for (const [agentId, name] of acknowledged) {
      const response = await send(agent, after.baseUrl, {
        method: 'GET',
        path: `/v1/agents/${agentId}`,
        headers: { authorization },
      });
      expect(response.status).toBe(200);
      expect((JSON.parse(response.body) as { name: string }).name).toBe(name);
    }
  });
});
