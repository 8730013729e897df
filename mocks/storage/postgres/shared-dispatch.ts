// Answering on a storage shared by replicas: memory brought up to date first (or, for a deploy, checked when its batch
// is written), rate limits counted where every replica counts, and an attempt that lost a race answered again.
import { getOperation } from '../../../spec/index.ts';
import type { DispatchTrace } from '../../core/api-dispatch.ts';
import type { Clock } from '../../core/clock.ts';
import type { MockRequest, MockResponse } from '../../core/mock-http.ts';
import { matchRoute } from '../../core/router.ts';
import type { Scenarios } from '../../core/steering/scenarios.ts';
import { StorageConflictError, StorageUnavailableError, StorageWriteError, type Storage } from '../storage.ts';

/**
 * Times a request is handled again when a replica sharing the storage changed the same rows first (nothing of the
 * attempt was applied). Past it the answer is the 503 of a change not saved.
 */
const MAX_ATTEMPTS = 8;

/**
 * Whether a request may be answered from memory without a pull first: an operation that changes state (not GET or
 * HEAD) and addresses no stored record (no path parameter; in this spec, deployAgent) reads nothing another replica
 * writes except the control state (scenarios, clock, overrides, a reset), which its batch checks when it is written
 * (Storage.answerUnpulled). A deploy thus costs no round trip before it. An operation that reads stored records, or a
 * new one that addresses none but reads them (a search), must pull: a rule here must then leave it out.
 */
function answersWithoutPull(request: MockRequest): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  const route = matchRoute(request.method, request.path);
  return route.kind === 'operation' && getOperation(route.operationId).pathParameters.length === 0;
}

/** What an attempt put in the trace, cleared before the request is handled again. */
function clearTrace(trace: DispatchTrace): void {
  trace.operationId = null;
  trace.bodyText = null;
}

type Dispatch = (request: MockRequest, trace: DispatchTrace) => Promise<MockResponse> | MockResponse;

export interface SharedDispatchParts {
  storage: Storage;
  scenarios: Scenarios;
  clock: Clock;
  /** The core's own dispatch (API, control plane, CORS). */
  dispatch: Dispatch;
  /** Whether a path belongs to the control plane (never rate-limited). */
  isControlPath: (path: string) => boolean;
}

/**
 * The dispatch for a storage that other replicas write too (one with `refresh`); undefined for any other storage,
 * which answers from memory with nothing to refresh or retry.
 * @example const shared = createSharedDispatch({ storage, scenarios, clock, dispatch, isControlPath }) ?? dispatch;
 */
export function createSharedDispatch(parts: SharedDispatchParts): Dispatch | undefined {
  const { storage, scenarios, clock, dispatch, isControlPath } = parts;
  const refresh = storage.refresh?.bind(storage);
  if (!refresh) return undefined;
  const answerUnpulled = storage.answerUnpulled?.bind(storage);
  // Nothing is awaited between the shared count and the scenarios' decision.
  const attempt = async (request: MockRequest, trace: DispatchTrace, pull = true): Promise<MockResponse> => {
    if (pull) await refresh();
    const limit = scenarios.config.rateLimit;
    if (
      limit &&
      storage.countRequest &&
      !isControlPath(request.path) &&
      matchRoute(request.method, request.path).kind === 'operation'
    )
      scenarios.useSharedWindow(
        await storage.countRequest(clock.now(), limit.windowSeconds * 1000, JSON.stringify(limit)),
      );
    return dispatch(request, trace);
  };
  /** The answer from memory as it is, or undefined when it may be stale (then it is handled again after a pull). */
  const fromMemory = async (request: MockRequest, trace: DispatchTrace): Promise<MockResponse | undefined> => {
    if (!answerUnpulled) return undefined;
    try {
      const outcome = await answerUnpulled(() => attempt(request, trace, false));
      if (outcome.holds) return outcome.value;
    } catch (error) {
      if (!(error instanceof StorageWriteError) || error instanceof StorageUnavailableError) throw error;
      // A batch not written because the database is gone answers as every request does then (the pull throws
      // StorageUnavailableError: 503 state-unavailable); with the database there, as a change not saved.
      if (!(error instanceof StorageConflictError)) {
        await refresh();
        throw error;
      }
    }
    clearTrace(trace);
    return undefined;
  };
  return async (request, trace) => {
    const answered = answersWithoutPull(request) ? await fromMemory(request, trace) : undefined;
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
}
