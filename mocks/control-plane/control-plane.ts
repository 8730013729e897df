// The control plane under /__mock/ (documented in mocks/control-plane/control-plane.yaml): routes, query and body validation come from
// that document; each operation is one entry of a table that must cover its operationIds.
import { findOperation, type OperationId, type ValidationError } from '../../spec/index.ts';
import { clockStepProblem, type Clock } from '../domain/clock.ts';
import {
  controlOperations,
  validateBody,
  type ControlOperationId,
  type ControlOperationSpec,
} from '../core/control-document/control-plane-schemas.ts';
import { toControlPlaneTask } from './control-plane-task.ts';
import { journalStream } from './journal-stream.ts';
import type { operations } from '../core/control-document/control-plane-types.generated.ts';
import type { Coverage } from '../core/steering/coverage.ts';
import type { Journal } from '../core/steering/journal.ts';
import { recordedRequests } from '../core/steering/recorded-requests.ts';
import {
  jsonResponse,
  jsonValueResponse,
  noContent,
  partedJsonResponse,
  type MockRequest,
  type MockResponse,
} from '../core/mock-http.ts';
import { problemResponse } from '../core/problems.ts';
import { readJsonBody } from '../core/request/request-body.ts';
import { createRouter } from '../core/router.ts';
import { scenarioErrors, type ScenarioConfig, type Scenarios } from '../core/steering/scenarios.ts';
import { sessionIdProblem, type SessionRegistry, type SessionTarget } from '../core/sessions/sessions.ts';
import { buildOverrideFrom, OverrideError, overrideFieldPath, type BuiltOverride } from '../core/steering/overrides.ts';
import type { AgentStore, SeedOutcome } from '../state/store/store.ts';
import { MockInputError } from '../domain/input-error.ts';
import type { PactLog } from '../pact-export/pact-log.ts';
import { applyStateChange, type StateChange } from '../pact-export/provider-state.ts';

/** What the control plane may use of the core: a narrow view, so it depends on no module that imports it. */
export interface ControlPlaneHost {
  readonly seed: number;
  readonly store: Pick<
    AgentStore,
    | 'agentCount'
    | 'taskCount'
    | 'maxTasks'
    | 'list'
    | 'setStatus'
    | 'findTask'
    | 'listTasks'
    | 'getJson'
    | 'seedAgent'
    | 'seedTask'
    | 'statusOf'
  >;
  readonly clock: Pick<Clock, 'now' | 'offset'>;
  readonly journal: Pick<Journal, 'capacity' | 'entries' | 'entriesAfter' | 'clear' | 'subscribe'>;
  readonly coverage: Pick<Coverage, 'report' | 'reset'>;
  /** The exchanges a pact is written from (shared by every session). */
  readonly pact: Pick<PactLog, 'parts' | 'clear'>;
  readonly scenarios: Pick<Scenarios, 'config' | 'taskFailureRatio'>;
  /** Back to the seed. */
  reset(): void;
  /** Resolves once a mutation is durable. */
  persist(): Promise<void>;
  /** Moves the mock's clock forward once durable, and settles the tasks that finished meanwhile. */
  advanceClock(ms: number): Promise<void>;
  /** Replaces the scenarios once durable. */
  configureScenarios(config: ScenarioConfig): Promise<void>;
  /** The live sessions; undefined when sessions are off (and in a session's own core). */
  readonly sessions?: Pick<SessionRegistry<ControlledSession>, 'max' | 'maxRecords' | 'list' | 'get' | 'delete'>;
  /** The answers overrides give now, by operation. */
  readonly overrides: ReadonlyMap<string, { status: number }>;
  /** Answers an operation with a built (and, unless asked not to, checked) override until reset. */
  setOverride(override: BuiltOverride): Promise<void>;
  clearOverrides(): Promise<void>;
  /** Removes one operation's override; false when it had none. */
  removeOverride(operationId: OperationId): Promise<boolean>;
}

/** What the control plane uses of a session's core. */
type ControlledSession = SessionTarget & { readonly store: Pick<AgentStore, 'agentCount'> };

type Query<K extends ControlOperationId> = operations[K]['parameters'] extends { query?: infer Q }
  ? [Q] extends [undefined]
    ? Record<string, never>
    : NonNullable<Q>
  : Record<string, never>;
type Body<K extends ControlOperationId> = operations[K] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : undefined;

