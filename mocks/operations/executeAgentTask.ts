// POST /v1/agents/{agentId}/execute: queues a task on an active agent; paused or deprecated agents refuse with 409.
import { jsonValueResponse } from '../core/mock-http.ts';
import { problemResponse } from '../core/problems.ts';
import { agentNotFound, type OperationHandler } from '../core/operation-handler.ts';

/**
 * Answers executeAgentTask.
 * @example await executeAgentTask({ params: { agentId }, body: { task: 'x', priority: 'normal' }, caller, instance }, services)
 */
export const executeAgentTask: OperationHandler<'executeAgentTask'> = (
  { params, body, instance },
  { store, acknowledge },
) => {
  const result = store.submitTask(params.agentId, body);
  if (!result.ok) {
    if (result.reason === 'agent-not-found') return agentNotFound(params.agentId, instance);
    // Stryker disable next-line StringLiteral,ObjectLiteral: not reached: the API cannot pause an agent, so no task is refused for the agent's status
    return problemResponse('agent-not-active', {
      // Stryker disable next-line StringLiteral: not pinned: a problem's detail text; error bodies are not shown
      detail: `Agent ${params.agentId} is ${result.status}; only active agents accept tasks.`,
      instance,
    });
  }
  return acknowledge(jsonValueResponse(200, result.submission));
};
