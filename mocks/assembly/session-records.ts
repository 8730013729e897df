// What a session holds, in records, against `--session-records`: its store's records, its tasks, its journal (counted
// full: a ring that fills as requests come) and its overrides' answers, one record per KiB begun.
import type { Journal } from '../core/steering/journal.ts';
import type { MockResponse } from '../core/mock-http.ts';
import type { BuiltOverride } from '../core/steering/overrides.ts';
import type { OperationId } from '../../spec/index.ts';
import { StorageWriteError } from '../state/storage.ts';
import type { AgentStore } from '../state/store/store.ts';
import type { PactShare } from '../pact-export/pact-log.ts';

/** What a session may hold, in records (`--session-records`): one bound for all sessions together and for each. */
export interface SessionShare {
  maxRecords: number;
  /** The session's id: its part of the pact log (which outlives it) is counted by it. */
  id: string;
}

/** Bytes of an override's answer that count as one record against the sessions' bound. */
const OVERRIDE_BYTES_PER_RECORD = 1024;

/** What a core holds, in records (`MockCore.records`). */
export function recordsHeld(
  store: AgentStore,
  journal: Journal,
  overrides: ReadonlyMap<OperationId, BuiltOverride['response']>,
): number {
  let held = store.heldRecords + store.taskCount + journal.size;
  for (const response of overrides.values()) held += overrideRecords(response);
  return held;
}

/** What a session's core asks of its share of `--session-records`. */
export interface SessionRoom {
  /** Whether one more record fits. */
  hasRoom: () => boolean;
  /** Whether `records` more fit. */
  fits: (records: number) => boolean;
  /** Why an override would not fit (a StorageWriteError: the 503 `state-not-saved`), or undefined when it does. */
  overrideMisfit: (override: BuiltOverride) => StorageWriteError | undefined;
  /** The session's share of the pact log, which counts what it adds there against the same bound. */
  pactShare: PactShare;
}

/**
 * A session's room, with its journal counted full (a ring that fills as requests come and is never refused): whether
 * it may keep one more record, and why an override would not fit (undefined when it does).
 */
export function sessionRoom(
  share: SessionShare,
  held: () => number,
  journal: Journal,
  overrides: ReadonlyMap<OperationId, BuiltOverride['response']>,
): SessionRoom {
  const reserved = () => held() + journal.capacity - journal.size;
  const fits = (records: number) => reserved() + records <= share.maxRecords;
  return {
    hasRoom: () => reserved() < share.maxRecords,
    fits,
    pactShare: { session: share.id, maxRecords: share.maxRecords, fits },
    overrideMisfit(override) {
      const replaced = overrides.get(override.operation.operationId);
      const size = overrideRecords(override.response);
      if (reserved() - (replaced ? overrideRecords(replaced) : 0) + size <= share.maxRecords) return undefined;
      return new StorageWriteError(
        `the override's answer (${size} records, one per KiB) does not fit this session's share of --session-records`,
      );
    },
  };
}

/** An override's answer in records: one per KiB begun of its body and headers. */
function overrideRecords(response: MockResponse): number {
  let bytes = response.body.length;
  for (const [name, value] of Object.entries(response.headers)) bytes += name.length + value.length;
  return Math.ceil(bytes / OVERRIDE_BYTES_PER_RECORD);
}
