// A fresh database per test, on the run's shared cluster (test/postgres/global-setup.ts) or on one this file starts.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster.ts';

let own: Promise<PostgresCluster> | undefined;

/**
 * The URL of a new empty database.
 * @example const url = await newDatabase(); spawn serve with ['--state', url];
 */
export async function newDatabase(): Promise<string> {
  const name = `ark_${randomBytes(6).toString('hex')}`;
  const shared = inject('postgresUrl');
  if (shared === '') {
    // Stopped on this worker's exit (test/support/postgres-cluster.ts registers it, and its watchdog on any death).
    own ??= startPostgresCluster();
    return (await own).createDatabase(name);
  }
  const client = new pg.Client({ connectionString: shared });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return url.toString();
}
