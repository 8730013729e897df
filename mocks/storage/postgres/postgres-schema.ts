// The tables, the one write function and the identity checks of a PostgreSQL state database (`--state postgres://…`).
// Every replica runs the same check before it serves: a database made for another seed, catalogue, spec version or kit
// layout is refused with one line, like a second SQLite server.
import type { PoolClient } from 'pg';
import { openapiDocument } from '../../../spec/index.ts';

/**
 * The layout below. A database of layout 1 (the same tables and an `ark_apply(jsonb)`) is migrated by adding the
 * function of layout 2; layout 1's stays, for replicas of an older kit still running on it. Other layouts are refused.
 */
const POSTGRES_FORMAT = 2;
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
`;

/**
 * Layout 2's `ark_apply`. Rows come as typed arrays, one element per row, and records as one text each (every record
 * after a newline: JSON text never holds one), so PostgreSQL reads each record once. One jsonb holding the records as
 * JSON strings (layout 1's `ark_apply`) is parsed whole and then unescaped again, which costs more backend CPU per
 * agent (docs/performance.md, "Replicas on PostgreSQL"); most of a deploy's cost in PostgreSQL is the row and its three
 * index entries. An agent with no `seen` version is new; a task's kind says whether it is new, settled or forgotten.
 */
const APPLY = `
CREATE FUNCTION ark_apply(clear boolean,
  agent_ids text[], agent_ci int[], agent_status text[], agent_failed int[], agent_seen bigint[], agent_records text,
  task_ids text[], task_kind text[], task_h boolean[], task_settled boolean[], task_records text,
  document_names text[], document_values text) RETURNS bigint LANGUAGE plpgsql AS $fn$
DECLARE v bigint; n bigint; agents text[]; tasks text[]; documents text[]; fresh int;
BEGIN
  agents := (string_to_array(agent_records, chr(10)))[2:];
  tasks := (string_to_array(task_records, chr(10)))[2:];
  documents := (string_to_array(document_values, chr(10)))[2:];
  IF cardinality(agents) <> cardinality(agent_ids) OR cardinality(tasks) <> cardinality(task_ids)
    OR cardinality(documents) <> cardinality(document_names) THEN
    RAISE EXCEPTION 'a batch whose records do not match its rows';
  END IF;
  UPDATE ark_changes SET version = version + 1 RETURNING version INTO v;
  IF clear THEN
    DELETE FROM ark_agents; DELETE FROM ark_tasks; UPDATE ark_changes SET cleared = v;
  END IF;
  INSERT INTO ark_agents (agent_id, catalogue_index, status, tasks_failed, agent, version)
    SELECT x.id, x.ci, x.status, x.failed, x.body, v
    FROM unnest(agent_ids, agent_ci, agent_status, agent_failed, agent_seen, agents) WITH ORDINALITY
      AS x(id, ci, status, failed, seen, body, o)
    WHERE x.seen IS NULL ORDER BY x.o ON CONFLICT (agent_id) DO NOTHING;
  GET DIAGNOSTICS n = ROW_COUNT;
  fresh := cardinality(array_positions(agent_seen, NULL));
  IF n <> fresh THEN RAISE EXCEPTION 'an agent id is taken' USING ERRCODE = 'AR001'; END IF;
  UPDATE ark_agents a SET status = x.status, tasks_failed = x.failed, agent = x.body, version = v
    FROM unnest(agent_ids, agent_status, agent_failed, agent_seen, agents) AS x(id, status, failed, seen, body)
    WHERE x.seen IS NOT NULL AND a.agent_id = x.id AND a.version = x.seen;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n <> cardinality(agent_ids) - fresh THEN
    RAISE EXCEPTION 'an agent changed meanwhile' USING ERRCODE = 'AR001';
  END IF;
  INSERT INTO ark_tasks (task_id, in_history, settled, task, version)
    SELECT x.id, x.h, x.settled, x.body, v
    FROM unnest(task_ids, task_kind, task_h, task_settled, tasks) WITH ORDINALITY AS x(id, kind, h, settled, body, o)
    WHERE x.kind = 'new' ORDER BY x.o ON CONFLICT (task_id) DO NOTHING;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n <> cardinality(array_positions(task_kind, 'new')) THEN
    RAISE EXCEPTION 'a task id is taken' USING ERRCODE = 'AR001';
  END IF;
  UPDATE ark_tasks t SET settled = true, in_history = x.h, task = x.body, version = v
    FROM unnest(task_ids, task_kind, task_h, tasks) AS x(id, kind, h, body)
    WHERE x.kind = 'settled' AND t.task_id = x.id AND NOT t.settled;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF n <> cardinality(array_positions(task_kind, 'settled')) THEN
    RAISE EXCEPTION 'a task was settled meanwhile' USING ERRCODE = 'AR001';
  END IF;
  UPDATE ark_tasks t SET in_history = false, version = v
    FROM unnest(task_ids, task_kind) AS x(id, kind) WHERE x.kind = 'forgotten' AND t.task_id = x.id AND t.in_history;
  INSERT INTO ark_documents (name, value, version)
    SELECT x.name, x.value, v FROM unnest(document_names, documents) AS x(name, value)
    ON CONFLICT (name) DO UPDATE SET value = excluded.value, version = excluded.version;
  -- Tasks out of the history and settled are tombstones: kept long enough for every replica to see them go.
  DELETE FROM ark_tasks WHERE NOT in_history AND settled AND version < v - 10000;
  RETURN v;
