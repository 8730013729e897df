// The fake's core: assembles store, clock, journal, scenarios and auth, and answers every request (API, control plane, CORS).
import { createApiDispatch, type DispatchTrace } from '../core/api-dispatch.ts';
import { createAuthenticator, DEFAULT_JWT_SECRET, type Authenticator } from '../core/request/auth.ts';
import {
  clockStepProblem,
  createRunnerClock,
  createSessionClock,
  createSystemClock,
  type Clock,
} from '../domain/clock.ts';
import { handleControlRequest } from '../control-plane/control-plane.ts';
import { Coverage } from '../core/steering/coverage.ts';
import { isForeignPage, preflight, refuseCrossSite, withCors, type CorsOrigins } from '../core/request/cors.ts';
import { MockInputError } from '../domain/input-error.ts';
import { DEFAULT_JOURNAL_SIZE, Journal } from '../core/steering/journal.ts';
import { consoleLogger, type Logger } from '../domain/logger.ts';
import type { MockRequest, MockResponse } from '../core/mock-http.ts';
import type { BuiltOverride } from '../core/steering/overrides.ts';
import { createCoreDocuments, type CoreDocuments } from '../core/core-documents.ts';
import type { Dispatch, DispatchContext, DispatchLayer } from '../core/dispatch-layer.ts';
import { failureResponse } from '../core/failure-response.ts';
import { seedFromText } from '../domain/random.ts';
import { refuseRepeatedHeaders } from '../core/request/repeated-headers.ts';
import { matchRoute } from '../core/router.ts';
import { parseScenarioConfig, Scenarios, type ScenarioConfig } from '../core/steering/scenarios.ts';
import {
  SESSION_HEADER,
  SESSION_JOURNAL_SIZE,
  SESSION_MAX_TASKS,
  SessionRegistry,
  createSessionRouting,
  type SessionOptions,
} from '../core/sessions/sessions.ts';
import { recordsHeld, sessionRoom, type SessionRoom, type SessionShare } from './session-records.ts';
import { recordAnswer } from './answer-recording.ts';
import { getOperation, type OperationId } from '../../spec/index.ts';
import { createMemoryStorage } from '../storage/memory/memory-storage.ts';
import type { Storage } from '../state/storage.ts';
import type { CatalogueCache } from '../state/catalogue-cache.ts';
import { CONTROL_PREFIX } from '../core/control-prefix.ts';
import { AgentStore, DEFAULT_FAILURE_RATIO } from '../state/store.ts';
import { operationTable } from '../operations/operation-table.ts';
import { PactLog, type PactShare } from '../pact-export/pact-log.ts';
import { ProviderStateMarks } from '../pact-export/provider-state.ts';

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

const sleepFor = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const isControlPath = (path: string): boolean => path.startsWith(CONTROL_PREFIX) || path === '/__mock';
/** The API operation a request is routed to and what the operation table declares of it (for a dispatch layer). */
const operationOf: DispatchContext['operationOf'] = (request) => {
  const route = matchRoute(request.method, request.path);
  if (route.kind !== 'operation') return undefined;
  return { operationId: route.operationId, reads: operationTable[route.operationId].reads };
};

/** DispatchContext.readsOf, from the table as it is now: the methods of operations reading none are routed. */
function createReadsOf(): DispatchContext['readsOf'] {
  const methods = new Set<string>();
  for (const operationId of Object.keys(operationTable) as OperationId[]) {
    if (operationTable[operationId].reads === 'stored-records') continue;
    const { method } = getOperation(operationId);
    methods.add(method);
    // The router serves HEAD wherever GET is.
    if (method === 'GET') methods.add('HEAD');
  }
  return (request) => (methods.has(request.method) ? operationOf(request)?.reads : undefined) ?? 'stored-records';
}

/**
 * What a session's core shares with the core it belongs to: the coverage, the clock it follows, and what is the same for
 * every session, so that a session costs what it changes: the seed's catalogue (read-only to a store) and the
 * verified-token cache (a token verified once is valid in every session).
 */
