// What createMockCore takes (MockCoreOptions) and what it gives (MockCore): the core's public shape, which the
// adapters, the test API and the control plane use; mock-core.ts wires it.
import type { Clock } from '../domain/clock.ts';
import type { Logger } from '../domain/logger.ts';
import type { CorsOrigins } from '../core/request/cors.ts';
import type { Coverage } from '../core/steering/coverage.ts';
import type { Journal } from '../core/steering/journal.ts';
import type { MockRequest, MockResponse } from '../core/mock-http.ts';
import type { BuiltOverride } from '../core/steering/overrides.ts';
import type { DispatchLayer } from '../core/dispatch-layer.ts';
import type { ScenarioConfig, Scenarios } from '../core/steering/scenarios.ts';
import type { SessionOptions, SessionRegistry } from '../core/sessions/sessions.ts';
import type { OperationId } from '../../spec/index.ts';
import type { Storage } from '../state/storage.ts';
import type { AgentStore } from '../state/store/store.ts';
import type { PactLog } from '../pact-export/pact-log.ts';
import type { ProviderStateMarks } from '../pact-export/provider-state.ts';

/** The seed used when none is given (MOCK_SEED). */
export const DEFAULT_SEED = 42;

export interface MockCoreOptions {
  /** Seed of the catalogue and every random choice; a number or any text (default 42). */
  seed?: number | string;
  /** The mock's clock (default: wall time, advanceable). */
  clock?: Clock;
  /**
   * Follow the test runner's fake timers: the clock reads `Date.now()` on every call (so `vi.useFakeTimers()` and
   * `vi.advanceTimersByTime()` move tasks along) and scenario latency waits on the (faked) `setTimeout`. Ignored when
   * `clock` is given.
   */
  followFakeTimers?: boolean;
  /** Wall time used to check token expiry (default Date.now). */
  wallClock?: () => number;
  /** Number of seeded agents (default 36). */
  catalogueSize?: number;
  /** Share of tasks that fail (default 0.1). */
  failureRatio?: number;
  /** Bound of the task history (default 10,000). */
  maxTasks?: number;
  /** Deployed agents kept at most; a deploy beyond it is a 503 until a reset (default 1,000,000). */
  maxAgents?: number;
  /** Bound of the request journal (default 1,000). */
  journalSize?: number;
  /** HS256 secret of accepted tokens (default `agent-registry-kit-dev-secret`). */
  jwtSecret?: string;
  /** Origins allowed by CORS (default every origin). */
  corsOrigins?: CorsOrigins;
  /** Scenarios active from the start. */
  scenarios?: ScenarioConfig;
  /**
   * Where the state lives (default: in memory). A durable storage (`openSqliteStorage`, node only) is resumed from, and
   * every acknowledged mutation, control-plane changes included, is in it before it is answered.
   */
  storage?: Storage;
  /**
   * A layer around the dispatch of every request (API and control plane), given what it may use of the core (scenarios,
   * clock, the operation a request is routed to and what the operation table declares of it). A storage several
   * processes share brings one (`openPostgresState`, node only): it brings memory up to date before a request that
   * reads stored records, counts rate limits where every process counts, and answers again after a lost race.
   * Default: none, the dispatch answers alone.
   */
  dispatchLayer?: DispatchLayer;
  /**
   * The random state the store starts from and a reset returns to (default: the seed's stream). Processes sharing one
   * storage each take their own, so the ids they draw never collide.
   */
  randomStart?: number;
  /**
   * How the core learns that what is stored changed beneath it (another process sharing the storage wrote it): called
   * once with a listener, which the storage calls after such a change. The core then takes up the stored clock even
   * when it moved back (a reset elsewhere); the rest it takes up through `Storage.onRollback`, which such a storage
   * calls too. Default: nothing but the core's own writes changes what is stored.
   */
  watchStoredChanges?: (changed: () => void) => void;
  logger?: Logger;
  /** Waits a scenario's latency (default a timer); a test injects one that records instead of waiting. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Sessions (mocks/core/sessions/sessions.ts): a request naming one (X-Mock-Session header, mock-session cookie) gets a store, clock,
   * scenarios and journal of its own. Bounds: 100 sessions and 100,000 records by default; `false` or `{ max: 0 }` turns
   * them off (a request naming a session then gets a 400). Sessions live in memory only, whatever `storage` is.
   */
  sessions?: SessionOptions | false;
}

