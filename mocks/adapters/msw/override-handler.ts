// Typed, spec-checked msw handlers that answer one operation with a chosen status and body: pass them to
// `server.use(...)` or `worker.use(...)`; the route comes from the spec's path template, so a typo cannot miss.
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { DocumentedStatus, OperationKey, OperationOf } from '../../../spec/index.ts';
import { mswBase, mswRoute } from './msw-route.ts';
import {
  buildOverride,
  overrideAnswer,
  type OverrideBody,
  type OverrideOptions,
  type OverrideResponse,
} from '../../core/steering/overrides.ts';

export interface OverrideHandlerOptions extends OverrideOptions {
  /** The same base URL the fake's handlers were given (default: any origin). */
  baseUrl?: string;
  /** Answer only the first matching request (msw's `once`). */
  once?: boolean;
}

function toHandler(
  operation: { method: string; path: string },
  built: OverrideResponse,
  options: OverrideHandlerOptions,
): HttpHandler {
  const route = mswRoute(operation as { method: 'GET'; path: string }, mswBase(options.baseUrl));
  return http[route.method](
    route.url,
    ({ request }) => {
      const response = overrideAnswer(built, new URL(request.url).pathname);
      return new HttpResponse(response.body === '' ? null : response.body, {
        status: response.status,
        headers: response.headers,
      });
    },
    { once: options.once === true },
  );
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
  return toHandler(built.operation, built.response, options);
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
  return toHandler(built.operation, built.response, options);
}
