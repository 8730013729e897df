// Matches requests against OpenAPI path templates (`/v1/agents/{agentId}`), telling wrong methods and unknown paths apart;
// the API's routes come from spec/openapi.yaml, the control plane's from mocks/control-plane.yaml.
import { operations, type OperationId } from '../spec/index.ts';

/** One route: a method, an OpenAPI path template, and what the caller wants back when it matches. */
export interface RouteDefinition<T> {
  method: string;
  /** OpenAPI path template, e.g. `/v1/agents/{agentId}/execute`. */
  path: string;
  target: T;
}

export type TemplateMatch<T> =
  | { kind: 'route'; target: T; params: Record<string, string> }
  | { kind: 'wrong-method'; allow: string[] }
  | { kind: 'none' };

interface CompiledRoute<T> {
  method: string;
  /** Literal segments as text, parameter segments as null. */
  segments: (string | null)[];
  parameterNames: string[];
  target: T;
}

/**
 * Compiles path templates once into a matcher. Parameters come back still percent-encoded: the caller decodes and
 * validates them. As OpenAPI says, a concrete path wins over a templated one (`/v1/agents/deploy` is never the agent
 * `deploy`; another method there is 405). With `headFromGet`, HEAD is served wherever GET is (RFC 9110).
 * @example createRouter([{ method: 'GET', path: '/tasks/{taskId}', target: 'getTask' }]).match('GET', '/tasks/t1')
 */
export function createRouter<T>(
  routes: readonly RouteDefinition<T>[],
  options: { headFromGet?: boolean } = {},
): {
  match(method: string, path: string): TemplateMatch<T>;
} {
  const compiled: CompiledRoute<T>[] = routes.map((route) => ({
    method: route.method,
    target: route.target,
    segments: route.path.split('/').map((segment) => (segment.startsWith('{') ? null : segment)),
    parameterNames: [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? ''),
  }));
  const headFromGet = options.headFromGet === true;
  return {
    match(method, path) {
      const parts = path.split('/');
      const lookup = headFromGet && method === 'HEAD' ? 'GET' : method;
      // The matching templates with the fewest parameters: the most concrete path owns the request.
      let best: CompiledRoute<T>[] = [];
      let fewest = Number.POSITIVE_INFINITY;
      for (const route of compiled) {
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
        return { kind: 'route', target: route.target, params };
      }
      if (best.length === 0) return { kind: 'none' };
      const allow = new Set(best.map((candidate) => candidate.method));
      if (headFromGet && allow.has('GET')) allow.add('HEAD');
      return { kind: 'wrong-method', allow: [...allow].sort() };
    },
  };
}

export type RouteMatch =
  | { kind: 'operation'; operationId: OperationId; params: Record<string, string> }
  | { kind: 'wrong-method'; allow: string[] }
  | { kind: 'none' };

// Compiled once from spec/: adding an operation to the document adds its route.
const apiRouter = createRouter(
  [...operations.values()].map((operation) => ({
    method: operation.method,
    path: operation.path,
    target: operation.operationId,
  })),
  { headFromGet: true },
);

/**
 * Matches a percent-encoded pathname against the API's operations.
 * @example matchRoute('GET', '/v1/agents/agt_1') // { kind: 'operation', operationId: <GET /v1/agents/{agentId}>, params: { agentId: 'agt_1' } }
 */
export function matchRoute(method: string, path: string): RouteMatch {
  const match = apiRouter.match(method, path);
  return match.kind === 'route' ? { kind: 'operation', operationId: match.target, params: match.params } : match;
}
