// `requests` and `waitForRequest` of the test API, over any way of listing the journal's requests to an operation (the
// core's journal in process, GET /__mock/requests over HTTP): one implementation of the filter and of the wait.
import { findOperation, type OperationId, type OperationKey, type OperationOf } from '../../spec/index.ts';
import { MockInputError } from '../domain/input-error.ts';
import { matchesRequestFilter, type RecordedRequest, type RequestFilter } from '../core/steering/recorded-requests.ts';

/** How long `waitForRequest` waits by default, in milliseconds. */
const DEFAULT_WAIT_MS = 5000;

/** Options of `waitForRequest`. */
export interface WaitForRequestOptions {
  /** Milliseconds to wait before rejecting (default 5000), counted on real time even under a test's fake timers. */
  timeout?: number;
}

/** What the test API reads back of the requests the app sent. */
export interface RequestReading {
  /**
   * What the app sent to the operation (operationId or `METHOD /path/{template}`), oldest first, from the journal (the
   * last 1,000 requests): each with its body as the fake validated it, path parameters, status answered and time.
   */
  requests<const Key extends OperationKey>(
    operation: Key,
    filter?: RequestFilter<OperationOf<Key>>,
  ): Promise<RecordedRequest<OperationOf<Key>>[]>;
  /**
   * The first request to the operation that matches and that no earlier `waitForRequest` of this API returned, whether
   * it came before the call or comes after it (so a click awaited first is never missed); rejects after the timeout.
   */
  waitForRequest<const Key extends OperationKey>(
    operation: Key,
    filter?: RequestFilter<OperationOf<Key>>,
    options?: WaitForRequestOptions,
  ): Promise<RecordedRequest<OperationOf<Key>>>;
}

// Taken when the module loads, before a test fakes timers: a wait ends on real time, not on timers a test holds still.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

function operationIdOf(key: string): OperationId {
  const operation = findOperation(key);
  if (operation) return operation.operationId;
  throw new MockInputError(`The operation ${JSON.stringify(key).slice(0, 200)}`, [
    { path: '/operation', message: 'is neither an operationId nor a METHOD /path of spec/openapi.yaml' },
  ]);
}

/** Resolves after `ms` of real time. */
const pause = (ms: number): Promise<void> => new Promise((resolve) => realSetTimeout(resolve, ms));

/** How long after its timeout a wait still lets its last look at the journal answer. */
const GRACE_MS = 1000;

/** The longest timeout a timer can keep (setTimeout fires at once past it). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * A MockInputError unless `timeout` is a number of milliseconds a timer can keep: more than 0, at most 2^31 − 1.
 * @example checkTimeout('The waitForRequest options', options.timeout)
 */
export function checkTimeout(what: string, timeout: number): void {
  if (typeof timeout === 'number' && timeout > 0 && timeout <= MAX_TIMEOUT_MS) return;
  throw new MockInputError(what, [
    { path: '/timeout', message: `must be more than 0 and at most ${MAX_TIMEOUT_MS} ms, got ${String(timeout)}` },
  ]);
}

/** The error of a wait that timed out: what was waited for, and what did come. */
function unanswered(operationId: OperationId, timeout: number): Error {
  return new Error(
    `waitForRequest: no ${operationId} request came within ${timeout} ms (the fake did not answer in time).`,
  );
}

function waitTimedOut(operationId: OperationId, timeout: number, seen: readonly RecordedRequest[]): Error {
  const came =
    seen.length === 0
      ? `the fake took no ${operationId} request`
      : `the fake took ${seen.length} ${operationId} request${seen.length === 1 ? '' : 's'} (answered ${seen.map((r) => r.status).join(', ')}), none of them matching and not yet returned`;
  return new Error(`waitForRequest: no ${operationId} request came within ${timeout} ms: ${came}.`);
}

/**
 * `requests` and `waitForRequest` over a lister of one operation's recorded requests (those past a seq); `pollMs` is
 * how often a wait lists them again.
 * @example
 * const reading = createRequestReading(async (id, after) => recordedRequests(core.journal.entriesAfter(after), id), 10);
 */
export function createRequestReading(
  list: (operationId: OperationId, after: number, signal?: AbortSignal) => Promise<RecordedRequest[]>,
  pollMs: number,
): RequestReading {
  /** The journal seqs earlier waits returned. */
  const returned = new Set<number>();
  // The filter was typed against the operation the caller named; here it meets the requests listed for that operation.
  const matches = (request: RecordedRequest, filter: unknown) =>
    matchesRequestFilter(request, filter as RequestFilter<OperationId> | undefined);
  return {
    async requests(operation, filter) {
      const listed = await list(operationIdOf(operation), 0);
      return listed.filter((request) => matches(request, filter)) as RecordedRequest<OperationOf<typeof operation>>[];
    },
    async waitForRequest(operation, filter, options = {}) {
      const operationId = operationIdOf(operation);
      const timeout = options.timeout ?? DEFAULT_WAIT_MS;
      checkTimeout('The waitForRequest options', timeout);
      let expired = false;
      // The deadline holds for each look too: a look still unanswered GRACE_MS after the timeout (a fake that stopped
      // answering) is abandoned, and the wait rejects.
      const deadline = new AbortController();
      let timer = realSetTimeout(() => {
        expired = true;
        timer = realSetTimeout(() => deadline.abort(), GRACE_MS);
      }, timeout);
      // A request looked at once never matches later (entries do not change): each look reads only newer ones.
      let seen = 0;
      try {
        for (;;) {
          let listed: RecordedRequest[];
          try {
            listed = await list(operationId, seen, deadline.signal);
          } catch (error) {
            if (!expired) throw error;
            throw new Error(
              `waitForRequest: no ${operationId} request came within ${timeout} ms (the fake did not answer in time).`,
            );
          }
          const found = listed.find((request) => !returned.has(request.seq) && matches(request, filter));
          if (found) {
            returned.add(found.seq);
            return found as RecordedRequest<OperationOf<typeof operation>>;
          }
          seen = Math.max(seen, ...listed.map((request) => request.seq));
          if (expired) {
            const all = await list(operationId, 0, deadline.signal).catch(() => undefined);
            if (all === undefined) throw unanswered(operationId, timeout);
            throw waitTimedOut(operationId, timeout, all);
          }
          await pause(pollMs);
        }
      } finally {
        realClearTimeout(timer);
      }
    },
  };
}
