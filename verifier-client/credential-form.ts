// Whether a request's credential has the form the spec's security scheme states (`bearer`, `bearerFormat: JWT`), judged
// from the request alone: the proxy judges the app's requests with it, `pact verify` a pact's. The words it returns
// never repeat the credential.
import { getAtPointer, getOperation, openapiDocument, type OperationId } from '../spec/index.ts';

/** Whether the operation needs credentials: its own `security`, else the document's (an empty list opts out). */
function hasSecurity(operationId: OperationId): boolean {
  const security =
    getAtPointer(openapiDocument, `${getOperation(operationId).pointer}/security`) ?? openapiDocument.security;
  return Array.isArray(security) && security.length > 0;
}

/** A JWT: three base64url segments, the signature possibly empty (an unsigned token is still a JWT in form). */
const bearerJwt = /^Bearer +[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/i;

/**
 * What is wrong with a request's Authorization header, in words that never repeat it (`no Authorization header`, `a
 * Basic credential`, `a Bearer token that is not a JWT`); undefined when the operation needs none or it is a Bearer JWT.
 * The security scheme says `bearer` with `bearerFormat: JWT`: anything else can only be refused.
 * @example credentialProblem(undefined, operationId) // 'no Authorization header'
 */
export function credentialProblem(authorization: string | undefined, operationId: OperationId): string | undefined {
  if (!hasSecurity(operationId)) return undefined;
  const credential = authorization?.trim();
  if (credential === undefined || credential === '') return 'no Authorization header';
  if (bearerJwt.test(credential)) return undefined;
  const scheme = /^[A-Za-z][\w!#$%&'*+.^`|~-]*/.exec(credential)?.[0];
  if (scheme === undefined) return 'an Authorization header with no scheme';
  return scheme.toLowerCase() === 'bearer' ? 'a Bearer token that is not a JWT' : `a ${scheme.slice(0, 20)} credential`;
}
