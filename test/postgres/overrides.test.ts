// Overrides set through the control plane hold on every replica of one PostgreSQL database and survive a restart, as
// scenarios do: each is a stored document the replicas pull (and check) before answering.
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, type SpawnedServer } from '../support/spawned-server.ts';
import { bearer, startFake } from '../robustness/fake-process.ts';
import { newDatabase } from './databases.ts';

let token = '';
const call = async (server: SpawnedServer, method: string, path: string, body?: unknown): Promise<number> => {
  const response = await fetch(server.baseUrl + path, {
    method,
    headers: { authorization: token, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  await response.arrayBuffer();
  return response.status;
};

describe('overrides on two replicas of one PostgreSQL', { timeout: 180_000 }, () => {
  let url = '';
  const replicas: SpawnedServer[] = [];
  beforeAll(async () => {
    token = await bearer('overrides');
    url = await newDatabase();
    replicas.push(...(await Promise.all([0, 1].map(() => startFake(['--state', url, '--seed', '7'])))));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
  });

  it('one replica answers with the override set through the other, and a restarted replica still does', async () => {
    const [first, second] = replicas as [SpawnedServer, SpawnedServer];
    // No such agent: 404 unless an override answers instead.
    const path = '/v1/agents/agt_does_not_matter';
    expect(await call(second, 'GET', path)).toBe(404);
    expect(await call(first, 'PUT', '/__mock/overrides', { operation: 'getAgent', status: 500 })).toBe(200);
    expect(await call(second, 'GET', path)).toBe(500);
    expect(await call(first, 'GET', path)).toBe(500);

    await second.stop();
    const restarted = await startFake(['--state', url, '--seed', '7']);
    replicas[1] = restarted;
    expect(await call(restarted, 'GET', path)).toBe(500);

    expect(await call(restarted, 'DELETE', '/__mock/overrides')).toBe(204);
    expect(await call(first, 'GET', path)).toBe(404);
  });

  it('a replica refuses, in one line, a database holding an override nobody could have set', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO ark_documents (name, value, version) VALUES ('overrides', '[{"operation":"getAgent","status":418}]', 0)
         ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`,
      );
    } finally {
      await client.end();
    }
    const started = spawnSync(
      process.execPath,
      ['scripts/commands/serve.ts', '--port', '0', '--state', url, '--seed', '7'],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(started.status).toBe(2);
    expect(started.stderr.trim().split('\n')).toHaveLength(1);
    expect(started.stderr).toMatch(/invalid overrides document: \/0: The override 418 of getAgent breaks spec/);
  });
});
