// The one implementation of the API: routing, auth, validation, scenarios, Prefer, CORS and the three operations over the store.
import {
  getOperation,
  validatePathParameter,
  validateRequestBody,
  type OperationId,
  type RequestBodies,
  type ValidationError,
} from '../spec/index.ts';
import { bearerChallenge, createAuthenticator, DEFAULT_JWT_SECRET, type Authenticator } from './auth.ts';
import { createSystemClock, type Clock } from './clock.ts';
import { handleControlRequest } from './control-plane.ts';
import { Coverage } from './coverage.ts';
import { preflight, refuseCrossSite, withCors, type CorsOrigins } from './cors.ts';
import { DEFAULT_JOURNAL_SIZE, Journal, JOURNAL_BODY_LIMIT, journalText } from './journal.ts';
import { consoleLogger, type Logger } from './logger.ts';
import type { MockRequest, MockResponse } from './mock-http.ts';
import { documentedExamples, parsePrefer, type Preference } from './prefer.ts';
import { problemKindForStatus, problemResponse } from './problems.ts';
import { seedFromText } from './random.ts';
import { refuseRepeatedHeaders } from './repeated-headers.ts';
import { readJsonBody } from './request-body.ts';
import { matchRoute } from './router.ts';
import { parseScenarioConfig, Scenarios, type ScenarioConfig, type ScenarioDecision } from './scenarios.ts';
import { createMemoryStorage, StorageWriteError, type Storage } from './storage.ts';
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
  /** Wall time used to check token expiry (default Date.now). */
  wallClock?: () => number;
  /** Number of seeded agents (default 36). */
  catalogueSize?: number;
  /** Share of tasks that fail (default 0.1). */
  failureRatio?: number;
  /** Bound of the task history (default 10,000). */
  maxTasks?: number;
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
  /** Moves the mock's clock forward, once the new offset is durable (a failed write leaves the clock where it was). */
  advanceClock(ms: number): Promise<void>;
  /** Replaces the scenarios (`{}` clears them) and waits until they are durable. */
  configureScenarios(config: ScenarioConfig): Promise<void>;
}

/** Names of the core's documents in the storage. */
const CLOCK_DOCUMENT = 'clock';
const SCENARIOS_DOCUMENT = 'scenarios';
const COVERAGE_DOCUMENT = 'coverage';

const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const isControlPath = (path: string): boolean => path.startsWith(CONTROL_PREFIX) || path === '/__mock';
const jsonResponse = (status: number, body: string): MockResponse => ({ status, headers: { ...JSON_HEADERS }, body });
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Context {
  request: MockRequest;
  operationId: OperationId;
  params: Record<string, string>;
  sub: string;
}

/**
 * Creates the fake's core.
 * @example
 * const core = createMockCore({ seed: 7 });
 * const response = await core.handle({ method: 'GET', path: '/v1/agents/x', query: '', headers: {}, body: null }); // 401
 */