END $fn$;
`;

/** Layouts this kit migrates, by the statements that bring one to this layout. */
const MIGRATIONS: Readonly<Record<string, string>> = { '1': APPLY };

/**
 * How a batch is written: `ark_apply` with the arrays batchParameters (mocks/storage/postgres/postgres-batch.ts) makes, in order, and
 * $15, the change number the requests answered without a pull first (if any) started from. Past it, a control change
 * (a reset, or a document every replica reads: scenarios, clock, overrides) means those answers may be stale: then
 * `ark_apply` is not called, nothing is written and `v` is null (the caller's conflict). CASE evaluates its THEN only
 * when the condition holds, and the condition reads the statement's snapshot, taken after those requests arrived.
 */
export const APPLY_BATCH = `SELECT CASE WHEN $15::bigint IS NULL OR ((SELECT cleared FROM ark_changes) <= $15
  AND NOT EXISTS (SELECT 1 FROM ark_documents WHERE version > $15 AND name NOT LIKE '%@%'))
  THEN ark_apply($1::boolean, $2::text[], $3::int[], $4::text[], $5::int[], $6::bigint[], $7::text, $8::text[], $9::text[], $10::boolean[], $11::boolean[], $12::text, $13::text[], $14::text) END AS v`;

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
      await client.query(`BEGIN; ${SCHEMA} ${APPLY}`);
      for (const [key, value] of Object.entries(expected))
        await client.query('INSERT INTO ark_meta (key, value) VALUES ($1, $2)', [key, value]);
      await client.query('COMMIT');
      return undefined;
    }
    if (!tables.rows.some((row) => row.name === 'ark_meta'))
      return 'has ark_ tables but no ark_meta: it was not made by this kit; use another database';
    const rows = await client.query<{ key: string; value: string }>('SELECT key, value FROM ark_meta');
    const found = new Map(rows.rows.map((row) => [row.key, row.value]));
    const format = found.get('format');
    const migration = format === undefined ? undefined : MIGRATIONS[format];
    if (format !== expected.format && migration === undefined)
      return `was made by another version of this kit (${describe('format', format)}, this one writes ${POSTGRES_FORMAT}) and cannot be migrated; drop its ark_ tables or use another database`;
    for (const key of ['catalogue', 'spec'] as const)
      if (found.get(key) !== expected[key])
        return `was made for ${describe(key, found.get(key))}, not ${describe(key, expected[key])}; every replica must start with the same ones (or use another database)`;
    if (migration !== undefined) {
      await client.query(`BEGIN; ${migration}`);
      await client.query("UPDATE ark_meta SET value = $1 WHERE key = 'format'", [expected.format]);
      await client.query('COMMIT');
    }
    return undefined;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK]).catch(() => {});
  }
}
