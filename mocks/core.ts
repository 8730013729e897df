// The fake's core: assembles store, clock, journal, scenarios and auth, and answers every request (API, control plane, CORS).
import { createApiDispatch, type DispatchTrace } from './api-dispatch.ts';
import { createAuthenticator, DEFAULT_JWT_SECRET, type Authenticator } from './auth.ts';
import { createRunnerClock, createSessionClock, createSystemClock, type Clock } from './clock.ts';
import { handleControlRequest } from './control-plane.ts';
import { Coverage } from './coverage.ts';
import { preflight, refuseCrossSite, withCors, type CorsOrigins } from './cors.ts';
import { MockInputError } from './input-error.ts';
import { DEFAULT_JOURNAL_SIZE, Journal, JOURNAL_BODY_LIMIT, journalText } from './journal.ts';
import { consoleLogger, type Logger } from './logger.ts';
import type { MockRequest, MockResponse } from './mock-http.ts';
import type { BuiltOverride } from './overrides.ts';
import { problemResponse } from './problems.ts';
import { seedFromText } from './random.ts';
import { refuseRepeatedHeaders } from './repeated-headers.ts';
import { matchRoute } from './router.ts';
import { parseScenarioConfig, Scenarios, type ScenarioConfig } from './scenarios.ts';
import {
  SESSION_HEADER,
  SESSION_JOURNAL_SIZE,
  SESSION_MAX_TASKS,
  SessionRegistry,
  createSessionRouting,
  type SessionOptions,
} from './sessions.ts';
import type { OperationId } from '../spec/index.ts';
import {
  createMemoryStorage,
  StorageConflictError,
  StorageUnavailableError,
  StorageWriteError,
  type Storage,
} from './storage.ts';
import { AgentStore, DEFAULT_FAILURE_RATIO } from './store.ts';

/** The seed used when none is given (MOCK_SEED). */
export const DEFAULT_SEED = 42;
/** Path prefix of the control plane. */
export const CONTROL_PREFIX = '/__mock/';

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
  logger?: Logger;
  /** Waits a scenario's latency (default a timer); a test injects one that records instead of waiting. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Sessions (mocks/sessions.ts): a request naming one (X-Mock-Session header, mock-session cookie) gets a store, clock,
   * scenarios and journal of its own. Bounds: 100 sessions and 100,000 records by default; `false` or `{ max: 0 }` turns
   * them off (a request naming a session then gets a 400). Sessions live in memory only, whatever `storage` is.
   */
  sessions?: SessionOptions | false;
}

/** The core, as adapters and the control plane use it. */
export interface MockCore {
  /** Answers one request; never throws (a fault becomes a 500 problem). */
  handle(request: MockRequest): Promise<MockResponse>;
  readonly store: AgentStore;
  readonly clock: Clock;
  readonly journal: Journal;
  readonly scenarios: Scenarios;
  /** What the API answered, counted (GET /__mock/coverage); reset only by DELETE /__mock/coverage. */
  readonly coverage: Coverage;
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
  /** Deployed agents, tasks and journal entries held: what counts against the sessions' records bound. */
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
  /** From now on, answers the override's operation with its answer (built and checked by `buildOverride`). */
  setOverride(override: BuiltOverride): void;
  clearOverrides(): void;
}

/** Names of the core's documents in the storage. */
const CLOCK_DOCUMENT = 'clock';
const SCENARIOS_DOCUMENT = 'scenarios';
const COVERAGE_DOCUMENT = 'coverage';

/**
 * Times a request is handled again when a replica sharing the storage changed the same rows first (nothing of the
 * attempt was applied). Past it the answer is the 503 of a change not saved.
 */
const MAX_ATTEMPTS = 8;

const sleepFor = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const isControlPath = (path: string): boolean => path.startsWith(CONTROL_PREFIX) || path === '/__mock';

/** What a session's core shares with the core it belongs to. */
interface SessionParent {
  coverage: Coverage;
  clock: Clock;
}

/**
 * Creates the fake's core.
 * @example
 * const core = createMockCore({ seed: 7 });
 * const response = await core.handle({ method: 'GET', path: '/v1/agents/x', query: '', headers: {}, body: null }); // 401
 */
export function createMockCore(options: MockCoreOptions = {}): MockCore {
  return assembleCore(options, undefined);
}

/** The options a session's core is made with: the fake's own, in memory, on a clock of its own, with smaller bounds. */
function sessionOptions(options: MockCoreOptions, parent: SessionParent): MockCoreOptions {
  const { storage: _storage, sessions: _sessions, ...rest } = options;
  return {
    ...rest,
    clock: createSessionClock(parent.clock),
    journalSize: Math.min(options.journalSize ?? SESSION_JOURNAL_SIZE, SESSION_JOURNAL_SIZE),
    maxTasks: Math.min(options.maxTasks ?? SESSION_MAX_TASKS, SESSION_MAX_TASKS),
    sessions: false,
  };
}

