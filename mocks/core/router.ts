// Matches requests against OpenAPI path templates (`/v1/agents/{agentId}`), telling wrong methods and unknown paths apart;
// the API's routes come from spec/openapi.yaml, the control plane's from mocks/control-plane/control-plane.yaml.
import { matchSegment, operations, segmentTokens, type OperationId, type SegmentToken } from '../../spec/index.ts';

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

type CompiledSegment = string | null | readonly SegmentToken[];

function compileSegment(segment: string): CompiledSegment {
  const tokens = segmentTokens(segment);
  const only = tokens.length === 1 ? tokens[0] : undefined;
  if (only !== undefined && 'parameter' in only) return null;
  return tokens.some((token) => 'parameter' in token) ? tokens : segment;
}

interface CompiledRoute<T> {
  method: string;
  /**
   * Literal segments as text, whole-parameter segments as null (the fast path: every template of the API), and segments
   * with text around a parameter (`{name}.json`) as their pieces, matched by spec/'s one path-template matcher.
   */
  segments: CompiledSegment[];
  parameterNames: string[];
  target: T;
}

/**
 * Compiles path templates once into a matcher. Parameters come back still percent-encoded: the caller decodes and
 * validates them. As OpenAPI says, a concrete path wins over a templated one (`/v1/agents/deploy` is never the agent
 * `deploy`; another method there is 405). With `headFromGet`, HEAD is served wherever GET is (RFC 9110).
 * @example createRouter([{ method: 'GET', path: '/tasks/{taskId}', target: 'showTask' }]).match('GET', '/tasks/t1')
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
    segments: route.path.split('/').map(compileSegment),
    parameterNames: [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? ''),
  }));
  const headFromGet = options.headFromGet === true;
  return {
    match(method, path) {
      const lookup = headFromGet && method === 'HEAD' ? 'GET' : method;
      // The matching templates with the fewest parameters: the most concrete path owns the request. Walked without
      // splitting the path, so a request allocates nothing here until it is matched.
      let fewest = Number.POSITIVE_INFINITY;
      let found: CompiledRoute<T> | undefined;
      for (const route of compiled) {
        if (route.parameterNames.length > fewest || !segmentsMatch(route.segments, path)) continue;
        if (route.parameterNames.length < fewest) {
          fewest = route.parameterNames.length;
          found = undefined;
        }
        if (found === undefined && route.method === lookup) found = route;
      }
      if (found) return { kind: 'route', target: found.target, params: parametersOf(found, path) };
      if (fewest === Number.POSITIVE_INFINITY) return { kind: 'none' };
      const allow = new Set<string>();
      for (const route of compiled)
        if (route.parameterNames.length === fewest && segmentsMatch(route.segments, path)) allow.add(route.method);
      if (headFromGet && allow.has('GET')) allow.add('HEAD');
      return { kind: 'wrong-method', allow: [...allow].sort() };
    },
  };
}

/**
 * Whether `path`, cut at each `/`, has exactly the template's segments: each literal equal, each parameter non-empty.
 * @example segmentsMatch(['', 'v1', 'agents', null], '/v1/agents/agt_1') // true
 */
function segmentsMatch(segments: readonly CompiledSegment[], path: string): boolean {
  let start = 0;
  for (let index = 0; index < segments.length; index += 1) {
    const slash = path.indexOf('/', start);
    const end = slash === -1 ? path.length : slash;
    const segment = segments[index];
    if (segment === null || segment === undefined) {
      if (end === start) return false;
    } else if (typeof segment !== 'string') {
      if (matchSegment(segment, path.slice(start, end)) === undefined) return false;
    } else if (end - start !== segment.length || !path.startsWith(segment, start)) {
      return false;
    }
    if (slash === -1) return index === segments.length - 1;
    start = slash + 1;
  }
  return false;
}

/** The raw (still percent-encoded) values of a matched route's parameters, by name. */
function parametersOf<T>(route: CompiledRoute<T>, path: string): Record<string, string> {
  const params: Record<string, string> = {};
  let start = 0;
  let name = 0;
  for (const segment of route.segments) {
    const slash = path.indexOf('/', start);
    const end = slash === -1 ? path.length : slash;
    if (segment === null) params[route.parameterNames[name++] ?? ''] = path.slice(start, end);
    else if (typeof segment !== 'string')
      for (const value of matchSegment(segment, path.slice(start, end)) ?? [])
        params[route.parameterNames[name++] ?? ''] = value;
    start = slash + 1;
  }
  return params;
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
