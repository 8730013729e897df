// The tables, the one write function and the identity checks of a PostgreSQL state database (`--state postgres://…`).
// Every replica runs the same check before it serves: a database made for another seed, catalogue, spec version or kit
// layout is refused with one line, like a second SQLite server.
import type { PoolClient } from 'pg';
import { openapiDocument } from '../spec/index.ts';

/** The layout below; a database written by another layout is refused (there is no earlier one to migrate from yet). */
export const POSTGRES_FORMAT = 1;
/** Key of the advisory lock every replica holds while it creates or checks the tables ("ARK1"). */
const SCHEMA_LOCK = 0x41524b31;

/**
 * Every change is one call of `ark_apply`: it takes the global row lock (so commits are serialized and numbered), applies
 * the batch, and raises AR001 when the batch was based on rows another replica changed first (the caller retries).
 * Rows carry the number of the change that wrote them: a replica pulls `version > the one it saw` before each request.
 */
const SCHEMA = `
CREATE TABLE ark_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE ark_changes (id int PRIMARY KEY CHECK (id = 1), version bigint NOT NULL, cleared bigint NOT NULL);
INSERT INTO ark_changes VALUES (1, 0, 0);
CREATE TABLE ark_agents (seq bigserial PRIMARY KEY, agent_id text NOT NULL UNIQUE, catalogue_index int,
  status text NOT NULL, tasks_failed int NOT NULL, agent text NOT NULL, version bigint NOT NULL);
CREATE INDEX ark_agents_version ON ark_agents (version);
CREATE TABLE ark_tasks (seq bigserial PRIMARY KEY, task_id text NOT NULL UNIQUE, in_history boolean NOT NULL,
  settled boolean NOT NULL, task text NOT NULL, version bigint NOT NULL);
CREATE INDEX ark_tasks_version ON ark_tasks (version);
CREATE TABLE ark_documents (name text PRIMARY KEY, value text NOT NULL, version bigint NOT NULL);
CREATE SEQUENCE ark_replicas;
CREATE TABLE ark_rate (id int PRIMARY KEY CHECK (id = 1), key text NOT NULL, window_start bigint NOT NULL, count bigint NOT NULL);
INSERT INTO ark_rate VALUES (1, '', 0, 0);
CREATE FUNCTION ark_apply(batch jsonb) RETURNS bigint LANGUAGE plpgsql AS $fn$
DECLARE v bigint; n bigint;
BEGIN
  UPDATE ark_changes SET version = version + 1 RETURNING version INTO v;
  IF (batch->>'clear')::boolean THEN
    DELETE FROM ark_agents; DELETE FROM ark_tasks; UPDATE ark_changes SET cleared = v;
  END IF;
  INSERT INTO ark_agents (agent_id, catalogue_index, status, tasks_failed, agent, version)
    SELECT x.id, x.ci, x.status, x.failed, x.agent, v
    FROM ROWS FROM (jsonb_to_recordset(batch->'newAgents') AS (id text, ci int, status text, failed int, agent text))
      WITH ORDINALITY AS x(id, ci, status, failed, agent, o)
    ORDER BY x.o ON CONFLICT (agent_id) DO NOTHING;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n <> jsonb_array_length(batch->'newAgents') THEN RAISE EXCEPTION 'an agent id is taken' USING ERRCODE = 'AR001'; END IF;
  UPDATE ark_agents a SET status = x.status, tasks_failed = x.failed, agent = x.agent, version = v
    FROM jsonb_to_recordset(batch->'agents') AS x(id text, status text, failed int, agent text, seen bigint)
    WHERE a.agent_id = x.id AND a.version = x.seen;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n <> jsonb_array_length(batch->'agents') THEN RAISE EXCEPTION 'an agent changed meanwhile' USING ERRCODE = 'AR001'; END IF;
  INSERT INTO ark_tasks (task_id, in_history, settled, task, version)
    SELECT x.id, x.h, x.settled, x.task, v
    FROM ROWS FROM (jsonb_to_recordset(batch->'newTasks') AS (id text, h boolean, settled boolean, task text))
      WITH ORDINALITY AS x(id, h, settled, task, o)
    ORDER BY x.o ON CONFLICT (task_id) DO NOTHING;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n <> jsonb_array_length(batch->'newTasks') THEN RAISE EXCEPTION 'a task id is taken' USING ERRCODE = 'AR001'; END IF;
  UPDATE ark_tasks t SET settled = true, in_history = x.h, task = x.task, version = v
    FROM jsonb_to_recordset(batch->'settled') AS x(id text, h boolean, task text)
    WHERE t.task_id = x.id AND NOT t.settled;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n <> jsonb_array_length(batch->'settled') THEN RAISE EXCEPTION 'a task was settled meanwhile' USING ERRCODE = 'AR001'; END IF;
  UPDATE ark_tasks t SET in_history = false, version = v
    FROM jsonb_to_recordset(batch->'forgotten') AS x(id text) WHERE t.task_id = x.id AND t.in_history;
  INSERT INTO ark_documents (name, value, version)
    SELECT x.name, x.value, v FROM jsonb_to_recordset(batch->'documents') AS x(name text, value text)
    ON CONFLICT (name) DO UPDATE SET value = excluded.value, version = excluded.version;
  -- Tasks out of the history and settled are tombstones: kept long enough for every replica to see them go.
  DELETE FROM ark_tasks WHERE NOT in_history AND settled AND version < v - 10000;
  RETURN v;
END $fn$;
`;

