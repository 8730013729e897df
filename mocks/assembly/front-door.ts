// Where a request enters a core: the front door (repeated headers refused, CORS preflights answered, cross-site control
// requests refused, then the control plane or the API) and what a dispatch layer around it is told of a request.
import { preflight, refuseCrossSite, type CorsOrigins } from '../core/request/cors.ts';
import type { MockRequest, MockResponse } from '../core/mock-http.ts';
import type { Dispatch, DispatchContext } from '../core/dispatch-layer.ts';
import { refuseRepeatedHeaders } from '../core/request/repeated-headers.ts';
import { matchRoute } from '../core/router.ts';
import type { Clock } from '../domain/clock.ts';
import type { Scenarios } from '../core/steering/scenarios.ts';
import { getOperation, type OperationId } from '../../spec/index.ts';
import { CONTROL_PREFIX } from '../core/control-prefix.ts';
import { operationTable } from '../operations/operation-table.ts';

/** Whether a path is the control plane's (`/__mock/…`). */
export const isControlPath = (path: string): boolean => path.startsWith(CONTROL_PREFIX) || path === '/__mock';
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

/** What a dispatch layer may use of the core it wraps (DispatchContext). */
export function dispatchContext(scenarios: Scenarios, clock: Clock): DispatchContext {
  return { scenarios, clock, isControlPath, operationOf, readsOf: createReadsOf() };
}

/** The front door: repeated headers refused, CORS preflights answered, cross-site control requests refused. */
export function frontDoor(
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
