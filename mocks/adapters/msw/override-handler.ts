// Typed, spec-checked msw handlers that answer one operation with a chosen status and body: pass them to
// `server.use(...)` or `worker.use(...)`; the route comes from the spec's path template, so a typo cannot miss.
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { DocumentedStatus, OperationId, OperationKey, OperationOf } from '../../../spec/index.ts';
import type { MockCore } from '../../assembly/mock-core.ts';
import { answerWithCore } from './create-handlers.ts';
import { mswBase, mswRoute } from './msw-route.ts';
import {
  buildOverride,
  overrideAnswer,
  type OverrideBody,
  type OverrideOptions,
  type OverrideResponse,
} from '../../core/steering/overrides.ts';
import type { MockRequest } from '../../core/mock-http.ts';

export interface OverrideHandlerOptions extends OverrideOptions {
  /** The same base URL the fake's handlers were given (default: any origin). */
  baseUrl?: string;
  /** Answer only the first matching request (msw's `once`). */
  once?: boolean;
}

/** How a handler given to `server.use` / `worker.use` of the kit answers: through that fake's core. */
type Binding = (request: Request) => Promise<Response>;

/** The core each override handler answers through, once the kit's server or worker took it in (`bindOverrideHandlers`). */
const bindings = new WeakMap<object, (override: NonNullable<MockRequest['override']>, prefix: string) => Binding>();
/** Every handler `overrideHandler` and `uncheckedOverrideHandler` made (only those are bound). */
const overrideHandlers = new WeakSet<object>();

function toHandler(
  operation: { operationId: OperationId; method: string; path: string },
  built: OverrideResponse,
  options: OverrideHandlerOptions,
): HttpHandler {
  const base = mswBase(options.baseUrl);
  const route = mswRoute(operation as { method: 'GET'; path: string }, base);
  const prefix = options.baseUrl ? new URL(base).pathname.replace(/\/+$/, '') : '';
  // msw's `once` answers one request; `times` counts here, and a spent handler lets the fake's own handlers answer.
  let left = options.times ?? Number.POSITIVE_INFINITY;
  const handler: HttpHandler = http[route.method](
    route.url,
    ({ request }) => {
      if (left <= 0) return undefined;
      left -= 1;
      const bound = bindings.get(handler);
      if (bound) return bound({ operationId: operation.operationId, response: built }, prefix)(request);
      const response = overrideAnswer(built, new URL(request.url).pathname);
      return new HttpResponse(response.body === '' ? null : response.body, {
        status: response.status,
        headers: response.headers,
      });
    },
    { once: options.once === true },
  );
  return handler;
}

/**
 * Makes the override handlers among `handlers` answer through `core`: what `server.use` and `worker.use` of the kit
 * do, so an msw override's answer is in the journal (`requests()`), the coverage and the pact exactly as an
 * `api.override`'s is, marked `forcedBy: 'overrideHandler'`. Other handlers are left as they are. An override handler
 * given to another msw server or worker (Storybook's addon) answers on its own and is recorded nowhere.
 * @example const server = setupServer(...all); bindOverrideHandlers([handler], core); server.use(handler);
 */
export function bindOverrideHandlers(handlers: readonly unknown[], core: MockCore): void {
  for (const handler of handlers)
    if (typeof handler === 'object' && handler !== null && overrideHandlers.has(handler))
      bindings.set(handler, (override, prefix) => (request) => answerWithCore(core, request, prefix, override));
}

/**
 * An msw handler answering an operation (by operationId or `METHOD /path/{template}`) with a status it documents and a
 * body of that status's schema; tsc refuses anything else, and the answer is checked against the spec when built
 * (an OverrideError names each JSON Pointer and rule). Without a body, the spec's example of that status is served.
 * @example
 * server.use(overrideHandler(operationId, 404, undefined, { baseUrl: 'https://api.test' }));
 * server.use(overrideHandler('GET /v1/agents/{agentId}', 200, { ...agent, name: 'Renamed' }));
 */
export function overrideHandler<const Key extends OperationKey, const S extends DocumentedStatus<OperationOf<Key>>>(
  operation: Key,
  status: S,
  body?: OverrideBody<Key, S>,
  options: OverrideHandlerOptions = {},
): HttpHandler {
  const built = buildOverride(operation, status, body, options, true);
  const handler = toHandler(built.operation, built.response, options);
  overrideHandlers.add(handler);
  return handler;
}

/**
 * The escape hatch: an msw handler that serves any status and body on an operation's route, unchecked, for testing how
 * an app copes with a server that breaks the contract.
 * @example server.use(uncheckedOverrideHandler(operationId, 200, { agentId: 42 }));
 */
export function uncheckedOverrideHandler(
  operation: OperationKey,
  status: number,
  body?: unknown,
  options: OverrideHandlerOptions = {},
): HttpHandler {
  const built = buildOverride(operation, status, body, options, false);
  const handler = toHandler(built.operation, built.response, options);
  overrideHandlers.add(handler);
  return handler;
}
