// How an operation of the spec becomes an msw route: its method's builder and its path template in msw's syntax.
import type { OperationSpec } from '../../../spec/index.ts';

/** The msw route builders an operation's method maps to (msw has no TRACE). */
export type MswMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'all';

/**
 * The msw method and URL pattern of an operation under `base` (an origin and prefix, or `*` for any origin).
 * @example mswRoute(getOperation(operationId), 'https://api.test') // { method: 'get', url: 'https://api.test/v1/agents/:agentId' }
 */
export function mswRoute(
  operation: Pick<OperationSpec, 'method' | 'path'>,
  base: string,
): { method: MswMethod; url: string } {
  const { method, path } = operation;
  return {
    method: method === 'TRACE' ? 'all' : (method.toLowerCase() as Lowercase<typeof method>),
    url: `${base}${path.replace(/\{([^}]+)\}/g, ':$1')}`,
  };
}

/**
 * The base msw patterns are put under: `*` (any origin) without a base URL, else the URL without trailing slashes.
 * @example mswBase('https://api.test/') // 'https://api.test'
 */
export function mswBase(baseUrl: string | undefined): string {
  return baseUrl ? baseUrl.replace(/\/+$/, '') : '*';
}
