// The generic path of every /v1 request, driven by the spec: route, scenarios, auth, Prefer, parameters, body, handler.
import {
  parameterReader,
  takesJsonBody,
  validateRequestBody,
  type OperationId,
  type ParameterError,
} from '../../spec/index.ts';
import { bearerChallenge, type Authenticator, type AuthResult } from './request/auth.ts';
import type { Clock } from '../domain/clock.ts';
import { documentedResponse } from './documented-response.ts';
import type { MockRequest, MockResponse } from './mock-http.ts';
import type { OperationHandler, OperationRequest, OperationServices, OperationTable } from './operation-handler.ts';
import { overrideAnswer, type OverrideResponse } from './steering/overrides.ts';
import { parsePrefer, preferredResponse } from './request/prefer.ts';
import { problemResponse } from './problems.ts';
import { JOURNAL_BODY_LIMIT } from './steering/journal.ts';
import { readJsonBody } from './request/request-body.ts';
import { matchRoute } from './router.ts';
import type { ScenarioDecision, Scenarios } from './steering/scenarios.ts';

/** What the dispatch learnt about a request, for the journal. */
export interface DispatchTrace {
  operationId: OperationId | null;
  bodyText: string | null;
  /** What the scenarios decided, when any is active (coverage counts forced answers apart). */
  scenario?: ScenarioDecision;
  /** Set when a test's override or a scenario answered in the operation's place (a pact's provider state says so). */
  forced?: boolean;
  /** What answered in the operation's place, for the journal: an override, an msw override handler, a scenario. */
  forcedBy?: 'override' | 'overrideHandler' | 'scenario';
  /** The path parameters, decoded and valid, once the request reached its operation (a pact's provider state reads them). */
  params?: Record<string, string>;
}

/** What the dispatch needs of the core. */
export interface ApiDispatchDependencies {
  clock: Clock;
  scenarios: Scenarios;
  authenticator: Authenticator;
  services: OperationServices;
  /** The operations' handlers, plugged in where the fake is assembled (mocks/operations/operation-table.ts). */
  operations: OperationTable;
  /** Waits a scenario's latency; injected so tests can see it without waiting. */
  sleep: (ms: number) => Promise<void>;
  /** Answers a test set for operations (checked against the spec when set); empty on the hot path. */
  overrides: ReadonlyMap<OperationId, OverrideResponse>;
  /** Told each time an override of `overrides` answered; true when that changed it (one set for a number of times). */
  overrideUsed?: (operationId: OperationId) => boolean;
}

const textDecoder = new TextDecoder();

/** The body text of a request an override answers (the journal keeps what the app sent either way). */
function sentText(request: MockRequest, operationId: OperationId): string | null {
  if (request.body === null || !takesJsonBody(operationId)) return null;
  return textDecoder.decode(request.body.subarray(0, JOURNAL_BODY_LIMIT * 4 + 4));
}

/** A request's answer: at once when nothing on its path waits, else a promise of it. */
export type Answer = MockResponse | Promise<MockResponse>;

/**
 * Creates the dispatch of /v1 requests over the operation table. It answers synchronously unless something on the path
 * has to wait (a scenario's latency, the first check of a token, a durable write), so the common request allocates no
 * promise and queues no microtask.
 * @example const dispatch = createApiDispatch({ clock, scenarios, authenticator, services, operations: operationTable, sleep }); await dispatch(request, trace);
 */