/** A control-plane request whose path, query and body passed mocks/control-plane/control-plane.yaml's schemas. */
interface ControlRequest<K extends ControlOperationId> {
  params: Record<string, string>;
  query: Query<K>;
  body: Body<K>;
  instance: string;
}

type ControlHandler<K extends ControlOperationId> = (
  request: ControlRequest<K>,
  host: ControlPlaneHost,
) => MockResponse | Promise<MockResponse>;

const clockView = (host: ControlPlaneHost): { now: string; offsetMs: number } => ({
  now: new Date(host.clock.now()).toISOString(),
  offsetMs: host.clock.offset,
});
const scenariosView = (host: ControlPlaneHost): ScenarioConfig => ({
  ...host.scenarios.config,
  taskFailureRatio: host.scenarios.taskFailureRatio,
});

/** The 400 for a session id no request could name (the path's pattern, checked here as the header's is). */
function badSessionId(id: string, instance: string): MockResponse | undefined {
  const problem = sessionIdProblem(id);
  if (problem === undefined) return undefined;
  return problemResponse('bad-request', {
    detail: `The session id ${problem}.`,
    instance,
    errors: [{ path: '/path/sessionId', message: problem }],
  });
}

const sessionsAreOff = (instance: string): MockResponse =>
  problemResponse('not-found', { detail: 'This fake runs without sessions (--max-sessions 0).', instance });
const SEED_REFUSALS = { 400: 'validation', 404: 'agent-not-found', 409: 'agent-not-active' } as const;

/** A seeding call's answer: 201 with the stored record once durable, or the problem naming each bad field. */
async function seededResponse<T>(
  outcome: SeedOutcome<T>,
  instance: string,
  host: ControlPlaneHost,
): Promise<MockResponse> {
  if (!outcome.ok) {
    const { errors } = outcome;
    return problemResponse(SEED_REFUSALS[outcome.status], {
      detail: `The seed is refused: ${errors.map((e) => `${e.path || '(the body)'} ${e.message}`).join('; ')}.`,
      instance,
      errors,
    });
  }
  await host.persist();
  return jsonValueResponse(201, outcome.value);
}

