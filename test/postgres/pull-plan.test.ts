// The plan PostgreSQL picks for a replica's pull: never a parallel query (on tables not analyzed the planner guesses
// a third of the rows match and starts workers for a pull of one row, which takes 300–500 ms: docs/performance.md),
// and the plan it reuses, made without knowing the change number, reads the version index rather than every row.
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../mocks/domain/logger.ts';
import { PULL, SESSION_OPTIONS } from '../../mocks/storage/postgres/postgres-pull.ts';
import { openPostgresStorage } from '../../mocks/storage/postgres/postgres-storage.ts';
import { newDatabase } from './databases.ts';

// Parallel plans made as cheap as they can be, so that a planner allowed to use workers does.
const PARALLEL_FREE = [
  'SET parallel_setup_cost = 0',
  'SET parallel_tuple_cost = 0',
  'SET min_parallel_table_scan_size = 0',
  'SET min_parallel_index_scan_size = 0',
];

/** The plan of the pull after change 0, on a connection opened with `options` (or the server's defaults). */
async function pullPlan(url: string, options?: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, ...(options !== undefined && { options }) });
  await client.connect();
  try {
    for (const setting of PARALLEL_FREE) await client.query(setting);
    const explained = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${PULL.replaceAll('$1', '0')}`);
    return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
  }
}

/** The plan PostgreSQL reuses for `pull` (made without knowing $1), on a table of 20,000 analyzed agents. */
async function genericPlan(url: string, pull: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, options: SESSION_OPTIONS });
  await client.connect();
  try {
    await client.query('SET plan_cache_mode = force_generic_plan');
    await client.query(`PREPARE pull(bigint) AS ${pull}`);
    const explained = await client.query<{ 'QUERY PLAN': string }>('EXPLAIN EXECUTE pull(19990)');
    return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
  }
}

describe("a replica's pull on PostgreSQL", () => {
  let url = '';
  beforeAll(async () => {
    url = await newDatabase();
    // The tables as a replica creates them, never analyzed.
    const storage = await openPostgresStorage(url, { seed: 3, catalogueSize: 36, logger: silentLogger });
    await storage.close();
  }, 60_000);

  it('plans workers on a connection with the server defaults (the trap the replica avoids)', async () => {
    expect(await pullPlan(url)).toMatch(/Gather/);
  });

  it('never plans workers on a connection with the settings every replica connection gets', async () => {
    const plan = await pullPlan(url, SESSION_OPTIONS);
    expect(plan).not.toMatch(/Gather|Parallel/);
    expect(plan).toMatch(/ark_agents/);
  });

  it('reuses a plan that reads the version index for a few rows on a large table, where `version > $1` alone expects a third', async () => {
    const large = await newDatabase();
    const storage = await openPostgresStorage(large, { seed: 3, catalogueSize: 36, logger: silentLogger });
    await storage.close();
    const client = new pg.Client({ connectionString: large });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO ark_agents (agent_id, catalogue_index, status, tasks_failed, agent, version)
         SELECT 'agt_g' || i, NULL, 'active', 0, '{}', i FROM generate_series(1, 20000) i`,
      );
      await client.query('UPDATE ark_changes SET version = 20000');
      await client.query('ANALYZE');
    } finally {
      await client.end();
    }
    // The rows it expects from the agents' index: a range bounded on both sides is guessed small (0.5 %);
    // `version > $1` alone a third of the table, which makes the plan one for reading much of it.
    const expected = (plan: string): number =>
      Number(/Index Scan using ark_agents_version[^\n]*rows=(\d+)/.exec(plan)?.[1] ?? Number.NaN);
    const plan = await genericPlan(large, PULL);
    expect(plan).not.toMatch(/Seq Scan on ark_agents|Parallel/);
    expect(expected(plan)).toBeLessThanOrEqual(200);
    const unbounded = PULL.replaceAll(' AND version <= (SELECT version FROM ark_changes)', '');
    expect(unbounded).not.toBe(PULL);
    expect(expected(await genericPlan(large, unbounded))).toBeGreaterThan(6000);
  });
});