interface SessionParent {
  coverage: Coverage;
  pact: PactLog;
  clock: Clock;
  catalogue: CatalogueCache;
  authenticator: Authenticator;
}

/**
 * Creates the fake's core.
 * @example
 * const core = createMockCore({ seed: 7 });
 * const response = await core.handle({ method: 'GET', path: '/v1/agents/x', query: '', headers: {}, body: null }); // 401
 */
export function createMockCore(options: MockCoreOptions = {}): MockCore {
  return assembleCore(options, undefined, undefined);
}

/**
 * The options a session's core is made with: the fake's own, in memory, on a clock of its own, with smaller bounds. Its
 * journal and task history are rings that take at most a quarter of its share each, so what it deploys or seeds has
 * the rest.
 */
function sessionOptions(options: MockCoreOptions, parent: SessionParent, share: SessionShare): MockCoreOptions {
  const {
    storage: _storage,
    sessions: _sessions,
    dispatchLayer: _dispatchLayer,
    randomStart: _randomStart,
    watchStoredChanges: _watchStoredChanges,
    ...rest
  } = options;
  const ringShare = Math.max(1, Math.floor(share.maxRecords / 4));
  return {
    ...rest,
    clock: createSessionClock(parent.clock),
    journalSize: Math.min(options.journalSize ?? SESSION_JOURNAL_SIZE, SESSION_JOURNAL_SIZE, ringShare),
    maxTasks: Math.min(options.maxTasks ?? SESSION_MAX_TASKS, SESSION_MAX_TASKS, ringShare),
    sessions: false,
  };
}

/** The store of a core, made from its options; a session's shares its parent's catalogue and asks its room. */
function createStore(
  options: MockCoreOptions,
  parts: {
    seed: number;
    clock: Clock;
    storage: Storage;
    scenarios: Scenarios;
    parent: SessionParent | undefined;
    room: SessionRoom | undefined;
  },
): AgentStore {
  const { seed, clock, storage, scenarios, parent, room } = parts;
  return new AgentStore({
    seed,
    clock,
    storage,
    failureRatio: () => scenarios.taskFailureRatio,
    ...(options.catalogueSize !== undefined && { catalogueSize: options.catalogueSize }),
    ...(options.maxTasks !== undefined && { maxTasks: options.maxTasks }),
    ...(options.maxAgents !== undefined && { maxAgents: options.maxAgents }),
    ...(options.randomStart !== undefined && { randomStart: options.randomStart }),
    ...(parent !== undefined && { catalogue: parent.catalogue }),
    ...(room !== undefined && { hasRoom: room.hasRoom }),
  });
}

/** The front door: repeated headers refused, CORS preflights answered, cross-site control requests refused. */
function frontDoor(
  corsOrigins: CorsOrigins,
  api: Dispatch,
  control: (request: MockRequest) => MockResponse | Promise<MockResponse>,
): Dispatch {
  return (request, trace) => {
    const repeated = refuseRepeatedHeaders(request);
    if (repeated) return repeated;
    const isControl = isControlPath(request.path);
    const cors = preflight(corsOrigins, request, isControl);
    if (cors) return cors;
    if (isControl) return refuseCrossSite(corsOrigins, request) ?? control(request);
    return api(request, trace);
  };
}

/** Routes a request naming a session to it, anything else to `answer`. */
function inSession(
  routeToSession: (request: MockRequest) => MockResponse | Promise<MockResponse> | undefined,
  answer: (request: MockRequest) => MockResponse | Promise<MockResponse>,
): (request: MockRequest) => MockResponse | Promise<MockResponse> {
  // The default session pays two property reads for sessions: no header and no cookie means no lookup at all.
  return (request) =>
    (request.headers[SESSION_HEADER] !== undefined || request.headers.cookie !== undefined
      ? routeToSession(request)
      : undefined) ?? answer(request);
}