export function createMockCore(options: MockCoreOptions = {}): MockCore {
  const seed = typeof options.seed === 'string' ? seedFromText(options.seed) : (options.seed ?? DEFAULT_SEED);
  const clock = options.clock ?? createSystemClock();
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
  });
  const journal = new Journal(options.journalSize ?? DEFAULT_JOURNAL_SIZE);
  const authenticator: Authenticator = createAuthenticator(options.jwtSecret ?? DEFAULT_JWT_SECRET, options.wallClock);
  const coverage = new Coverage();
  const savedCoverage = storage.readDocument(COVERAGE_DOCUMENT);
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
    scenarios.configure(savedScenarios() ?? {});
    // A reset of the batch may have moved the clock back; forward is the one way a clock moves, so it is re-advanced.
    const stored = storage.readDocument(CLOCK_DOCUMENT);
    if (typeof stored === 'number' && stored > clock.offset) clock.advance(stored - clock.offset);
    clockTarget = clock.offset;
  });

  async function dispatch(
    request: MockRequest,
    context: { operationId: OperationId | null; bodyText: string | null; scenario?: ScenarioDecision },
  ): Promise<MockResponse> {
    const repeated = refuseRepeatedHeaders(request);
    if (repeated) return repeated;
    const control = isControlPath(request.path);
    const cors = preflight(corsOrigins, request, control);
    if (cors) return cors;
    if (control) return refuseCrossSite(corsOrigins, request) ?? handleControlRequest(core, request);
    const instance = request.path;
    const route = matchRoute(request.method, request.path);
    if (route.kind === 'none') {
      return problemResponse('not-found', {
        detail: `No operation has the path ${request.path.slice(0, 200)}; see spec/openapi.yaml.`,
        instance: instance.slice(0, 2048),
      });
    }
    if (route.kind === 'wrong-method') {
      const allow = route.allow.join(', ');
      return problemResponse('method-not-allowed', {
        detail: `${request.method} is not allowed on this path; use ${allow}.`,
        instance,
        headers: { allow },
      });
    }
    const operationId = route.operationId;
    context.operationId = operationId;

    if (scenarios.active) {
      const decision = scenarios.decide(operationId, clock.now());
      context.scenario = decision;
      if (decision.latencyMs > 0) await sleep(decision.latencyMs);
      if (decision.retryAfterSeconds !== undefined) {
        const limit = scenarios.config.rateLimit;
        return problemResponse('rate-limited', {
          detail: `The rate limit of ${limit?.limit ?? 0} requests per ${limit?.windowSeconds ?? 0} s was exceeded; retry in ${decision.retryAfterSeconds} s.`,
          instance,
          headers: { 'retry-after': String(decision.retryAfterSeconds) },
        });
      }
      if (decision.errorStatus !== undefined)
        return forcedError(operationId, decision.errorStatus, instance, 'a scenario');
    }

    const auth = await authenticator.authenticate(request.headers.authorization);
    if (!auth.ok)
      return problemResponse('unauthorized', {
        detail: auth.detail,
        instance,
        headers: { 'www-authenticate': bearerChallenge(auth) },
      });

    const preference = parsePrefer(request.headers.prefer);
    if (preference) {
      const preferred = preferredResponse(operationId, preference, instance);
      if (preferred) return preferred;
    }

    const params: Record<string, string> = {};
    for (const [name, raw] of Object.entries(route.params)) {
      let value: string;
      try {
        value = decodeURIComponent(raw);
      } catch {
        return problemResponse('invalid-parameter', {
          detail: `The ${name} path parameter is not valid percent-encoding.`,
          instance,
          errors: [{ path: `/path/${name}`, message: 'is not valid percent-encoding' }],
        });
      }
      const checked = validatePathParameter(operationId, name, value);
      if (!checked.ok) {
        return problemResponse('invalid-parameter', {
          detail: `The ${name} path parameter breaks the schema.`,
          instance,
          errors: checked.errors,
        });
      }
      params[name] = value;
    }

    const ctx: Context = { request, operationId, params, sub: auth.sub };
    switch (operationId) {
      case 'getAgent':
        return getAgent(ctx);
      case 'deployAgent':
      case 'executeAgentTask': {
        const parsed = readJsonBody(request);
        context.bodyText = parsed.text;
        if (!parsed.ok) return parsed.response;
        // The body was just parsed from this request and nothing else holds it: validate it in place, without a clone.
        if (operationId === 'deployAgent') {
          const validated = validateRequestBody('deployAgent', parsed.value, { clone: false });
          return validated.ok ? deployAgent(ctx, validated.value) : invalidBody(validated.errors, instance);
        }
        const validated = validateRequestBody('executeAgentTask', parsed.value, { clone: false });
        return validated.ok ? executeAgentTask(ctx, validated.value) : invalidBody(validated.errors, instance);
      }
    }
  }

  function invalidBody(errors: ValidationError[], instance: string): MockResponse {
    const count = errors.length;
    return problemResponse('validation', {
      detail: `The request body breaks the schema in ${count} place${count === 1 ? '' : 's'}.`,
      instance,
      errors,
    });
  }

  function getAgent(ctx: Context): MockResponse {
    const agentId = ctx.params.agentId ?? '';
    const json = store.getJson(agentId);
    if (json === undefined) return agentNotFound(agentId, ctx.request.path);
    return jsonResponse(200, json);
  }

  async function deployAgent(ctx: Context, body: RequestBodies['deployAgent']): Promise<MockResponse> {
    const result = store.deploy(body, ctx.sub);
    await persist();
    const response = jsonResponse(201, JSON.stringify(result));
    response.headers.location = `/v1/agents/${encodeURIComponent(result.agentId)}`;
    return response;
  }

  async function executeAgentTask(ctx: Context, body: RequestBodies['executeAgentTask']): Promise<MockResponse> {
    const agentId = ctx.params.agentId ?? '';
    const result = store.submitTask(agentId, body);
    if (!result.ok) {
      if (result.reason === 'agent-not-found') return agentNotFound(agentId, ctx.request.path);
      return problemResponse('agent-not-active', {
        detail: `Agent ${agentId} is ${result.status}; only active agents accept tasks.`,
        instance: ctx.request.path,
      });
    }
    await persist();
    return jsonResponse(200, JSON.stringify(result.submission));
  }

  function agentNotFound(agentId: string, instance: string): MockResponse {
    return problemResponse('agent-not-found', { detail: `No agent has the id ${agentId}.`, instance });
  }

  /** A documented error status answered on purpose: the spec's example when it has one, else the catalogue's problem. */
  function forcedError(
    operationId: OperationId,
    status: number,
    instance: string,
    why: string,
    exampleName?: string,
  ): MockResponse {
    const examples = documentedExamples(operationId, status);
    const example = exampleName ? examples.find((e) => e.name === exampleName) : examples[0];
    let response: MockResponse;
    if (example && typeof example.value === 'object' && example.value !== null && !Array.isArray(example.value)) {
      const body = example.mediaType === 'application/problem+json' ? { ...example.value, instance } : example.value;
      response = { status, headers: { 'content-type': example.mediaType }, body: JSON.stringify(body) };
    } else {
      response = problemResponse(problemKindForStatus(status), {
        detail: `Status ${status} was forced by ${why}.`,
        instance,
      });
    }
    if (status === 401) response.headers['www-authenticate'] = 'Bearer realm="agent-registry"';
    if (status === 429) response.headers['retry-after'] = '1';
    return response;
  }

  function preferredResponse(
    operationId: OperationId,
    preference: Preference,
    instance: string,
  ): MockResponse | undefined {
    const documented = [...getOperation(operationId).responses.keys()];
    const success = documented.find((status) => status >= 200 && status < 300) ?? 200;
    const status = preference.code ?? success;
    if (!documented.includes(status)) {
      return problemResponse('bad-request', {
        detail: `Prefer: code=${status} is not a documented status of ${operationId}; use one of ${documented.join(', ')}.`,
        instance,
      });
    }
    if (
      preference.example !== undefined &&
      !documentedExamples(operationId, status).some((e) => e.name === preference.example)
    ) {
      const names = documentedExamples(operationId, status).map((e) => e.name);
      return problemResponse('bad-request', {
        detail: `Prefer: example=${preference.example} is not an example of ${operationId} ${status}; use one of ${names.join(', ') || '(none)'}.`,
        instance,
      });
    }
    // A success status without a named example runs the real operation: the stateful answer is the better one.
    if (status < 300 && preference.example === undefined) return undefined;
    const response = forcedError(operationId, status, instance, 'Prefer', preference.example);
    response.headers['preference-applied'] = [
      preference.code !== undefined && `code=${status}`,
      preference.example !== undefined && `example=${preference.example}`,
    ]
      .filter(Boolean)
      .join(', ');
    return response;
  }

  const core: MockCore = {
    store,
    clock,
    journal,
    scenarios,
    coverage,
    seed,
    storage,
    reset() {
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
      scenarios.configure(config);
      if (storage.durable) storage.writeDocument(SCENARIOS_DOCUMENT, config);
      await persist();
    },
    async handle(request) {
      const started = performance.now();
      const context: { operationId: OperationId | null; bodyText: string | null; scenario?: ScenarioDecision } = {
        operationId: null,
        bodyText: null,
      };
      let response: MockResponse;
      try {
        response = await dispatch(request, context);
      } catch (error) {
        if (error instanceof StorageWriteError) {
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
    },
  };
  return core;
}
