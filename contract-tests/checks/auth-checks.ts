// Auth: every operation of the spec rejects a missing Authorization header, a non-Bearer scheme, a malformed token,
// and tokens derived from the user's own (signature altered or removed, alg none, alg switched, payload altered), each
// with 401 and a Bearer challenge. Each is sent with a request that would succeed with the token (a valid body, an
// existing agent), so a server that skips auth answers 2xx, a failure of the seed, instead of hiding behind a 400.
// A writing operation's auth checks may therefore write on a broken server: they count against --max-writes and
// --read-only skips them (and says so).
import { getOperation, operations, type OperationId } from '../../spec/index.ts';
import type { AuthVariant } from '../../verifier-client/requests/auth-variants.ts';
import { defineCheck, type CheckDefinition, type CheckRun } from './check-definition.ts';
import { validRequest, type CheckRequest } from '../../verifier-client/requests/operation-requests.ts';

/** Every way the suite presents bad credentials; `jwt` variants are derived from API_TOKEN and need it to be a JWT. */
const authVariants: ReadonlyArray<{ id: AuthVariant; title: string; jwt: boolean }> = [
  { id: 'missing', title: 'no Authorization header', jwt: false },
  { id: 'not-bearer', title: 'a non-Bearer scheme', jwt: false },
  { id: 'scheme-missing', title: 'API_TOKEN without its Bearer scheme', jwt: false },
  { id: 'scheme-doubled', title: 'API_TOKEN after the Bearer scheme twice', jwt: false },
  { id: 'malformed', title: 'a malformed bearer token', jwt: false },
  { id: 'bad-signature', title: 'API_TOKEN with its signature altered', jwt: false },
  { id: 'signature-removed', title: 'API_TOKEN with its signature removed', jwt: true },
  { id: 'alg-none', title: 'API_TOKEN re-headed with alg none and no signature', jwt: true },
  { id: 'alg-switched', title: "API_TOKEN with its header's alg switched", jwt: true },
  { id: 'payload-altered', title: 'API_TOKEN with its payload altered under the old signature', jwt: true },
];

/** A request the server would answer with its success status if the credentials were the token. */
async function succeedingRequest(run: CheckRun, operationId: OperationId): Promise<CheckRequest> {
  const operation = getOperation(operationId);
  return validRequest(operationId, operation.pathParameters.length > 0 ? await run.pathValues(operationId) : {});
}

async function rejectedWith401(run: CheckRun, operationId: OperationId, variant: AuthVariant): Promise<void> {
  const { response, index } = await run.send({ ...(await succeedingRequest(run, operationId)), auth: variant });
  // No answer and 5xx are recorded by send; a 401's Bearer challenge is a required header its conformance check reads.
  if (!response || response.status >= 500 || response.status === 401) return;
  const unauthorized = getOperation(operationId).responses.get(401);
  const accepted = response.status >= 200 && response.status < 300;
  // Refusing the request at all is the seed's rule (section 5: every operation requires the token); 401 is the spec's.
  run.violate({
    rule: 'rejects-unauthenticated',
    pointer: '',
    expected: 'status 401',
    found: accepted ? `${response.status} (accepted)` : String(response.status),
    origin: accepted ? 'seed' : 'assumption',
    specPointer: accepted ? '/security' : (unauthorized?.pointer ?? `${getOperation(operationId).pointer}/responses`),
    message: `invalid credentials (${variant}) must be answered 401, got ${response.status}`,
    exchange: index,
  });
}

/** One auth check per (operation of the spec, variant). */
export const authChecks: readonly CheckDefinition[] = [...operations.values()].flatMap((operation) =>
  authVariants.map((variant) =>
    defineCheck(
      {
        id: `auth/${operation.operationId}/${variant.id}`,
        title: `${variant.title} is rejected with 401`,
        posts: operation.method === 'POST' ? 1 : 0,
        fixture: operation.pathParameters.length > 0,
        needsJwt: variant.jwt,
      },
      (run) => rejectedWith401(run, operation.operationId, variant.id),
    ),
  ),
);
