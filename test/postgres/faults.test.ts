// Faults of a PostgreSQL-backed fake: kill -9 under load, the database going away and coming back, and databases made
// for another seed, spec or kit version refused with one line.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, type SpawnedServer } from '../support/spawned-server.ts';
import { bearer, startFake } from '../robustness/fake-process.ts';
import { startPostgresCluster } from '../support/postgres-cluster.ts';
import { newDatabase } from './databases.ts';

const started: SpawnedServer[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
});
const serve = async (args: string[]): Promise<SpawnedServer> => {
  const server = await startFake(args);
  started.push(server);
  return server;
};

const deployBody = JSON.stringify({ name: 'Kept', category: 'defi', model: 'gpt-4', initialSupply: 10 });
const deploy = async (server: SpawnedServer, token: string): Promise<Response> =>
  fetch(`${server.baseUrl}/v1/agents/deploy`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: deployBody,
  });

/** `serve` run to its end: its exit code and what it printed on stderr. */
const refused = (args: string[]): { status: number | null; stderr: string } => {
  const result = spawnSync(process.execPath, ['scripts/commands/serve.ts', '--port', '0', ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stderr: result.stderr };
};

describe('a PostgreSQL-backed fake under faults', { timeout: 120_000 }, () => {
  it('loses no acknowledged deploy when a replica is killed with kill -9 under load', async () => {
    const url = await newDatabase();
    const token = await bearer('kill');
    const victim = await serve(['--state', url]);
    const acknowledged: string[] = [];
    let running = true;
    const worker = async (): Promise<void> => {
      while (running) {
        try {
          const response = await deploy(victim, token);
          if (response.status === 201)
            acknowledged.push(String(((await response.json()) as { agentId: string }).agentId));
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const workers = Array.from({ length: 16 }, worker);
    // Killed mid-load, once some deploys were acknowledged (the machine may be slow: a count, not a time), and while
    // its batches wait on a lock this test holds: whatever was answered by then must have been committed before.
    for (let waited = 0; acknowledged.length < 40 && waited < 60_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('SELECT version FROM ark_changes FOR UPDATE');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    victim.child.kill('SIGKILL');
    running = false;
    await Promise.all(workers);
    await blocker.query('ROLLBACK');
    await blocker.end();
    expect(acknowledged.length).toBeGreaterThan(20);
    const successor = await serve(['--state', url]);
    for (const agentId of acknowledged) {
      const response = await fetch(`${successor.baseUrl}/v1/agents/${agentId}`, { headers: { authorization: token } });
      expect(response.status, agentId).toBe(200);
    }
  });

  it('answers 503 state-unavailable while the database is gone, and recovers by itself when it returns', async () => {
    // Its own cluster: stopping the shared one would fail the other files.
    const cluster = await startPostgresCluster();
    try {
      const url = await cluster.createDatabase('outage');
      const token = await bearer('outage');
      const server = await serve(['--state', url]);
      const before = await deploy(server, token);
      expect(before.status).toBe(201);
      const { agentId } = (await before.json()) as { agentId: string };
      cluster.stop('immediate');
      for (const response of [
        await deploy(server, token),
        await fetch(`${server.baseUrl}/v1/agents/${agentId}`, { headers: { authorization: token } }),
      ]) {
        expect(response.status).toBe(503);
        expect(((await response.json()) as { type: string }).type).toMatch(/state-unavailable$/);
      }
      // Clients retry through an outage: each refused write is not a new line of the log.
      for (let attempt = 0; attempt < 20; attempt += 1) await deploy(server, token).catch(() => undefined);
      cluster.start();
      let status = 0;
      for (let attempt = 0; attempt < 100 && status !== 201; attempt += 1) {
        // A keep-alive connection the server closed while idle fails once; the poll goes on.
        status = await deploy(server, token).then(
          (response) => response.status,
          () => 0,
        );
        if (status !== 201) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(status).toBe(201);
      const again = await fetch(`${server.baseUrl}/v1/agents/${agentId}`, { headers: { authorization: token } });
      expect(again.status).toBe(200);
      expect(server.output()).toMatch(/cannot be reached/);
      expect(server.output()).toMatch(/reachable again/);
      expect(server.output().match(/could not write the state database/g)?.length ?? 0).toBeLessThanOrEqual(1);
    } finally {
      cluster.destroy();
    }
  });

  it('refuses with one line a database made for another seed, spec or kit version', async () => {
    const url = await newDatabase();
    const first = await serve(['--state', url, '--seed', '7']);
    await first.stop();
    const seed = refused(['--state', url, '--seed', '8']);
    expect(seed.status).toBe(2);
    expect(seed.stderr.trim().split('\n')).toHaveLength(1);
    expect(seed.stderr).toMatch(/was made for --seed 7 --agents 36, not --seed 8 --agents 36/);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query("UPDATE ark_meta SET value = 'Agent Registry API 0.9.0' WHERE key = 'spec'");
      const spec = refused(['--state', url, '--seed', '7']);
      expect(spec.status).toBe(2);
      expect(spec.stderr).toMatch(/was made for spec Agent Registry API 0\.9\.0, not spec /);
      await client.query("UPDATE ark_meta SET value = '0' WHERE key = 'format'");
      const format = refused(['--state', url, '--seed', '7']);
      expect(format.status).toBe(2);
      expect(format.stderr.trim().split('\n')).toHaveLength(1);
      expect(format.stderr).toMatch(/another version of this kit \(kit layout 0, this one writes 2\)/);
    } finally {
      await client.end();
    }
  });

  it('migrates a database of layout 1 (an older kit) and serves from it', async () => {
    const url = await newDatabase();
    const token = await bearer('migrate');
    const first = await serve(['--state', url, '--seed', '7']);
    const kept = ((await (await deploy(first, token)).json()) as { agentId: string }).agentId;
    await first.stop();
    // Layout 1 is these tables with an ark_apply(jsonb) instead of layout 2's: without the new function, no batch of
    // this kit could be written, so a deploy answered 201 below is one the migration made possible.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const dropped = await client.query(
        "SELECT format('DROP FUNCTION %s', oid::regprocedure) AS sql FROM pg_proc WHERE proname = 'ark_apply'",
      );
      for (const { sql } of dropped.rows as { sql: string }[]) await client.query(sql);
      await client.query("UPDATE ark_meta SET value = '1' WHERE key = 'format'");
      const second = await serve(['--state', url, '--seed', '7']);
      const answer = await deploy(second, token);
      expect(answer.status).toBe(201);
      const again = await fetch(`${second.baseUrl}/v1/agents/${kept}`, { headers: { authorization: token } });
      expect(again.status).toBe(200);
      const format = await client.query("SELECT value FROM ark_meta WHERE key = 'format'");
      expect(format.rows[0]).toEqual({ value: '2' });
    } finally {
      await client.end();
    }
  });

  it('takes postgres: URLs as PostgreSQL, never as a file path', () => {
    const result = refused(['--state', 'postgres://nobody@127.0.0.1:1/none']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/the state database postgres:\/\/nobody@127\.0\.0\.1:1\/none cannot be used/);
    expect(existsSync(`${repoRoot}/postgres:`)).toBe(false);
    const password = refused(['--state', 'postgresql://user:s3cret@127.0.0.1:1/db']);
    expect(password.stderr).not.toMatch(/s3cret/);
  });
});