/** Counts one request in the shared rate-limit window ($1 now, $2 window length, $3 the limit's key). */
export const COUNT_REQUEST = `UPDATE ark_rate SET
  count = CASE WHEN key = $3 AND $1 >= window_start AND $1 < window_start + $2 THEN count + 1 ELSE 1 END,
  window_start = CASE WHEN key = $3 AND $1 >= window_start AND $1 < window_start + $2 THEN window_start ELSE $1 END,
  key = $3
  RETURNING window_start::text AS start, count::text AS count`;

/** Tombstones older than this many changes are deleted: a replica further behind reloads everything. */
export const TOMBSTONE_LAG = 10_000;

export interface PostgresIdentity {
  seed: number;
  catalogueSize: number;
}

const specInfo = openapiDocument.info as { title?: unknown; version?: unknown } | undefined;

/** What a replica of this kit, spec and seed writes in ark_meta; every other replica must find the same. */
function expectedMeta(identity: PostgresIdentity): Record<string, string> {
  return {
    format: String(POSTGRES_FORMAT),
    catalogue: JSON.stringify({ seed: identity.seed, size: identity.catalogueSize }),
    spec: `${String(specInfo?.title)} ${String(specInfo?.version)}`,
  };
}

const describe = (key: string, value: string | undefined): string => {
  if (value === undefined) return `no ${key}`;
  if (key === 'catalogue') {
    const { seed, size } = JSON.parse(value) as { seed: number; size: number };
    return `--seed ${seed} --agents ${size}`;
  }
  return key === 'format' ? `kit layout ${value}` : `spec ${value}`;
};

/**
 * Creates the tables in an empty database, or checks that they are ours and made for this seed, catalogue and spec;
 * returns why not (one line), or undefined. Runs under an advisory lock, so replicas starting together create them once.
 */
export async function prepareSchema(client: PoolClient, identity: PostgresIdentity): Promise<string | undefined> {
  await client.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK]);
  try {
    const tables = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE 'ark\\_%'",
    );
    const expected = expectedMeta(identity);
    if (tables.rowCount === 0) {
      await client.query(`BEGIN; ${SCHEMA}`);
      for (const [key, value] of Object.entries(expected))
        await client.query('INSERT INTO ark_meta (key, value) VALUES ($1, $2)', [key, value]);
      await client.query('COMMIT');
      return undefined;
    }
    if (!tables.rows.some((row) => row.name === 'ark_meta'))
      return 'has ark_ tables but no ark_meta: it was not made by this kit; use another database';
    const rows = await client.query<{ key: string; value: string }>('SELECT key, value FROM ark_meta');
    const found = new Map(rows.rows.map((row) => [row.key, row.value]));
    if (found.get('format') !== expected.format)
      return `was made by another version of this kit (${describe('format', found.get('format'))}, this one writes ${POSTGRES_FORMAT}) and cannot be migrated; drop its ark_ tables or use another database`;
    for (const key of ['catalogue', 'spec'] as const)
      if (found.get(key) !== expected[key])
        return `was made for ${describe(key, found.get(key))}, not ${describe(key, expected[key])}; every replica must start with the same ones (or use another database)`;
    return undefined;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK]).catch(() => {});
  }
}