/** Every operation of mocks/control-plane/control-plane.yaml: one missing is a type error. */
const controlHandlers = {
  mockHealth: (_request, host) =>
    jsonValueResponse(200, {
      status: 'ok',
      seed: host.seed,
      agents: host.store.agentCount,
      tasks: host.store.taskCount,
    }),
  mockReset: async (_request, host) => {
    host.reset();
    await host.persist();
    return jsonValueResponse(200, { seed: host.seed, agents: host.store.agentCount });
  },
  mockListAgents: ({ query }, host) => {
    const offset = query.offset ?? 0;
    const limit = query.limit ?? 100;
    const page = host.store.list({ offset, limit, ...(query.status !== undefined && { status: query.status }) });
    return jsonValueResponse(200, { total: page.total, offset, limit, agents: page.agents });
  },
  mockGetAgent: ({ params, instance }, host) => {
    const agentId = params.agentId ?? '';
    const json = host.store.getJson(agentId);
    if (json === undefined)
      return problemResponse('agent-not-found', { detail: `No agent has the id ${agentId.slice(0, 200)}.`, instance });
    return jsonResponse(200, json);
  },
  mockListTasks: ({ query }, host) =>
    jsonValueResponse(200, {
      now: new Date(host.clock.now()).toISOString(),
      tasks: host.store.listTasks(query.limit ?? 100, query.agentId).map(toControlPlaneTask),
    }),
  mockListOverrides: (_request, host) =>
    jsonValueResponse(200, {
      overrides: [...host.overrides].map(([operationId, { status }]) => ({ operationId, status })),
    }),
  mockSetAgentStatus: async ({ params, body, instance }, host) => {
    const agentId = params.agentId ?? '';
    const agent = host.store.setStatus(agentId, body.status);
    if (!agent) return problemResponse('agent-not-found', { detail: `No agent has the id ${agentId}.`, instance });
    await host.persist();
    return jsonValueResponse(200, agent);
  },
  mockCreateAgent: ({ body, instance }, host) => seededResponse(host.store.seedAgent(body), instance, host),
  mockCreateTask: ({ body, instance }, host) => {
    const seeded = host.store.seedTask(body);
    return seededResponse(seeded.ok ? { ok: true, value: toControlPlaneTask(seeded.value) } : seeded, instance, host);
  },
  mockSetOverride: async ({ body, instance }, host) => {
    try {
      const built = buildOverrideFrom(body);
      await host.setOverride(built);
      return jsonValueResponse(200, { operationId: built.operation.operationId, status: body.status });
    } catch (error) {
      if (!(error instanceof OverrideError)) throw error;
      return problemResponse('validation', {
        detail: `${error.message}.`,
        instance,
        errors: error.problems.map((problem) => ({
          path: overrideFieldPath(problem),
          message: `${problem.message} (rule ${problem.rule} at ${problem.specPointer})`,
          rule: problem.rule,
          specPointer: problem.specPointer,
        })),
      });
    }
  },
  mockClearOverrides: async (_request, host) => {
    await host.clearOverrides();
    return noContent();
  },
  mockRemoveOverride: async ({ params, instance }, host) => {
    // Idempotent as DELETE is: an operation without an override is already as asked; a name no operation has is a 404.
    const operationId = params.operationId ?? '';
    const operation = findOperation(operationId);
    if (operation?.operationId !== operationId)
      return problemResponse('not-found', { detail: `No operation of the spec is named ${operationId}.`, instance });
    await host.removeOverride(operation.operationId);
    return noContent();
  },
  mockGetTask: ({ params, instance }, host) => {
    const task = host.store.findTask(params.taskId ?? '');
    if (!task)
      return problemResponse('task-not-found', {
        detail: `No task has the id ${params.taskId ?? ''} (the history keeps the last ${host.store.maxTasks}).`,
        instance,
      });
    return jsonValueResponse(200, toControlPlaneTask(task));
  },
  mockGetClock: (_request, host) => jsonValueResponse(200, clockView(host)),
  mockAdvanceClock: async ({ body, instance }, host) => {
    const problem = clockStepProblem(body.seconds * 1000, host.clock.offset);
    if (problem !== undefined)
      return problemResponse('bad-request', {
        detail: `/seconds ${problem}.`,
        instance,
        errors: [{ path: '/seconds', message: problem }],
      });
    await host.advanceClock(body.seconds * 1000);
    return jsonValueResponse(200, clockView(host));
  },
  mockGetJournal: ({ query }, host) => {
    const limit = Math.min(query.limit ?? host.journal.capacity, host.journal.capacity);
    return jsonValueResponse(200, { capacity: host.journal.capacity, entries: host.journal.entries(limit) });
  },
  mockStreamJournal: ({ query }, host) => journalStream(host.journal, query.after ?? 0),
  mockListRequests: ({ query, instance }, host) => {
    // The schema requires a non-empty text; which texts name an operation, the spec's operations say.
    const name: unknown = query.operation;
    const operation = typeof name === 'string' ? findOperation(name) : undefined;
    if (!operation) {
      const message = 'is neither an operationId nor a METHOD /path of spec/openapi.yaml';
      return problemResponse('bad-request', {
        detail: `The operation ${JSON.stringify(String(name ?? '').slice(0, 200))} ${message}.`,
        instance,
        errors: [{ path: '/query/operation', message }],
      });
    }
    const requests = recordedRequests(host.journal.entriesAfter(query.after ?? 0), operation.operationId);
    return jsonValueResponse(200, { requests });
  },
  mockClearJournal: (_request, host) => {
    host.journal.clear();
    return noContent();
  },
  mockGetCoverage: (_request, host) => jsonValueResponse(200, host.coverage.report()),
  mockClearCoverage: async (_request, host) => {
    host.coverage.reset();
    await host.persist();
    return noContent();
  },
  mockGetPact: async ({ query }, host) =>
    partedJsonResponse(
      200,
      await host.pact.parts({
        consumer: query.consumer,
        provider: query.provider,
        pactSpecification: query.version ?? 4,
      }),
    ),
  mockClearPact: (_request, host) => {
    host.pact.clear();
    return noContent();
  },
  mockChangeProviderState: async ({ body, instance }, host) => {
    try {
      return jsonValueResponse(200, await applyStateChange(host, body as StateChange));
    } catch (error) {
      if (!(error instanceof MockInputError)) throw error;
      return problemResponse('validation', { detail: error.message, instance, errors: error.errors });
    }
  },
  mockGetScenarios: (_request, host) => jsonValueResponse(200, scenariosView(host)),
  mockSetScenarios: async ({ body }, host) => {
    await host.configureScenarios(body as ScenarioConfig);
    return jsonValueResponse(200, scenariosView(host));
  },
  mockClearScenarios: async (_request, host) => {
    await host.configureScenarios({});
    return noContent();
  },
  mockListSessions: (_request, host) => {
    const sessions = host.sessions?.list() ?? [];
    return jsonValueResponse(200, {
      max: host.sessions?.max ?? 0,
      maxRecords: host.sessions?.maxRecords ?? 0,
      records: sessions.reduce((sum, session) => sum + session.records, 0),
      sessions,
    });
  },
  mockDeleteSession: ({ params, instance }, host) => {
    const id = params.sessionId ?? '';
    const bad = badSessionId(id, instance);
    if (bad) return bad;
    if (!host.sessions) return sessionsAreOff(instance);
    if (host.sessions.delete(id)) return noContent();
    return problemResponse('not-found', { detail: `No session ${id} is live (never used, or evicted).`, instance });
  },
  mockResetSession: async ({ params, instance }, host) => {
    const id = params.sessionId ?? '';
    const bad = badSessionId(id, instance);
    if (bad) return bad;
    if (!host.sessions) return sessionsAreOff(instance);
    // A session that is not live is started here: the answer reports the state its next request will see.
    const session = host.sessions.get(id);
    session.reset();
    await session.persist();
    return jsonValueResponse(200, { seed: host.seed, agents: session.store.agentCount });
  },
} satisfies { [K in ControlOperationId]: ControlHandler<K> };

