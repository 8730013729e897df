// Conformance: one plain valid call of every operation of the spec, answered with its documented success status and a
// conforming body. (Every response of every other check is checked the same way; these make sure each success is seen.)
import { operations, type OperationId } from '../../spec/index.ts';
import { defineCheck, type CheckDefinition } from './check-definition.ts';
import { successStatus, validRequest } from '../../verifier-client/requests/operation-requests.ts';
import { expectSuccess } from './expect-success.ts';
import { acceptedWrites } from '../../verifier-client/requests/linked-operations.ts';

function conformanceCheck(operationId: OperationId): CheckDefinition {
  const operation = operations.get(operationId);
  const { status } = successStatus(operationId);
  const needsValues = (operation?.pathParameters.length ?? 0) > 0;
  return defineCheck(
    {
      id: `conformance/${operationId}/${status}`,
      title: `a valid ${operationId} request is answered ${status} with a conforming body`,
      posts: operation?.method === 'POST' ? 1 : 0,
      ...acceptedWrites(operationId),
      fixture: needsValues,
    },
    async (run) => {
      const values = needsValues ? await run.pathValues(operationId) : {};
      const { response, index } = await run.send(validRequest(operationId, values));
      expectSuccess(run, operationId, response?.status, index, `a valid ${operationId} request`);
    },
  );
}

/** One conformance check per operation of the spec. */
export const conformanceChecks: readonly CheckDefinition[] = [...operations.keys()].map(conformanceCheck);
