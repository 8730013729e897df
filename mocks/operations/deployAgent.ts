// POST /v1/agents/deploy: a new active agent owned by the caller, answered 201 with Location once it is durable.
import { jsonValueResponse } from '../mock-http.ts';
import { deployValidated } from '../store.ts';
import type { OperationHandler } from './operation-handler.ts';

/**
 * Answers deployAgent.
 * @example await deployAgent({ params: {}, body, caller: 'alice', instance: '/v1/agents/deploy' }, services) // 201
 */
export const deployAgent: OperationHandler<'deployAgent'> = async ({ body, caller }, { store, persist }) => {
  const result = store[deployValidated](body, caller);
  await persist();
  const response = jsonValueResponse(201, result);
  response.headers.location = `/v1/agents/${encodeURIComponent(result.agentId)}`;
  return response;
};