/**
 * The key of `MockCore`'s synchronous answer: the node:http listener's fast path. Not exported by any package entry.
 */
export const answerSync: unique symbol = Symbol('answerSync');

/** The core, as adapters and the control plane use it. */
export interface MockCore {
  /** Answers one request; never throws (a fault becomes a 500 problem). */
  handle(request: MockRequest): Promise<MockResponse>;
  /**
   * `handle`, answered at once when nothing on the request's path waits (in memory, a known token, no scenario latency),
   * else a promise: the node:http listener writes such an answer without a promise or a microtask. Never throws.
   * Optional: a core made otherwise (a test's stand-in) is answered through `handle`.
   */
  [answerSync]?(request: MockRequest): MockResponse | Promise<MockResponse>;
  readonly store: AgentStore;
  readonly clock: Clock;
  readonly journal: Journal;
  readonly scenarios: Scenarios;
  /** What the API answered, counted (GET /__mock/coverage); reset only by DELETE /__mock/coverage. */
  readonly coverage: Coverage;
  /**
   * The exchanges a pact is written from (GET /__mock/pact, `api.writePact`): shared by every session like the coverage,
   * kept across resets, cleared only by DELETE /__mock/pact.
   */
  readonly pact: PactLog;
  readonly seed: number;
  /** Where the state lives; also keeps small named documents for other parts of the fake (coverage…). */
  readonly storage: Storage;
  /** Back to the seed: store, scenarios, journal and the clock's offset. Await `persist()` before answering. */
  reset(): void;
  /** Resolves once every change made so far is durable; rejects with a StorageWriteError when it was rolled back. */
  persist(): Promise<void>;
  /**
   * The live sessions (undefined in a session's own core, and when sessions are off): list, delete, look one up.
   */
  readonly sessions: SessionRegistry<MockCore> | undefined;
  /**
   * The core of session `id`, created from the seed on first use: what requests with `X-Mock-Session: id` see.
   * @example const mine = core.session('worker-1'); mine.store.setStatus(agentId, 'paused');
   */
  session(id: string): MockCore;
  /**
   * What it holds, in records: agents beside the seed's catalogue (deployed, seeded, changed), tasks, journal entries,
   * and one per KiB of its overrides' answers. What counts against the sessions' records bound.
   */
  readonly records: number;
  /** Moves the mock's clock forward, once the new offset is durable (a failed write leaves the clock where it was). */
  advanceClock(ms: number): Promise<void>;
  /**
   * Replaces the scenarios (`{}` clears them) and waits until they are durable. Checked as PUT /__mock/scenarios checks
   * them: a MockInputError names each bad field (latencyMs -5, an errorStatus the operation does not document).
   */
  configureScenarios(config: ScenarioConfig): Promise<void>;
  /** Answers of operations set by a test (`setOverride`), until `clearOverrides` or `reset`. */
  readonly overrides: ReadonlyMap<OperationId, BuiltOverride['response']>;
  /** What POST /__mock/provider-states set up since the last reset (the console's "decided by" reads it). */
  readonly providerStates: ProviderStateMarks;
  /**
   * From now on, answers the override's operation with its answer (built and checked by `buildOverride`). Kept in the
   * storage like the scenarios (a restart with --state, every replica); resolves once durable.
   */
  setOverride(override: BuiltOverride): Promise<void>;
  clearOverrides(): Promise<void>;
  /** Removes one operation's override (the others stay); resolves false when that operation had none. */
  removeOverride(operationId: OperationId): Promise<boolean>;
}