/** A core; with `parent`, the core of one session (it shares the parent's coverage and follows its clock). */
function assembleCore(options: MockCoreOptions, parent: SessionParent | undefined): MockCore {
  const seed = typeof options.seed === 'string' ? seedFromText(options.seed) : (options.seed ?? DEFAULT_SEED);
  const clock = options.clock ?? (options.followFakeTimers ? createRunnerClock() : createSystemClock());
  const overrides = new Map<OperationId, BuiltOverride['response']>();
  const logger = options.logger ?? consoleLogger;
  const corsOrigins = options.corsOrigins ?? '*';
  const storage = options.storage ?? createMemoryStorage();
  const scenarios = new Scenarios(seed, { taskFailureRatio: options.failureRatio ?? DEFAULT_FAILURE_RATIO });
  const store = new AgentStore({
    seed,
    clock,
    storage,
    failureRatio: () => scenarios.taskFailureRatio,
    ...(options.catalogueSize !== undefined && { catalogueSize: options.catalogueSize }),
    ...(options.maxTasks !== undefined && { maxTasks: options.maxTasks }),
    ...(options.maxAgents !== undefined && { maxAgents: options.maxAgents }),
  });
  const journal = new Journal(options.journalSize ?? DEFAULT_JOURNAL_SIZE);
  const authenticator: Authenticator = createAuthenticator(options.jwtSecret ?? DEFAULT_JWT_SECRET, options.wallClock);
  const coverage = parent?.coverage ?? new Coverage();
  const savedCoverage = parent ? undefined : storage.readDocument(COVERAGE_DOCUMENT);
  if (savedCoverage !== undefined) coverage.restore(savedCoverage);
  let coverageWritten = coverage.changes;
  // The counts ride along with a batch that is written anyway (a mutation, DELETE /__mock/coverage, the shutdown's):
  // a write per GET would make every read a write.
  const persist = (): Promise<void> => {
    if (storage.durable && coverage.changes !== coverageWritten) {
      storage.writeDocument(COVERAGE_DOCUMENT, coverage.toJSON());
      coverageWritten = coverage.changes;
    }
    return storage.commit();
  };

  // Durable storage was checked when it was opened; what it holds wins over the options (a restart resumes).
  const savedScenarios = (): ScenarioConfig | undefined => {
    const saved = storage.readDocument(SCENARIOS_DOCUMENT);
    return saved === undefined ? undefined : parseScenarioConfig(saved).config;
  };
  const savedClock = storage.readDocument(CLOCK_DOCUMENT);
  if (typeof savedClock === 'number' && savedClock > clock.offset) clock.advance(savedClock - clock.offset);
  scenarios.configure(savedScenarios() ?? options.scenarios ?? {});
  /** The clock offset including advances still being written. */
  let clockTarget = clock.offset;
  storage.onRollback(() => {
    coverageWritten = -1;
    // Only when they differ: configuring restarts the rate-limit window, and another replica's change lands here too.
    const storedScenarios = savedScenarios() ?? {};
    if (JSON.stringify(storedScenarios) !== JSON.stringify(scenarios.config)) scenarios.configure(storedScenarios);
    // A reset of the batch may have moved the clock back; forward is the one way a clock moves, so it is re-advanced.
    const stored = storage.readDocument(CLOCK_DOCUMENT);
    if (typeof stored === 'number' && stored > clock.offset) clock.advance(stored - clock.offset);
    clockTarget = clock.offset;
  });
  // Another replica's reset moves the shared clock back; this one follows it (a rollback never needs to).
  storage.onReplicaChange?.(() => {
    const stored = storage.readDocument(CLOCK_DOCUMENT);
    if (typeof stored !== 'number' || stored >= clock.offset || !clock.reset) return;
    clock.reset();
    if (stored > clock.offset) clock.advance(stored - clock.offset);
    clockTarget = clock.offset;
  });
  const refresh = storage.refresh?.bind(storage);
  /**
   * One attempt: memory first brought up to what other replicas committed (a shared storage only), and a rate limit
   * counted where every replica counts. Nothing is awaited between the count and the scenarios' decision.
   */
  const attempt = async (request: MockRequest, trace: DispatchTrace): Promise<MockResponse> => {
    if (refresh) await refresh();
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
  const dispatchShared = async (request: MockRequest, trace: DispatchTrace): Promise<MockResponse> => {
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

  const dispatchApi = createApiDispatch({
    clock,
    scenarios,
    authenticator,
    services: { store, persist },
    sleep: options.sleep ?? sleepFor,
    overrides,
  });

  function dispatch(request: MockRequest, trace: DispatchTrace): Promise<MockResponse> | MockResponse {
    const repeated = refuseRepeatedHeaders(request);
    if (repeated) return repeated;
    const control = isControlPath(request.path);
    const cors = preflight(corsOrigins, request, control);
    if (cors) return cors;
    if (control) return refuseCrossSite(corsOrigins, request) ?? handleControlRequest(core, request);
    return dispatchApi(request, trace);
  }

  const sessionsOn = parent === undefined && options.sessions !== false && options.sessions?.max !== 0;
  const sessions = sessionsOn
    ? new SessionRegistry<MockCore>(
        {
          create: () => assembleCore(sessionOptions(options, { coverage, clock }), { coverage, clock }),
          records: (session) => session.records,
        },
        options.sessions === false ? {} : options.sessions,
      )
    : undefined;

  // A session's own core answers whatever reaches it: only the default core routes to sessions.
  const routeToSession = parent === undefined ? createSessionRouting(sessions, corsOrigins) : () => undefined;

  const core: MockCore = {
    store,
    clock,
    journal,
    scenarios,
    coverage,
    seed,
    storage,
    sessions,
    session(id) {
      if (!sessions) throw new Error('This core has no sessions (a session of its own, or sessions: false).');
      return sessions.open(id);
    },
    get records() {
      return store.agentCount - store.catalogue.size + store.taskCount + journal.size;
    },
    overrides,
    setOverride({ operation, response }) {
      overrides.set(operation.operationId, response);
    },
    clearOverrides() {
      overrides.clear();
    },
    reset() {
      overrides.clear();
      store.reset();
      scenarios.reset();
      if (storage.durable) storage.writeDocument(SCENARIOS_DOCUMENT, {});
      journal.clear();
      clock.reset?.();
      clockTarget = clock.offset;
      if (storage.durable) storage.writeDocument(CLOCK_DOCUMENT, clock.offset);
    },
    persist,
    async advanceClock(ms) {
      // Written first and applied once durable: the clock cannot run backwards, so it is never moved on a failed write.
      // From the clock as it is now too: a test may have moved an injected clock directly.
      clockTarget = Math.max(clockTarget, clock.offset) + Math.max(0, ms);
      const target = clockTarget;
      if (storage.durable) storage.writeDocument(CLOCK_DOCUMENT, target);
      await persist();
      if (target > clock.offset) clock.advance(target - clock.offset);
      store.settle();
    },
    async configureScenarios(config) {
      const parsed = parseScenarioConfig(config);
      if (parsed.errors.length > 0) throw new MockInputError('The scenarios', parsed.errors);
      scenarios.configure(parsed.config);
      if (storage.durable) storage.writeDocument(SCENARIOS_DOCUMENT, parsed.config);
      await persist();
    },
    handle(request) {
      // The default session pays two property reads for sessions: no header and no cookie means no lookup at all.
      const named =
        request.headers[SESSION_HEADER] !== undefined || request.headers.cookie !== undefined
          ? routeToSession(request)
          : undefined;
      return named ?? answer(request);
    },
  };

  async function answer(request: MockRequest): Promise<MockResponse> {
    const started = performance.now();
    const context: DispatchTrace = { operationId: null, bodyText: null };
    let response: MockResponse;
    try {
      response = await (refresh ? dispatchShared(request, context) : dispatch(request, context));
    } catch (error) {
      if (error instanceof StorageUnavailableError) {
        response = problemResponse('state-not-saved', {
          detail: `The shared state could not be read (${error.message}); nothing was applied, so retrying is safe.`,
          instance: request.path.slice(0, 2048),
        });
      } else if (error instanceof StorageWriteError) {
        response = problemResponse('state-not-saved', {
          detail: `The change could not be saved (${error.message}); nothing of it was applied, so retrying is safe.`,
          instance: request.path.slice(0, 2048),
        });
      } else {
        logger.error(
          `${request.method} ${request.path.slice(0, 200)} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        response = problemResponse('internal', {
          detail: 'The fake backend failed to handle the request; its log has the cause.',
          instance: request.path.slice(0, 2048),
        });
      }
    }
    const control = isControlPath(request.path);
    withCors(corsOrigins, request, response, control);
    if (!control) {
      coverage.record(context.operationId, request, response, context.scenario);
      const text = context.bodyText;
      journal.add({
        atMs: clock.now(),
        method: request.method,
        path: journalText(request.path, 2048),
        query: journalText(request.query, 2048),
        operationId: context.operationId,
        status: response.status,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
        body: text === null ? null : journalText(text),
        bodyTruncated: text !== null && text.length > JOURNAL_BODY_LIMIT,
      });
    }
    return response;
  }
  return core;
}