/**
 * A core; with `parent`, the core of one session (it shares the parent's coverage, catalogue and token cache, follows
 * its clock), holding at most `share`.
 */
function assembleCore(
  options: MockCoreOptions,
  parent: SessionParent | undefined,
  share: SessionShare | undefined,
): MockCore {
  const seed = typeof options.seed === 'string' ? seedFromText(options.seed) : (options.seed ?? DEFAULT_SEED);
  const clock = options.clock ?? (options.followFakeTimers ? createRunnerClock() : createSystemClock());
  const overrides = new Map<OperationId, BuiltOverride['response']>();
  const logger = options.logger ?? consoleLogger;
  const corsOrigins = options.corsOrigins ?? '*';
  const storage = options.storage ?? createMemoryStorage();
  const scenarios = new Scenarios(seed, { taskFailureRatio: options.failureRatio ?? DEFAULT_FAILURE_RATIO });
  const journal = new Journal(options.journalSize ?? DEFAULT_JOURNAL_SIZE);
  const providerStates = new ProviderStateMarks();
  const pact = parent?.pact ?? new PactLog();
  // What a session's answers added to the pact log counts among what it holds, for as long as the log keeps it.
  const held = () => recordsHeld(store, journal, overrides) + (share ? pact.sessionRecords(share.id) : 0);
  const room: SessionRoom | undefined = share && sessionRoom(share, held, journal, overrides);
  const store = createStore(options, { seed, clock, storage, scenarios, parent, room });
  const authenticator: Authenticator =
    parent?.authenticator ?? createAuthenticator(options.jwtSecret ?? DEFAULT_JWT_SECRET, options.wallClock);
  const coverage = parent?.coverage ?? new Coverage();
  const documents = createCoreDocuments({
    storage,
    clock,
    scenarios,
    coverage,
    overrides,
    scenariosAtStart: options.scenarios,
    ownsCoverage: parent === undefined,
    watchStoredChanges: options.watchStoredChanges,
  });
  const { persist } = documents;
  const dispatchApi = createApiDispatch({
    clock,
    scenarios,
    authenticator,
    services: {
      store,
      persist,
      // In memory nothing is waited for: the answer goes out at once, with no promise (the hot path of the fake).
      acknowledge: (response) => (storage.durable ? persist().then(() => response) : response),
    },
    operations: operationTable,
    sleep: options.sleep ?? sleepFor,
    overrides,
    overrideUsed: (operationId) => documents.overrideUsed(operationId),
  });
  const dispatch = frontDoor(corsOrigins, dispatchApi, (request) => handleControlRequest(core, request));
  const answerOnce =
    options.dispatchLayer?.(dispatch, { scenarios, clock, isControlPath, operationOf, readsOf: createReadsOf() }) ??
    dispatch;
  const sessions =
    parent === undefined
      ? createSessions(options, { coverage, pact, clock, catalogue: store.catalogue, authenticator })
      : undefined;
  // A session's own core answers whatever reaches it: only the default core routes to sessions.
  const routeToSession = parent === undefined ? createSessionRouting(sessions, corsOrigins) : () => undefined;

  const answer = createAnswer({
    answerOnce,
    corsOrigins,
    coverage,
    journal,
    clock,
    logger,
    pact,
    pactShare: room?.pactShare,
    store,
    providerStates,
  });
  const answerNow = inSession(routeToSession, answer);
  const core: MockCore = {
    store,
    clock,
    journal,
    scenarios,
    coverage,
    pact,
    seed,
    storage,
    sessions,
    session(id) {
      if (!sessions) throw new Error('This core has no sessions (a session of its own, or sessions: false).');
      return sessions.open(id);
    },
    get records() {
      return held();
    },
    overrides,
    providerStates,
    setOverride(override) {
      const misfit = room?.overrideMisfit(override);
      return misfit ? Promise.reject(misfit) : documents.setOverride(override);
    },
    clearOverrides: () => documents.clearOverrides(),
    removeOverride: (operationId) => documents.removeOverride(operationId),
    reset() {
      store.reset();
      providerStates.clear();
      scenarios.reset();
      journal.clear();
      clock.reset?.();
      documents.afterReset();
    },
    persist,
    advanceClock: (ms) => advanceChecked(ms, { clock, documents, store }),
    async configureScenarios(config) {
      const parsed = parseScenarioConfig(config);
      if (parsed.errors.length > 0) throw new MockInputError('The scenario configuration', parsed.errors);
      await documents.saveScenarios(parsed.config);
    },
    handle(request) {
      const answered = answerNow(request);
      return answered instanceof Promise ? answered : Promise.resolve(answered);
    },
    [answerSync]: answerNow,
  };
  return core;
}

