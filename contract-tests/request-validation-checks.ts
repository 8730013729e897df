// Request validation: each invalid request derived from the schemas (missing required fields, enums, bounds, every
// field as every other JSON type, malformed JSON, wrong media types) and each over-long path parameter is rejected with
// its documented 4xx problem, never 2xx or 5xx.
import { getOperation, operations, type OperationId } from '../spec/index.ts';
import { defineCheck, type CheckDefinition } from './check-definition.ts';
import { expectRejection } from './expect-rejection.ts';
import { invalidRequests } from '../client/invalid-requests.ts';
import { takesBody, validRequest } from '../client/operation-requests.ts';
import { resolveSchema } from '../client/spec-schemas.ts';

const agentIdSchema = resolveSchema('/components/parameters/AgentId/schema');

function bodyChecks(operationId: OperationId): CheckDefinition[] {
  if (!takesBody(operationId)) return [];
  const needsAgent = getOperation(operationId).pathParameters.includes('agentId');
  return invalidRequests(operationId).map((invalid) =>
    defineCheck(
      {
        id: `request-validation/${operationId}/${invalid.id}`,
        title: `${invalid.title} is rejected with ${invalid.expectedStatus}`,
        posts: 1,
        fixture: needsAgent,
      },
      async (run) => {
        const agentId = needsAgent ? await run.fixtureAgent() : '';
        const { response, index } = await run.send({
          ...validRequest(operationId, agentId),
          contentType: invalid.contentType,
          body: invalid.body,
        });
        expectRejection(run, operationId, response?.status, invalid.expectedStatus, invalid.keywordPointer, index);
      },
    ),
  );
}

function pathParameterChecks(operationId: OperationId): CheckDefinition[] {
  const operation = getOperation(operationId);
  const maxLength = agentIdSchema.schema.maxLength;
  if (!operation.pathParameters.includes('agentId') || typeof maxLength !== 'number') return [];
  return [
    defineCheck(
      {
        id: `request-validation/${operationId}/agentId-max-length`,
        title: `an agentId longer than its maxLength (${maxLength}) is rejected with 400`,
        posts: operation.method === 'POST' ? 1 : 0,
      },
      async (run) => {
        const { response, index } = await run.send(validRequest(operationId, 'a'.repeat(maxLength + 1)));
        expectRejection(run, operationId, response?.status, 400, `${agentIdSchema.pointer}/maxLength`, index);
      },
    ),
  ];
}

/** Every request-validation check of every operation of the spec. */
export const requestValidationChecks: readonly CheckDefinition[] = [...operations.keys()].flatMap((operationId) => [
  ...bodyChecks(operationId),
  ...pathParameterChecks(operationId),
]);