export function createApiDispatch(
  dependencies: ApiDispatchDependencies,
): (request: MockRequest, trace: DispatchTrace) => Answer {
  const { clock, scenarios, authenticator, services, sleep, overrides, operations } = dependencies;
  return function dispatch(request, trace) {
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
    trace.operationId = operationId;
    // A test's override answers the route as an msw `server.use` handler would, before auth and scenarios; an msw
    // override handler bound to this core hands its answer in with the request, and is answered the same way.
    const handed = request.override?.operationId === operationId ? request.override : undefined;
    if (handed || overrides.size > 0) {
      const overridden = handed?.response ?? overrides.get(operationId);
      if (overridden) {
        trace.forced = true;
        trace.forcedBy = handed ? 'overrideHandler' : 'override';
        trace.bodyText = sentText(request, operationId);
        const answer = overrideAnswer(overridden, instance);
        // One set for a number of times is a change of state once used: acknowledged as any other change is.
        return !handed && dependencies.overrideUsed?.(operationId) === true ? services.acknowledge(answer) : answer;
      }
    }
    if (scenarios.active) return afterScenarios(request, operationId, route.params, trace);
    return authenticated(request, operationId, route.params, trace);
  };

  /** Scenarios may wait (latency) or answer in the operation's place; otherwise the request goes on to auth. */
  async function afterScenarios(
    request: MockRequest,
    operationId: OperationId,
    rawParams: Record<string, string>,
    trace: DispatchTrace,
  ): Promise<MockResponse> {
    const now = clock.now();
    const decision = scenarios.decide(operationId, now);
    // Read at once: another request may move the rate-limit window while this one waits.
    const limitHeaders = scenarios.rateLimitHeaders(now);
    const forced = await applyScenarios(operationId, request.path, trace, decision);
    if (forced) {
      trace.forced = true;
      trace.forcedBy = 'scenario';
    }
    const answer = forced ?? (await authenticated(request, operationId, rawParams, trace));
    // While a rate limit is on, every answer says where the window stands (the spec's RateLimit-* headers).
    if (limitHeaders) Object.assign(answer.headers, limitHeaders);
    return answer;
  }

  /** The last accepted Authorization header is known at once; any other is verified (a promise: WebCrypto). */
  function authenticated(
    request: MockRequest,
    operationId: OperationId,
    rawParams: Record<string, string>,
    trace: DispatchTrace,
  ): Answer {
    const header = request.headers.authorization;
    const known = authenticator.remembered(header);
    if (known) return operation(request, operationId, rawParams, known, trace, services, operations);
    return authenticator
      .authenticate(header)
      .then((auth) => operation(request, operationId, rawParams, auth, trace, services, operations));
  }

  async function applyScenarios(
    operationId: OperationId,
    instance: string,
    trace: DispatchTrace,
    decision: ScenarioDecision,
  ): Promise<MockResponse | undefined> {
    trace.scenario = decision;
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
      return documentedResponse(operationId, decision.errorStatus, instance, 'a scenario');
    return undefined;
  }
}

/** The rest of the path once the caller is known: 401, Prefer, parameters, body, then the operation's handler. */
function operation(
  request: MockRequest,
  operationId: OperationId,
  rawParams: Record<string, string>,
  auth: AuthResult,
  trace: DispatchTrace,
  services: OperationServices,
  operations: OperationTable,
): Answer {
  const instance = request.path;
  if (!auth.ok) {
    return problemResponse('unauthorized', {
      detail: auth.detail,
      instance,
      headers: { 'www-authenticate': bearerChallenge(auth) },
    });
  }
  const preference = parsePrefer(request.headers.prefer);
  const preferred = preference && preferredResponse(operationId, preference, instance);
  if (preferred) return preferred;
  // Every declared parameter (path, query, header, cookie), read by its style, validated and defaulted.
  const parameters = parameterReader(operationId)({ path: rawParams, query: request.query, headers: request.headers });
  if (!parameters.ok) return parameterProblem(parameters.errors, instance);
  const read = parameters.value;
  trace.params = read.path as Record<string, string>;
  let body: unknown;
  if (takesJsonBody(operationId)) {
    const parsed = readJsonBody(request);
    trace.bodyText = parsed.text;
    if (!parsed.ok) return parsed.response;
    // The body was just parsed from this request and nothing else holds it: validate it in place, without a clone.
    const validated = validateRequestBody(operationId, parsed.value, { clone: false });
    if (!validated.ok) {
      const count = validated.errors.length;
      return problemResponse('validation', {
        detail: `The request body breaks the schema in ${count} place${count === 1 ? '' : 's'}.`,
        instance,
        errors: validated.errors,
      });
    }
    body = validated.value;
  }
  // The table pairs each operationId with its own handler; TypeScript cannot follow that through a union-typed key,
  // so the request is built once for the union (its parts were checked against this operation's schemas above).
  const handler = operations[operationId].handle as OperationHandler<OperationId>;
  const operationRequest = {
    params: read.path,
    query: read.query,
    headers: read.header,
    cookies: read.cookie,
    body,
    caller: auth.sub,
    instance,
  } as OperationRequest<OperationId>;
  return handler(operationRequest, services);
}

/**
 * The documented 400 for parameters that break the spec, each named by its pointer (`/query/limit`); the path's own
 * problem (the spec's InvalidAgentId example) when only path parameters are at fault.
 */
function parameterProblem(errors: readonly ParameterError[], instance: string): MockResponse {
  const names = [...new Set(errors.map((error) => `${error.name} ${error.location}`))];
  const onlyPath = errors.every((error) => error.location === 'path');
  const unreadable = errors.every((error) => error.message === 'is not valid percent-encoding');
  const one = names.length === 1;
  const what = one ? `The ${names[0]} parameter` : `The parameters ${names.join(', ')}`;
  return problemResponse(onlyPath ? 'invalid-parameter' : 'invalid-request-parameter', {
    detail: `${what} ${unreadable ? `${one ? 'is' : 'are'} not valid percent-encoding` : `${one ? 'breaks' : 'break'} the schema`}.`,
    instance,
    errors: errors.map(({ path, message }) => ({ path, message })),
  });
}
