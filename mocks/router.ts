// Finds the operation of a request from the spec's own path templates; wrong methods and unknown paths are told apart.
import { operations, type OperationId } from '../spec/index.ts';

interface CompiledRoute {
  operationId: OperationId;
  method: string;
  /** Literal segments as text, parameter segments as null. */
  segments: (string | null)[];
  parameterNames: string[];
}

export type RouteMatch =
  | { kind: 'operation'; operationId: OperationId; params: Record<string, string> }
  | { kind: 'wrong-method'; allow: string[] }
  | { kind: 'none' };

// Compiled once from spec/: adding an operation to the document adds its route.
const ROUTES: readonly CompiledRoute[] = [...operations.values()].map((operation) => ({
  operationId: operation.operationId,
  method: operation.method,
  segments: operation.path.split('/').map((segment) => (segment.startsWith('{') ? null : segment)),
  parameterNames: operation.pathParameters,
}));

/**
 * Matches a percent-encoded pathname. Parameters are returned still encoded: the core decodes and validates them.
 * As OpenAPI says, a concrete path wins over a templated one: `/v1/agents/deploy` is only ever deployAgent (any other
 * method there is 405 with `Allow: POST`), never getAgent with the id `deploy`. HEAD is served wherever GET is (RFC 9110).
 * @example matchRoute('GET', '/v1/agents/agt_1') // { kind: 'operation', operationId: 'getAgent', params: { agentId: 'agt_1' } }
 */
export function matchRoute(method: string, path: string): RouteMatch {
  const parts = path.split('/');
  const lookup = method === 'HEAD' ? 'GET' : method;
  let best: CompiledRoute[] = [];
  let fewest = Number.POSITIVE_INFINITY;
  for (const route of ROUTES) {
    if (route.segments.length !== parts.length || route.parameterNames.length > fewest) continue;
    let matches = true;
    for (let index = 0; index < parts.length; index += 1) {
      const segment = route.segments[index];
      const part = parts[index] ?? '';
      if (segment === null ? part === '' : segment !== part) {
        matches = false;
        break;
      }
    }
    if (!matches) continue;
    if (route.parameterNames.length < fewest) {
      fewest = route.parameterNames.length;
      best = [];
    }
    best.push(route);
  }
  const route = best.find((candidate) => candidate.method === lookup);
  if (route) {
    const params: Record<string, string> = {};
    let name = 0;
    for (let index = 0; index < parts.length; index += 1) {
      if (route.segments[index] === null) params[route.parameterNames[name++] ?? ''] = parts[index] ?? '';
    }
    return { kind: 'operation', operationId: route.operationId, params };
  }
  if (best.length === 0) return { kind: 'none' };
  const allow = new Set(best.map((candidate) => candidate.method));
  if (allow.has('GET')) allow.add('HEAD');
  return { kind: 'wrong-method', allow: [...allow].sort() };
}
