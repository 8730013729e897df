// Test helper: asserts that an answer of the fake passes the spec's own response checker, naming every violation if not.
import { checkResponse, type OperationId } from '../../spec/index.ts';
import { matchRoute } from '../core/router.ts';

/** What a test saw. */
export interface SeenResponse {
  method: string;
  path: string;
  status: number;
  headers: Headers | Readonly<Record<string, string | undefined>>;
  body: string;
}

function header(headers: SeenResponse['headers'], name: string): string | undefined {
  return headers instanceof Headers ? (headers.get(name) ?? undefined) : headers[name];
}

/**
 * Throws unless the response conforms to the operation the request addressed (by method and path). Answers outside any
 * operation (unknown paths, wrong methods) must still be problem+json with a matching status.
 * @example expectConforms({ method: 'GET', path: '/v1/agents/x', status: 404, headers: res.headers, body: await res.text() });
 */
export function expectConforms(seen: SeenResponse): void {
  const route = matchRoute(seen.method, seen.path.split('?')[0] ?? '');
  const contentType = header(seen.headers, 'content-type');
  if (route.kind !== 'operation') {
    const body: unknown = JSON.parse(seen.body);
    const ok =
      contentType === 'application/problem+json' &&
      typeof body === 'object' &&
      body !== null &&
      (body as { status?: unknown }).status === seen.status;
    if (!ok)
      throw new Error(
        `${seen.method} ${seen.path} → ${seen.status}: not a problem+json answer: ${seen.body.slice(0, 200)}`,
      );
    return;
  }
  const operationId: OperationId = route.operationId;
  const check = checkResponse({
    operationId,
    status: seen.status,
    contentType,
    body: seen.body,
    headers: seen.headers,
  });
  if (!check.ok) {
    const reasons = check.violations
      .map((violation) => `  ${violation.rule} ${violation.pointer}: ${violation.message}`)
      .join('\n');
    throw new Error(
      `${seen.method} ${seen.path} → ${seen.status} breaks the spec:\n${reasons}\nbody: ${seen.body.slice(0, 300)}`,
    );
  }
  if (check.warnings.length > 0) {
    throw new Error(
      `${seen.method} ${seen.path} → ${seen.status} has undocumented fields: ${check.warnings.map((w) => w.pointer).join(', ')}`,
    );
  }
}
