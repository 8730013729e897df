// The requests a client builds for any operation of the spec (its path filled in, its richest example as the body),
// and the operation's documented success status.
import { getOperation, type BodyOperationId, type JsonObject, type OperationId } from '../spec/index.ts';
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
 * The documented success status of an operation (the spec gives each exactly one 2xx).
 * @example successStatus('deployAgent').status // 201
 */
export function successStatus(operationId: OperationId): { status: number; pointer: string; seed: boolean } {
  const success = [...getOperation(operationId).responses.values()].find((r) => r.status >= 200 && r.status < 300);
  if (!success) throw new Error(`${operationId} documents no success status`);
  return { status: success.status, pointer: success.pointer, seed: success.assumption === undefined };
}
