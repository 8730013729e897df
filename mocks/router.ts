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
 * @example matchRoute('GET', '/v1/agents/agt_1') // { kind: 'operation', operationId: 'getAgent', params: { agentId: 'agt_1' } }
 */
export function matchRoute(method: string, path: string): RouteMatch {
  const parts = path.split('/');
  let allow: string[] | undefined;
  for (const route of ROUTES) {
    if (route.segments.length !== parts.length) continue;
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
    if (route.method === method) {
      const params: Record<string, string> = {};
      let name = 0;
      for (let index = 0; index < parts.length; index += 1) {
        if (route.segments[index] === null) params[route.parameterNames[name++] ?? ''] = parts[index] ?? '';
      }
      return { kind: 'operation', operationId: route.operationId, params };
    }
    allow ??= [];
    allow.push(route.method);
  }
  return allow ? { kind: 'wrong-method', allow: [...new Set(allow)].sort() } : { kind: 'none' };
}