/** Body rules the schema cannot state, checked beside it so a refusal lists every reason at once. */
const bodyChecks: Partial<Record<ControlOperationId, (body: unknown) => ValidationError[]>> = {
  mockSetScenarios: scenarioErrors,
};

const router = createRouter<ControlOperationSpec>(
  controlOperations.map((operation) => ({ method: operation.method, path: operation.path, target: operation })),
);

/**
 * Answers a request under /__mock/.
 * @example await handleControlRequest(core, { method: 'POST', path: '/__mock/reset', query: '', headers: {}, body: null })
 */
export async function handleControlRequest(host: ControlPlaneHost, request: MockRequest): Promise<MockResponse> {
  const instance = request.path.slice(0, 2048);
  const match = router.match(request.method, request.path);
  if (match.kind === 'none') {
    return problemResponse('not-found', {
      detail: `The control plane has no ${request.path.slice(0, 200)}; see mocks/control-plane/control-plane.yaml.`,
      instance,
    });
  }
  if (match.kind === 'wrong-method') {
    return problemResponse('method-not-allowed', {
      detail: `${request.method} is not allowed here; use ${match.allow.join(', ')}.`,
      instance,
      headers: { allow: match.allow.join(', ') },
    });
  }
  const operation = match.target;
  const parameters = operation.readParameters({ path: match.params, query: request.query, headers: request.headers });
  if (!parameters.ok) {
    const { errors } = parameters;
    const onlyPath = errors.every((error) => error.location === 'path');
    return problemResponse(onlyPath ? 'invalid-parameter' : 'bad-request', {
      detail: `The ${onlyPath ? 'path' : 'query'} breaks the schema: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}.`,
      instance,
      errors: errors.map(({ path, message }) => ({ path, message })),
    });
  }
  const params = parameters.value.path as Record<string, string>;
  let body: unknown;
  if (operation.validateBody) {
    const parsed = readJsonBody(request);
    if (!parsed.ok) return parsed.response;
    const validated = validateBody(operation, parsed.value);
    const errors = [
      ...(validated.ok ? [] : validated.errors),
      ...(bodyChecks[operation.operationId]?.(parsed.value) ?? []),
    ];
    if (errors.length > 0) {
      return problemResponse('validation', {
        detail: `The body breaks the schema in ${errors.length} place${errors.length === 1 ? '' : 's'}: ${errors.map((e) => `${e.path || '(the body)'} ${e.message}`).join('; ')}.`,
        instance,
        errors,
      });
    }
    body = parsed.value;
  }
  // Each operationId keys its own handler; the request parts were validated against that operation's schemas above.
  const handler = controlHandlers[operation.operationId] as ControlHandler<ControlOperationId>;
  return handler({ params, query: parameters.value.query, body, instance } as ControlRequest<ControlOperationId>, host);
}
