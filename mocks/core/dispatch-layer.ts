// The core's one extension point around its dispatch: a layer (middleware) that a storage needing more than memory
// plugs in (mocks/storage/postgres/ brings one), with what it may ask of the core. The core itself knows no storage.
import type { OperationId } from '../../spec/index.ts';
import type { DispatchTrace } from './api-dispatch.ts';
import type { Clock } from '../domain/clock.ts';
import type { MockRequest, MockResponse } from './mock-http.ts';
import type { StoredReads } from './operation-handler.ts';
import type { Scenarios } from './steering/scenarios.ts';

/** Answers one request (API, control plane, CORS); `trace` collects what the journal and coverage record of it. */
export type Dispatch = (request: MockRequest, trace: DispatchTrace) => MockResponse | Promise<MockResponse>;

/** What the operation table declares of the API operation a request is routed to. */
interface OperationFacts {
  operationId: OperationId;
  /** Whether its answer reads the agents or tasks the state holds (mocks/core/operation-handler.ts). */
  reads: StoredReads;
}

/** What a layer may use of the core it wraps. */
export interface DispatchContext {
  readonly scenarios: Scenarios;
  readonly clock: Clock;
  /** Whether a path is the control plane's (`/__mock/…`). */
  isControlPath(path: string): boolean;
  /** The operation the request is routed to, with its declared facts; undefined for none (control plane, 404, 405). */
  operationOf(request: MockRequest): OperationFacts | undefined;
  /**
   * `operationOf(request)?.reads`, and `'stored-records'` (the safe answer) for a request routed to no operation.
   * Cheaper: a request whose method no operation declaring `'no-stored-records'` has is not routed (every GET here).
   */
  readsOf(request: MockRequest): StoredReads;
}

/**
 * Wraps the core's dispatch: called once per core with the dispatch it wraps (`next`), answers every request.
 * @example const timed: DispatchLayer = (next) => (request, trace) => next(request, trace);
 */
export type DispatchLayer = (next: Dispatch, context: DispatchContext) => Dispatch;
