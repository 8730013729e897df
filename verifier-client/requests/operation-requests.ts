// The requests a client builds for any operation of the spec (its path filled in, its required query, header and
// cookie parameters valid, its richest example as the body),
// and the operation's documented success status.
import { getOperation, type BodyOperationId, type JsonObject, type OperationId } from '../../spec/index.ts';
import type { OutgoingRequest } from '../http-exchange.ts';
import { validHeaders } from './header-parameters.ts';
import { fillPath, type PathValues } from './path-parameters.ts';
import { validQuery } from './query-parameters.ts';
import { requestExamples } from './spec-schemas.ts';

export type CheckRequest = Omit<OutgoingRequest, 'authorization'>;

/**
 * Whether an operation takes a JSON body (narrows its id for the body helpers).
 * @example if (takesBody(operationId)) requestExamples(operationId)
 */
export function takesBody(operationId: OperationId): operationId is BodyOperationId {
  return getOperation(operationId).requestMediaType !== undefined;
}

/**
 * A request to an operation: its method, its path filled with `values` (and each required query, header and cookie
 * parameter valid), and as body `body`, or its richest example when it takes one.
 * @example validRequest(operationId, { agentId: 'agt_1' }) // { operationId, method: 'GET', path: '/v1/agents/agt_1', ... }
 */
export function validRequest(operationId: OperationId, values: PathValues, body?: JsonObject): CheckRequest {
  const operation = getOperation(operationId);
  const sent = body ?? (takesBody(operationId) ? requestExamples(operationId)[0] : undefined);
  return {
    operationId,
    method: operation.method,
    path: withQuery(fillPath(operationId, values), validQuery(operationId)),
    contentType: sent === undefined ? undefined : (operation.requestMediaType ?? 'application/json'),
    body: sent === undefined ? undefined : JSON.stringify(sent),
    headers: validHeaders(operationId),
  };
}

/**
 * A path with a query string in place of any it had ('' leaves none).
 * @example withQuery('/v1/agents?limit=20', 'limit=500') // '/v1/agents?limit=500'
 */
export function withQuery(path: string, query: string): string {
  const bare = path.split('?')[0] ?? path;
  return query === '' ? bare : `${bare}?${query}`;
}

/**
 * The documented success status of an operation (the spec gives each exactly one 2xx).
 * @example successStatus(operationId).status // 201 for a deploy
 */
export function successStatus(operationId: OperationId): { status: number; pointer: string; seed: boolean } {
  const success = [...getOperation(operationId).responses.values()].find((r) => r.status >= 200 && r.status < 300);
  if (!success) throw new Error(`${operationId} documents no success status`);
  return { status: success.status, pointer: success.pointer, seed: success.assumption === undefined };
}
