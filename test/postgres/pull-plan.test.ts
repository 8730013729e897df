// The plan PostgreSQL picks for a replica's pull: never a parallel query. On tables not analyzed yet the planner guessed
// a third of the rows match and started workers for a pull of one row, which took 300–500 ms (BENCHMARKS.md, round 4).
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../mocks/logger.ts';
import { openPostgresStorage, PULL, SESSION_OPTIONS } from '../../mocks/postgres-storage.ts';
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
});
