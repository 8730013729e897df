// The tests' throwaway cluster accepts only its owner and never outlives the process that started it: no password is
// no connection (another local user ran COPY … TO PROGRAM as superuser when it trusted every local connection), the
// socket folder is its user's alone, and a SIGKILLed test process leaves neither a running server nor its folder.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

const cluster = new URL('../support/postgres-cluster.ts', import.meta.url).href;
const starter = `
const { startPostgresCluster } = await import(${JSON.stringify(cluster)});
const c = await startPostgresCluster();
console.log(JSON.stringify({ dir: c.dir, port: c.port, url: c.url() }));
setInterval(() => {}, 1000);
`;

async function connects(connectionString: string): Promise<string> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    return 'connected';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

const waitFor = async (condition: () => boolean | Promise<boolean>, ms: number): Promise<boolean> => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 250)))
    if (await condition()) return true;
  return false;
};

describe('the test PostgreSQL cluster', () => {
  it('accepts only its owner, and is stopped and removed when its test process is SIGKILLed', async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', starter], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = await Promise.race([
      (async () => {
        for await (const text of createInterface({ input: child.stdout })) return [text];
        return [''];
      })(),
      new Promise<string[]>((_, reject) => setTimeout(() => reject(new Error('no cluster in 60 s')), 60_000)),
    ]);
    const { dir, port, url } = JSON.parse(line ?? '') as { dir: string; port: number; url: string };
    expect(await connects(url)).toBe('connected');
    expect(await connects(`postgres://postgres@127.0.0.1:${port}/postgres`)).toMatch(/password/i);
    expect(await connects(`postgres://postgres:wrong@127.0.0.1:${port}/postgres`)).toMatch(/password/i);
    expect(statSync(dir).mode & 0o077).toBe(0);
    child.kill('SIGKILL');
    child.stdout.destroy();
    expect(await waitFor(() => !existsSync(dir), 30_000)).toBe(true);
    expect(await connects(url)).toMatch(/ECONNREFUSED/);
  }, 120_000);
});
