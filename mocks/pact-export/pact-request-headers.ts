// The request headers a pact keeps: those that change what the fake answers (Content-Type, Prefer) and the operation's
// declared header and cookie parameters, read from the spec's one resolver, so a verifier sends them again and
// `pact verify` checks them with the spec's parameter reader. Nothing else: never the Authorization header, and of the
// Cookie header only the cookies the operation declares (any other may be a session).
import { getOperation, openapiDocument, operationParameters, type OperationId } from '../../spec/index.ts';

/** Request headers every pact keeps when sent. */
const ALWAYS_KEPT = ['content-type', 'prefer'] as const;

interface Declared {
  /** Declared header parameters, lower-case. */
  headers: readonly string[];
  /** Declared cookie names. */
  cookies: ReadonlySet<string>;
}

const declaredBy = new Map<OperationId, Declared>();

function declared(operationId: OperationId): Declared {
  let found = declaredBy.get(operationId);
  if (!found) {
    const parameters = operationParameters(getOperation(operationId).pointer, openapiDocument);
    found = {
      headers: parameters.filter((one) => one.in === 'header').map((one) => one.name.toLowerCase()),
      cookies: new Set(parameters.filter((one) => one.in === 'cookie').map((one) => one.name)),
    };
    declaredBy.set(operationId, found);
  }
  return found;
}

/** The declared cookies of a Cookie header, in the order sent; undefined when it holds none. */
function declaredCookies(header: string, names: ReadonlySet<string>): string | undefined {
  const kept = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => names.has(part.slice(0, Math.max(0, part.indexOf('=')))));
  return kept.length === 0 ? undefined : kept.join('; ');
}

/**
 * The headers of a request that its pact interaction carries (lower-case names).
 * @example pactRequestHeaders(operationId, { 'content-type': 'application/json', authorization: 'Bearer …' }) // { 'content-type': 'application/json' }
 */
export function pactRequestHeaders(
  operationId: OperationId,
  headers: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const kept: Record<string, string> = {};
  const { headers: names, cookies } = declared(operationId);
  for (const name of [...ALWAYS_KEPT, ...names]) {
    const value = headers[name];
    if (value !== undefined && name !== 'authorization' && name !== 'cookie') kept[name] = value;
  }
  const cookie = headers.cookie;
  if (cookies.size > 0 && cookie !== undefined) {
    const value = declaredCookies(cookie, cookies);
    if (value !== undefined) kept.cookie = value;
  }
  return kept;
}
