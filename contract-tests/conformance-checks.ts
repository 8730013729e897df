// Conformance: one plain valid call of every operation of the spec, answered with its documented success status and a
// conforming body. (Every response of every other check is checked the same way; these make sure each success is seen.)
import { operations, type OperationId } from '../spec/index.ts';
import { defineCheck, type CheckDefinition } from './check-definition.ts';
import { successStatus, validRequest } from '../client/operation-requests.ts';
import { expectSuccess } from './expect-success.ts';

/**
 * What an accepted request of an operation creates, for the plan's totals and --read-only.
 * @example acceptedWrites('deployAgent') // { deploys: 1, executes: 0 }
 */
export function acceptedWrites(operationId: OperationId): { deploys: number; executes: number } {
  const method = operations.get(operationId)?.method;
  if (method !== 'POST') return { deploys: 0, executes: 0 };
  // Any other POST the spec adds is counted as a write too, so --read-only never sends it.
  return operationId === 'deployAgent' ? { deploys: 1, executes: 0 } : { deploys: 0, executes: 1 };
}

function conformanceCheck(operationId: OperationId): CheckDefinition {
  const operation = operations.get(operationId);
  const { status } = successStatus(operationId);
  const needsAgent = operation?.pathParameters.includes('agentId') ?? false;
  return defineCheck(
    {
      id: `conformance/${operationId}/${status}`,
      title: `a valid ${operationId} request is answered ${status} with a conforming body`,
      posts: operation?.method === 'POST' ? 1 : 0,
      ...acceptedWrites(operationId),
      fixture: needsAgent,
    },
    async (run) => {
      const agentId = needsAgent ? await run.fixtureAgent() : '';
      const { response, index } = await run.send(validRequest(operationId, agentId));
      expectSuccess(run, operationId, response?.status, index, `a valid ${operationId} request`);
    },
  );
}

/** One conformance check per operation of the spec. */
export const conformanceChecks: readonly CheckDefinition[] = [...operations.keys()].map(conformanceCheck);