/** Moves a core's clock by a step the one clock check allows (else a MockInputError), then settles the tasks due. */
async function advanceChecked(
  ms: number,
  parts: { clock: Clock; documents: Pick<CoreDocuments, 'advanceClock'>; store: Pick<AgentStore, 'settle'> },
): Promise<void> {
  const problem = clockStepProblem(ms, parts.clock.offset);
  if (problem !== undefined) throw new MockInputError('The clock step', [{ path: '/ms', message: problem }]);
  await parts.documents.advanceClock(ms);
  parts.store.settle();
}

/** What an answer of a core needs besides the request: its dispatch and what every answer leaves behind. */
interface AnswerParts {
  answerOnce: Dispatch;
  corsOrigins: CorsOrigins;
  coverage: Coverage;
  journal: Journal;
  clock: Clock;
  logger: Logger;
  pact: PactLog;
  pactShare: PactShare | undefined;
  store: AgentStore;
  providerStates: ProviderStateMarks;
}

/**
 * A core's answer to one request: the dispatch's, or the problem for what it threw, with CORS headers and, for the API,
 * its coverage count and journal line. Synchronous unless the dispatch has to wait (see createApiDispatch), so the
 * node:http listener can answer at once; the closures of `then` are made only for an answer that waits.
 */
function createAnswer(parts: AnswerParts): (request: MockRequest) => MockResponse | Promise<MockResponse> {
  const { answerOnce, corsOrigins, coverage, journal, clock, logger, pact, pactShare, store, providerStates } = parts;
  const records = { coverage, journal, clock, pact, pactShare, store, providerStates };
  const finish = (request: MockRequest, response: MockResponse, context: DispatchTrace, started: number) => {
    const control = isControlPath(request.path);
    withCors(corsOrigins, request, response, control);
    // A page of another site is answered (CORS `*` lets it read) but leaves nothing behind: with the public default
    // JWT secret it can mint a token, and its requests must not become the developer's pact, journal or coverage.
    if (!control && !isForeignPage(corsOrigins, request)) recordAnswer(records, request, response, context, started);
    return response;
  };
  return (request) => {
    const started = performance.now();
    const context: DispatchTrace = { operationId: null, bodyText: null };
    let pending: MockResponse | Promise<MockResponse>;
    try {
      pending = answerOnce(request, context);
    } catch (error) {
      pending = failureResponse(error, request, logger);
    }
    if (!(pending instanceof Promise)) return finish(request, pending, context, started);
    return pending.then(
      (response) => finish(request, response, context, started),
      (error: unknown) => finish(request, failureResponse(error, request, logger), context, started),
    );
  };
}

/** The default core's sessions, each a core of its own made on first use; undefined when sessions are off. */
function createSessions(options: MockCoreOptions, parent: SessionParent): SessionRegistry<MockCore> | undefined {
  if (options.sessions === false || options.sessions?.max === 0) return undefined;
  const registry: SessionRegistry<MockCore> = new SessionRegistry<MockCore>(
    {
      create: (id) => {
        const share = { maxRecords: registry.maxRecords, id };
        return assembleCore(sessionOptions(options, parent, share), parent, share);
      },
      records: (session) => session.records,
    },
    options.sessions ?? {},
  );
  return registry;
}
