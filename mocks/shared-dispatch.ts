// Answering on a storage shared by replicas: memory brought up to date first, rate limits counted where every replica
// counts, and an attempt that lost a race with another replica answered again.
import type { DispatchTrace } from './api-dispatch.ts';
import type { Clock } from './clock.ts';
import type { MockRequest, MockResponse } from './mock-http.ts';
import { matchRoute } from './router.ts';
import type { Scenarios } from './scenarios.ts';
import { StorageConflictError, type Storage } from './storage.ts';

/**
 * Times a request is handled again when a replica sharing the storage changed the same rows first (nothing of the
 * attempt was applied). Past it the answer is the 503 of a change not saved.
 */
const MAX_ATTEMPTS = 8;

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
  // Nothing is awaited between the shared count and the scenarios' decision.
  const attempt = async (request: MockRequest, trace: DispatchTrace): Promise<MockResponse> => {
    await refresh();
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
  return async (request, trace) => {
    for (let tries = 1; ; tries += 1) {
      try {
        return await attempt(request, trace);
      } catch (error) {
        if (!(error instanceof StorageConflictError) || tries >= MAX_ATTEMPTS) throw error;
        trace.operationId = null;
        trace.bodyText = null;
      }
    }
  };
}
