// msw handlers over the core: one per operation (to compose or override with `server.use(...)`), plus catch-alls that send
// unknown /v1 paths, wrong methods and the /__mock/ control plane to the same core. The `handlers` entry is handlers.ts.
import { http, HttpResponse, type HttpHandler } from 'msw';
import { getOperation, type OperationId, type OperationSpec } from '../../../spec/index.ts';
import { readBoundedBody } from '../../../spec/http/body-reader.ts';
import { createMockCore, type MockCore, type MockCoreOptions } from '../../assembly/mock-core.ts';
import { MAX_BODY_BYTES, type MockRequest } from '../../core/mock-http.ts';
import { mswBase, mswRoute } from './msw-route.ts';
import { operationTable } from '../../operations/operation-table.ts';

export interface MockHandlerOptions extends MockCoreOptions {
  /** Origin (and optional path prefix) of the API, e.g. `https://api.example.com`; default: any origin (`*`). */
  baseUrl?: string;
  /** Serve an existing core (shared with another adapter) instead of creating one. */
  core?: MockCore;
}

/** The handlers of one core: one per operation of the spec (by operationId), the catch-alls, and all in matching order. */
export type MockHandlers = Record<OperationId, HttpHandler> & MockCatchAllHandlers;

/** The handlers beside the per-operation ones. */
export interface MockCatchAllHandlers {
  core: MockCore;
  /** Unknown /v1 paths (404) and wrong methods (405 with Allow). */
  v1CatchAll: HttpHandler;
  /** `/v1` itself (404). */
  v1Root: HttpHandler;
  /** The control plane under /__mock/. */
  controlPlane: HttpHandler;
  /** Every handler above, the per-operation ones first: pass this to setupServer/setupWorker. */
  all: HttpHandler[];
}

/**
 * Translates a fetch Request for the core (the path relative to `prefix`) and the core's answer back to a Response;
 * `override` is the answer of an msw override handler bound to this core, which the core serves and records.
 * @example http.all('*\/v1/*', ({ request }) => answerWithCore(core, request, ''))
 */
export async function answerWithCore(
  core: MockCore,
  request: Request,
  prefix: string,
  override?: MockRequest['override'],
): Promise<HttpResponse<string>> {
  const url = new URL(request.url);
  const path =
    prefix !== '' && url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) || '/' : url.pathname;
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // In the browser the app's own page is the one calling: an Origin naming it is the page itself, not another site
  // (the core records no request of another site), whatever host it is served from.
  if (headers.origin !== undefined && headers.origin === globalThis.location?.origin) delete headers.origin;
  const read = await readBoundedBody(request, MAX_BODY_BYTES);
  const mockRequest: MockRequest = {
    method: request.method.toUpperCase(),
    path,
    query: url.search.slice(1),
    headers,
    body: read.tooLarge ? null : read.bytes,
    ...(read.tooLarge && { bodyTooLarge: true }),
    ...(override !== undefined && { override }),
  };
  const response = await core.handle(mockRequest);
  // HEAD is answered as GET is (RFC 9110), headers and all, without the body.
  return new HttpResponse(response.body === '' || mockRequest.method === 'HEAD' ? null : response.body, {
    status: response.status,
    headers: response.headers,
  });
}

/**
 * Handlers over a new (or the given) core.
 * @example
 * const { all, core } = createHandlers({ seed: 7, baseUrl: 'https://api.example.com' });
 * const server = setupServer(...all);
 */
export function createHandlers(options: MockHandlerOptions = {}): MockHandlers {
  const core = options.core ?? createMockCore(options);
  const base = mswBase(options.baseUrl);
  const prefix = options.baseUrl ? new URL(base).pathname.replace(/\/+$/, '') : '';
  const resolver = ({ request }: { request: Request }): Promise<HttpResponse<string>> =>
    answerWithCore(core, request, prefix);
  const perOperation = operationRoutes().map(({ operationId, method, path }) => {
    const route = mswRoute({ method, path }, base);
    return [operationId, http[route.method](route.url, resolver)] as const;
  });
  // `/v1/*` does not match `/v1` itself.
  const v1CatchAll = http.all(`${base}/v1/*`, resolver);
  const v1Root = http.all(`${base}/v1`, resolver);
  const controlPlane = http.all(`${base}/__mock/*`, resolver);
  // Built from the table's keys, which `satisfies OperationTable` ties to the spec's operationIds.
  const byOperation = Object.fromEntries(perOperation) as Record<OperationId, HttpHandler>;
  return {
    ...byOperation,
    core,
    v1CatchAll,
    v1Root,
    controlPlane,
    all: [...perOperation.map(([, handler]) => handler), v1CatchAll, v1Root, controlPlane],
  };
}

/**
 * The operations of the table, paths with more literal segments first, so an override of `/v1/agents/deploy` is not
 * shadowed by `/v1/agents/:agentId`.
 */
function operationRoutes(): OperationSpec[] {
  const literalSegments = (path: string): number => path.split('/').filter((s) => !s.startsWith('{')).length;
  return (Object.keys(operationTable) as OperationId[])
    .map((operationId) => getOperation(operationId))
    .sort((a, b) => literalSegments(b.path) - literalSegments(a.path));
}
