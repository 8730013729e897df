// POST /v1/agents/deploy: a new active agent owned by the caller, answered 201 with Location once it is durable.
import { jsonValueResponse } from '../core/mock-http.ts';
import { problemResponse } from '../core/problems.ts';
import { deployValidated } from '../state/store/store.ts';
import type { OperationHandler } from '../core/operation-handler.ts';

/**
 * Answers deployAgent.
 * @example await deployAgent({ params: {}, body, caller: 'alice', instance: '/v1/agents/deploy' }, services) // 201
 */
export const deployAgent: OperationHandler<'deployAgent'> = ({ body, caller, instance }, { store, acknowledge }) => {
  // The memory bound: a documented 503 (nothing applied, so a retry after a reset is safe), never an exhausted process.
  // Stryker disable next-line ConditionalExpression: not pinned: the --max-agents memory bound (503); the description shows no limits
  if (store.full)
    // Stryker disable next-line StringLiteral,ObjectLiteral: not pinned: the --max-agents memory bound (503); the description shows no limits
    return problemResponse('state-not-saved', {
      // Stryker disable next-line StringLiteral: not pinned: a problem's detail text; error bodies are not shown
      detail: `The change could not be saved: the fake holds --max-agents ${store.maxAgents} deployed agents; POST /__mock/reset, or start it with a higher --max-agents. Nothing was applied.`,
      instance,
    });
  const result = store[deployValidated](body, caller);
  const response = jsonValueResponse(201, result);
  // Stryker disable next-line StringLiteral: not pinned: the Location header of a deploy is the spec's decision; the description shows none
  response.headers.location = `/v1/agents/${encodeURIComponent(result.agentId)}`;
  return acknowledge(response);
};
