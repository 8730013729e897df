// Auth: every operation rejects a missing Authorization header, a non-Bearer scheme, a malformed token and a token whose
// signature was altered, each with 401 and a Bearer WWW-Authenticate challenge.
import { describe } from 'vitest';
import { getOperation, type OperationId } from '../spec/index.ts';
import { contractCheck, type CheckRun } from './contract-check.ts';
import type { AuthVariant } from './check-plan.ts';
import { requestExamples } from './spec-schemas.ts';

const variants: AuthVariant[] = ['missing', 'not-bearer', 'malformed', 'bad-signature'];

/**
 * What an auth check sends. Normally the spec's valid example to the file's agent, so only the credentials are wrong.
 * Under --read-only the credentials must not be the only guard: the body is invalid (`{}` lacks every required field)
 * and a task goes to an agent that cannot exist, so a server whose auth is broken still creates nothing.
 */
async function requestFor(
  run: CheckRun,
  operationId: OperationId,
): Promise<{ path: string; body: string | undefined }> {
  const operation = getOperation(operationId);
  const readOnly = run.options.readOnly && operation.method === 'POST';
  const agentId =
    operationId === 'deployAgent'
      ? ''
      : readOnly
        ? `agt_contract_read_only_unknown_${run.options.seed}`
        : await run.fixtureAgent();
  const path = operation.path.replace('{agentId}', encodeURIComponent(agentId));
  if (operationId === 'getAgent') return { path, body: undefined };
  return { path, body: readOnly ? '{}' : JSON.stringify(requestExamples(operationId)[0]) };
}

async function rejectedWith401(run: CheckRun, operationId: OperationId, variant: AuthVariant): Promise<void> {
  const operation = getOperation(operationId);
  const { path, body } = await requestFor(run, operationId);
  const { response, index } = await run.send({
    operationId,
    method: operation.method,
    path,
    auth: variant,
    contentType: body === undefined ? undefined : 'application/json',
    body,
  });
  if (!response) return;
  const unauthorized = operation.responses.get(401);
  // Rejecting the request at all is the seed's rule (section 5); the 401 status and its challenge are the spec's choices.
  const specPointer = unauthorized?.pointer ?? `${operation.pointer}/responses`;
  if (response.status >= 200 && response.status < 300) {
    run.violate({
      rule: 'rejects-unauthenticated',
      pointer: '',
      expected: 'a 401 rejection',
      found: `${response.status} (accepted)`,
      origin: 'seed',
      specPointer: '/security',
      message: `the request was accepted (${response.status}) although its credentials are invalid (${variant})`,
      exchange: index,
    });
    return;
  }
  if (response.status !== 401) {
    run.violate({
      rule: 'unauthenticated-status',
      pointer: '',
      expected: 'status 401',
      found: String(response.status),
      origin: 'assumption',
      specPointer,
      message: `invalid credentials (${variant}) must be answered 401, got ${response.status}`,
      exchange: index,
    });
    return;
  }
  const challenge = response.headers.get('www-authenticate');
  if (challenge === null || !/^Bearer\b/.test(challenge)) {
    run.violate({
      rule: 'bearer-challenge',
      pointer: '/headers/www-authenticate',
      expected: 'a WWW-Authenticate header starting with Bearer',
      found: challenge ?? 'no such header',
      origin: 'assumption',
      specPointer: '/components/headers/WWW-Authenticate',
      message: 'a 401 must carry a Bearer WWW-Authenticate challenge',
      exchange: index,
    });
  }
}

for (const operationId of ['deployAgent', 'getAgent', 'executeAgentTask'] as const) {
  describe(operationId, () => {
    for (const variant of variants)
      contractCheck(`auth/${operationId}/${variant}`, (run) => rejectedWith401(run, operationId, variant));
  });
}
