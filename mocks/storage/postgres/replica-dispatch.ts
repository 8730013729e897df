// Answering on a storage shared by replicas, as a layer around the core's dispatch: memory brought up to date first
// (or, for an operation the operation table says reads no stored record, checked when its batch is written), rate
// limits counted where every replica counts, and an attempt that lost a race answered again.
import type { DispatchTrace } from '../../core/api-dispatch.ts';
import type { DispatchLayer } from '../../core/dispatch-layer.ts';
import type { MockRequest, MockResponse } from '../../core/mock-http.ts';
import { StorageConflictError, StorageUnavailableError, StorageWriteError } from '../../state/storage.ts';

/**
 * Times a request is handled again when a replica sharing the storage changed the same rows first (nothing of the
 * attempt was applied). Past it the answer is the 503 of a change not saved.
 */
const MAX_ATTEMPTS = 8;

/** What the layer needs of the shared storage (PostgresStorage; a test's stand-in). */
export interface ReplicaStorage {
  /** Brings memory up to what every replica committed. */
  refresh(): Promise<void>;
  /**
   * Runs `attempt` on memory as it is, without `refresh` first, and says whether its answer holds: every batch written
   * while it runs is refused (a StorageConflictError) if a control change (a document such as the scenarios or the
   * clock, or a reset) reached the database after the change memory held when it began, so one such batch written
   * proves the answer current; without one, a pull after it must find no control change since.
   */
  answerUnpulled<T>(attempt: () => Promise<T>): Promise<{ value: T; holds: boolean }>;
  /**
   * Counts one request in the rate-limit window every replica shares (`key` names the limit; another key starts a new
   * window). Resolves with the window's start and this request's number in it.
   */
  countRequest(now: number, windowMs: number, key: string): Promise<{ start: number; count: number }>;
}

/** What an attempt put in the trace, cleared before the request is handled again. */
function clearTrace(trace: DispatchTrace): void {
  trace.operationId = null;
  trace.bodyText = null;
}

/**
 * The layer for a core whose storage other replicas write too. A request is answered from memory without a pull first
 * only when the operation table says its operation reads no stored record (`reads: 'no-stored-records'`, the deploy):
 * it reads nothing another replica writes except the control state (scenarios, clock, overrides, a reset), which its
 * batch checks when it is written (`answerUnpulled`), so it costs no round trip before it. Every other request (an
 * operation reading stored records, the control plane, a 404) pulls first.
 * @example createMockCore({ storage, dispatchLayer: createReplicaLayer(storage) });
 */
export function createReplicaLayer(storage: ReplicaStorage): DispatchLayer {
  return (next, { scenarios, clock, isControlPath, operationOf, readsOf }) => {
    // Nothing is awaited between the shared count and the scenarios' decision.
    const attempt = async (request: MockRequest, trace: DispatchTrace, pull = true): Promise<MockResponse> => {
      if (pull) await storage.refresh();
      const limit = scenarios.config.rateLimit;
      if (limit && !isControlPath(request.path) && operationOf(request) !== undefined)
        scenarios.useSharedWindow(
          await storage.countRequest(clock.now(), limit.windowSeconds * 1000, JSON.stringify(limit)),
        );
      return next(request, trace);
    };
    /** The answer from memory as it is, or undefined when it may be stale (then it is handled again after a pull). */
    const fromMemory = async (request: MockRequest, trace: DispatchTrace): Promise<MockResponse | undefined> => {
      try {
        const outcome = await storage.answerUnpulled(() => attempt(request, trace, false));
        if (outcome.holds) return outcome.value;
      } catch (error) {
        if (!(error instanceof StorageWriteError) || error instanceof StorageUnavailableError) throw error;
        // A batch not written because the database is gone answers as every request does then (the pull throws
        // StorageUnavailableError: 503 state-unavailable); with the database there, as a change not saved.
        if (!(error instanceof StorageConflictError)) {
          await storage.refresh();
          throw error;
        }
      }
      clearTrace(trace);
      return undefined;
    };
    return async (request, trace) => {
      const answered = readsOf(request) === 'no-stored-records' ? await fromMemory(request, trace) : undefined;
      if (answered) return answered;
      for (let tries = 1; ; tries += 1) {
        try {
          return await attempt(request, trace);
        } catch (error) {
          if (!(error instanceof StorageConflictError) || tries >= MAX_ATTEMPTS) throw error;
          clearTrace(trace);
        }
      }
    };
  };
}
