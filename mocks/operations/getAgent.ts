// GET /v1/agents/{agentId}: the agent with every finished task applied, from the store's cached JSON (the hot path).
import { jsonResponse } from '../core/mock-http.ts';
import { agentNotFound, type OperationHandler } from '../core/operation-handler.ts';

/**
 * Answers getAgent.
 * @example await getAgent({ params: { agentId }, body: undefined, caller: 'alice', instance }, services) // 200 or 404
 */
export const getAgent: OperationHandler<'getAgent'> = ({ params, instance }, { store }) => {
  const json = store.getJson(params.agentId);
  return json === undefined ? agentNotFound(params.agentId, instance) : jsonResponse(200, json);
};
