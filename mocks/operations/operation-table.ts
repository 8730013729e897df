// Every operation of spec/openapi.yaml and its handler: the one list the core dispatches through and msw handlers come from.
import { deployAgent } from './deployAgent.ts';
import { executeAgentTask } from './executeAgentTask.ts';
import { getAgent } from './getAgent.ts';
import type { OperationTable } from './operation-handler.ts';

/**
 * The handlers by operationId. `satisfies` makes an operation added to the spec without a handler a type error.
 * @example operationHandlers[operationId] // the handler the core calls once the request passed its checks
 */
export const operationHandlers = { getAgent, deployAgent, executeAgentTask } satisfies OperationTable;
