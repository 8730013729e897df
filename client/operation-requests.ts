// The requests every family builds for any operation of the spec (its path filled in, its richest example as the body),
// and the one rule for the answer to a valid request: the operation's documented success status.
import {
  getOperation,
  type BodyOperationId,
  type JsonObject,
  type OperationId,
  type RuleOrigin,
} from '../spec/index.ts';
import type { CheckRun } from './check-definition.ts';
import type { OutgoingRequest } from './http-exchange.ts';
import { requestExamples } from './spec-schemas.ts';

export type CheckRequest = Omit<OutgoingRequest, 'authorization'>;

/**
 * Whether an operation takes a JSON body (narrows its id for the body helpers).
 * @example takesBody('getAgent') // false
 */
export function takesBody(operationId: OperationId): operationId is BodyOperationId {
  return getOperation(operationId).requestMediaType !== undefined;
}

/**
 * The operation's path with `{agentId}` (its only path parameter) filled in.
 * @example operationPath('executeAgentTask', 'agt 1') // '/v1/agents/agt%201/execute'
 */
export function operationPath(operationId: OperationId, agentId: string): string {
  return getOperation(operationId).path.replace('{agentId}', encodeURIComponent(agentId));
}

/**
 * A request to an operation: its method and path, and as body `body`, or its richest example when it takes one.
 * @example validRequest('getAgent', 'agt_1') // { operationId: 'getAgent', method: 'GET', path: '/v1/agents/agt_1', ... }
 */
export function validRequest(operationId: OperationId, agentId: string, body?: JsonObject): CheckRequest {
  const operation = getOperation(operationId);
  const sent = body ?? (takesBody(operationId) ? requestExamples(operationId)[0] : undefined);
  return {
    operationId,
    method: operation.method,
    path: operationPath(operationId, agentId),
    contentType: sent === undefined ? undefined : (operation.requestMediaType ?? 'application/json'),
    body: sent === undefined ? undefined : JSON.stringify(sent),
  };
}

/**
 * An agentId no deploy ever returned (it differs per seed, so runs do not collide).
 * @example unknownAgentId(run) // 'agt_contract_unknown_42'
 */
export function unknownAgentId(run: CheckRun): string {
  return `agt_contract_unknown_${run.options.seed}`;
}

/**
 * The documented success status of an operation (the spec gives each exactly one 2xx).
 * @example successStatus('deployAgent').status // 201
 */
export function successStatus(operationId: OperationId): { status: number; pointer: string; seed: boolean } {
  const success = [...getOperation(operationId).responses.values()].find((r) => r.status >= 200 && r.status < 300);
  if (!success) throw new Error(`${operationId} documents no success status`);
  return { status: success.status, pointer: success.pointer, seed: success.assumption === undefined };
}

/**
 * Records `success-status` when a valid request was not answered with its documented success status, and says whether
 * it was. A 5xx (`not-a-server-error`), an undocumented status (`status-documented`) and no answer (`answers`) are
 * recorded by send already, so they are not repeated here.
 * @example if (!expectSuccess(run, 'deployAgent', response?.status, index, 'a valid deploy')) return;
 */
export function expectSuccess(
  run: CheckRun,
  operationId: OperationId,
  status: number | undefined,
  exchange: number,
  what: string,
  /** Where the request's validity comes from, when an assumption of the spec makes it valid (a boundary it chose). */
  validBy?: RuleOrigin,
): boolean {
  const success = successStatus(operationId);
  if (status === success.status) return true;
  // An undocumented status is already `status-documented` (recorded by send): one cause, one violation.
  if (status === undefined || status >= 500 || !getOperation(operationId).responses.has(status)) return false;
  // Another 2xx breaks only the documented status; refusing valid input breaks the seed unless the spec made it valid.
  const origin: RuleOrigin =
    status >= 200 && status < 300 ? (success.seed ? 'seed' : 'assumption') : (validBy ?? 'seed');
  run.violate({
    rule: 'success-status',
    pointer: '',
    expected: `status ${success.status}`,
    found: String(status),
    origin,
    specPointer: success.pointer,
    message: `${what} must be answered ${success.status}, got ${status}`,
    exchange,
  });
  return false;
}
