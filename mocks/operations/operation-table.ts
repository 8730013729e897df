// Every operation of spec/openapi.yaml, its handler and what it declares: the one list the core dispatches through and
// msw handlers come from.
import { deployAgent } from './deployAgent.ts';
import { executeAgentTask } from './executeAgentTask.ts';
import { getAgent } from './getAgent.ts';
import type { OperationTable } from '../core/operation-handler.ts';

/**
 * The entries by operationId. `satisfies` makes an operation added to the spec without an entry, or an entry without
 * `reads`, a type error.
 * @example operationTable[operationId].handle // the handler the core calls once the request passed its checks
 */
export const operationTable = {
  getAgent: { handle: getAgent, reads: 'stored-records' },
  deployAgent: { handle: deployAgent, reads: 'no-stored-records' },
  executeAgentTask: { handle: executeAgentTask, reads: 'stored-records' },
} satisfies OperationTable;
