// The --read-only promise enforced where requests leave the suite: a POST goes out only if two independent guards each
// make a correct server reject it, so a server with one broken guard (auth that accepts anything, say) creates nothing.
import {
  takesJsonBody,
  validatePathParameter,
  validateRequestBody,
  type BodyOperationId,
  type OperationId,
} from '../spec/index.ts';
import { matchPath } from '../verifier-client/requests/path-parameters.ts';

/** The independent reasons a correct server has to refuse a request. */
export type Guard = 'credentials' | 'validation' | 'unknown-agent';

/** What the guard needs to know of a request about to be sent. */
export interface GuardedRequest {
  operationId: string;
  method: 'GET' | 'POST';
  path: string;
  /** Whether the run's own token is sent (any other credentials are bad on purpose). */
  validCredentials: boolean;
  contentType: string | undefined;
  body: string | undefined;
}

function bodyIsInvalid(operationId: BodyOperationId, request: GuardedRequest): boolean {
  if (request.body === undefined || !/^application\/json\b/i.test(request.contentType ?? '')) return true;
  let parsed: unknown;
  try {
    parsed = JSON.parse(request.body);
  } catch {
    return true;
  }
  return !validateRequestBody(operationId, parsed).ok;
}

/**
 * The guards that stop `request` on a correct server, given the one agent the run may touch (API_AGENT_ID).
 * @example guardsOf({ operationId, method: 'POST', path: '/v1/agents/deploy', validCredentials: false, contentType: 'application/json', body: '{}' }, 'agt_1') // ['credentials', 'validation']
 */
export function guardsOf(request: GuardedRequest, knownAgentId: string | undefined): Guard[] {
  const guards: Guard[] = [];
  if (!request.validCredentials) guards.push('credentials');
  const operationId = request.operationId as OperationId;
  // Every path parameter (verifier-client/requests/path-parameters.ts): one the spec's schema refuses, or one that is not the agent the
  // run may touch (no creation returned it), is a reason to refuse.
  const values = Object.entries(matchPath(operationId, request.path) ?? {});
  const pathInvalid = values.some(([name, value]) => !validatePathParameter(operationId, name, value).ok);
  const bodyInvalid = takesJsonBody(operationId) && bodyIsInvalid(operationId, request);
  if (pathInvalid || bodyInvalid) guards.push('validation');
  if (values.some(([, value]) => value !== knownAgentId)) guards.push('unknown-agent');
  return guards;
}

/**
 * Throws (a suite bug) when --read-only is about to send a POST that fewer than two guards stop.
 * @example assertReadOnlySafe(request, runOptions.agentId); // before every POST of a read-only run
 */
export function assertReadOnlySafe(request: GuardedRequest, knownAgentId: string | undefined): void {
  if (request.method !== 'POST') return;
  const guards = guardsOf(request, knownAgentId);
  if (guards.length < 2)
    throw new Error(
      `suite bug: --read-only would send ${request.method} ${request.path} which only ${guards.length === 0 ? 'nothing' : guards.join(' and ')} stops`,
    );
}
