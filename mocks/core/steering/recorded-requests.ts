// What the app sent to one operation, read from the journal (the one record of requests): each entry with its path
// parameters and its body validated as the fake validated it, and the filter a test narrows them with.
import {
  takesJsonBody,
  validateRequestBody,
  type BodyOperationId,
  type OperationId,
  type PathParameters,
  type RequestBodies,
  type ValidationError,
} from '../../../spec/index.ts';
import { matchRoute } from '../router.ts';
import type { JournalEntry } from './journal.ts';

/** One request the app sent to `K`, oldest first in `requests`; the Authorization header is never in it. */
export interface RecordedRequest<K extends OperationId = OperationId> {
  /** Its place in the journal (1 for the first request the fake took), never reused. */
  seq: number;
  /** Arrival on the mock's clock (ISO 8601). */
  at: string;
  operationId: K;
  method: string;
  /** The path as sent, e.g. `/v1/agents/agt_WCC01FaiMscDbRzp/execute`. */
  path: string;
  /** The path parameters, decoded. */
  params: PathParameters<K>;
  /** The query string as sent, without `?` ('' when none). */
  query: string;
  /**
   * The body as the fake validated it, the spec's defaults filled in. Absent when the operation takes none, when the
   * body broke the schema (`bodyErrors` says where), was cut at 4096 characters, or was never read (a 401 comes first).
   */
  body?: K extends BodyOperationId ? RequestBodies[K] : never;
  /**
   * The body exactly as the app sent it: its JSON parsed, no default filled in (an omitted `revenueShare` is absent
   * here, though `body` has the spec's default). Also there when the body broke the schema; undefined when the
   * operation takes none, the request had none, or it was not JSON, cut at 4096 characters or never read.
   */
  sentBody?: K extends BodyOperationId ? SentBody<K> : never;
  /** Where the body broke the schema, as the 400 the fake answered listed it. */
  bodyErrors?: ValidationError[];
  /** The status the fake answered. */
  status: number;
  /**
   * What answered in the operation's place: `override` (`api.override`, PUT /__mock/overrides), `overrideHandler` (an
   * msw override handler of the test), `scenario` (a scenario's error or rate limit); absent when the operation did.
   */
  forcedBy?: 'override' | 'overrideHandler' | 'scenario';
}

/**
 * The body of an operation as an app may send it: the request body's type with every field optional at every depth
 * (what the spec defaults may be left out; what it requires is still there when `bodyErrors` is absent).
 */
export type SentBody<K extends BodyOperationId> = DeepPartial<RequestBodies[K]>;

/** Every field optional, nested objects too (arrays and values compare whole). */
type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [P in keyof T]?: DeepPartial<T[P]> } : T;

/**
 * What `requests` and `waitForRequest` keep: the requests whose body holds these fields (nested objects match by
 * their own fields, arrays and values whole), whose path parameters and status are these; or a predicate.
 */
export type RequestFilter<K extends OperationId> =
  | {
      /** Fields of the body as the fake validated it (defaults filled in). */
      body?: K extends BodyOperationId ? DeepPartial<RequestBodies[K]> : never;
      /** Fields of the body as the app sent it; `{ revenueShare: undefined }` matches a body that left it out. */
      sentBody?: K extends BodyOperationId ? DeepPartial<RequestBodies[K]> : never;
      params?: Partial<PathParameters<K>>;
      status?: number;
    }
  | ((request: RecordedRequest<K>) => boolean);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `actual` equals `expected`, JSON values compared by content. */
function sameValue(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => sameValue(actual[index], item))
    );
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return false;
    const keys = Object.keys(expected);
    return keys.length === Object.keys(actual).length && keys.every((key) => sameValue(actual[key], expected[key]));
  }
  return Object.is(actual, expected);
}

/** Whether `actual` holds every field of `expected` (nested objects likewise; arrays and values whole). */
function holds(actual: unknown, expected: unknown): boolean {
  if (!isPlainObject(expected)) return sameValue(actual, expected);
  if (!isPlainObject(actual)) return false;
  return Object.entries(expected).every(([key, value]) => holds(actual[key], value));
}

/**
 * Whether a recorded request passes a filter (no filter: every request does).
 * @example matchesRequestFilter(request, { body: { revenueShare: 0.1 }, status: 201 })
 */
export function matchesRequestFilter<K extends OperationId>(
  request: RecordedRequest<K>,
  filter: RequestFilter<K> | undefined,
): boolean {
  if (filter === undefined) return true;
  if (typeof filter === 'function') return filter(request);
  if (filter.status !== undefined && request.status !== filter.status) return false;
  if (filter.params !== undefined && !holds(request.params, filter.params)) return false;
  if (filter.sentBody !== undefined && (request.sentBody === undefined || !holds(request.sentBody, filter.sentBody)))
    return false;
  return filter.body === undefined || (request.body !== undefined && holds(request.body, filter.body));
}

/** The path parameters of a journal entry, decoded (a value that is not valid percent-encoding stays as sent). */
function entryParams(entry: JournalEntry, operationId: OperationId): Record<string, string> {
  const route = matchRoute(entry.method, entry.path);
  if (route.kind !== 'operation' || route.operationId !== operationId) return {};
  const params: Record<string, string> = {};
  for (const [name, raw] of Object.entries(route.params)) {
    try {
      params[name] = decodeURIComponent(raw);
    } catch {
      params[name] = raw;
    }
  }
  return params;
}

/** The body of a journal entry as sent and as the fake validated it, or why it has none. */
function entryBody(
  entry: JournalEntry,
  operationId: OperationId,
): Pick<RecordedRequest, 'body' | 'sentBody' | 'bodyErrors'> {
  if (!takesJsonBody(operationId) || entry.body === null || entry.bodyTruncated) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(entry.body);
  } catch {
    return { bodyErrors: [{ path: '', message: 'is not JSON' }] };
  }
  // Parsed again for `sentBody`: the validator fills the defaults into the value it is given.
  const sentBody = JSON.parse(entry.body) as RecordedRequest['sentBody'];
  const validated = validateRequestBody(operationId, parsed);
  return validated.ok ? { body: validated.value, sentBody } : { sentBody, bodyErrors: validated.errors };
}

/**
 * The journal's requests to one operation, oldest first, each with its path parameters and validated body.
 * @example recordedRequests(core.journal.entries(), operationId)[0]?.status // the status the first one was answered
 */
export function recordedRequests<K extends OperationId>(
  entries: readonly JournalEntry[],
  operationId: K,
): RecordedRequest<K>[] {
  const result: RecordedRequest<K>[] = [];
  for (const entry of entries) {
    if (entry.operationId !== operationId) continue;
    result.push({
      seq: entry.seq,
      at: entry.at,
      operationId,
      method: entry.method,
      path: entry.path,
      params: entryParams(entry, operationId) as PathParameters<K>,
      query: entry.query,
      ...(entryBody(entry, operationId) as Pick<RecordedRequest<K>, 'body' | 'sentBody' | 'bodyErrors'>),
      status: entry.status,
      ...(entry.forcedBy !== undefined && { forcedBy: entry.forcedBy }),
    });
  }
  return result;
}
