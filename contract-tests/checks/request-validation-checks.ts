// Request validation: each invalid request derived from the schemas (missing required fields, enums, bounds, every
// field as every other JSON type, malformed JSON, wrong media types), each over-long path parameter and each broken
// query parameter (client/requests/query-parameters.ts) is rejected with its documented 4xx problem, never 2xx or 5xx;
// a query parameter on its bounds is accepted.
import { getOperation, operations, parameterSchemaPointer, ruleOrigin, type OperationId } from '../../spec/index.ts';
import { defineCheck, type CheckDefinition } from './check-definition.ts';
import { expectRejection } from './expect-rejection.ts';
import { expectSuccess, unknownValues } from './expect-success.ts';
import { invalidRequests } from '../../client/requests/invalid-requests.ts';
import { takesBody, validRequest, withQuery } from '../../client/requests/operation-requests.ts';
import { queryBoundaries, queryBreaks } from '../../client/requests/query-parameters.ts';
import { resolveSchema } from '../../client/requests/spec-schemas.ts';

function bodyChecks(operationId: OperationId): CheckDefinition[] {
  if (!takesBody(operationId)) return [];
  const needsValues = getOperation(operationId).pathParameters.length > 0;
  return invalidRequests(operationId).map((invalid) =>
    defineCheck(
      {
        id: `request-validation/${operationId}/${invalid.id}`,
        title: `${invalid.title} is rejected with ${invalid.expectedStatus}`,
        posts: 1,
        fixture: needsValues,
      },
      async (run) => {
        const values = needsValues ? await run.pathValues(operationId) : {};
        const { response, index } = await run.send({
          ...validRequest(operationId, values),
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
  return operation.pathParameters.flatMap((name) => {
    const schema = resolveSchema(parameterSchemaPointer(operationId, name));
    const maxLength = schema.schema.maxLength;
    if (typeof maxLength !== 'number') return [];
    return [
      defineCheck(
        {
          id: `request-validation/${operationId}/${name}-max-length`,
          title: `a ${name} longer than its maxLength (${maxLength}) is rejected with 400`,
          posts: operation.method === 'POST' ? 1 : 0,
          // Over-long and so never returned by any creation: a correct server has two reasons to refuse it.
          twoGuards: true,
        },
        async (run) => {
          const values = { ...unknownValues(run, operationId), [name]: 'a'.repeat(maxLength + 1) };
          const { response, index } = await run.send(validRequest(operationId, values));
          expectRejection(run, operationId, response?.status, 400, `${schema.pointer}/maxLength`, index);
        },
      ),
    ];
  });
}

/** Each way to break one query parameter, in an otherwise valid request on real path values: the documented 400. */
function queryChecks(operationId: OperationId): CheckDefinition[] {
  const operation = getOperation(operationId);
  const needsValues = operation.pathParameters.length > 0;
  const posts = operation.method === 'POST' ? 1 : 0;
  const rejections = queryBreaks(operationId).map((broken) =>
    defineCheck(
      {
        id: `request-validation/${operationId}/${broken.id}`,
        title: `${broken.title} is rejected with 400`,
        posts,
        fixture: needsValues,
      },
      async (run) => {
        const values = needsValues ? await run.pathValues(operationId) : {};
        const request = validRequest(operationId, values);
        const { response, index } = await run.send({ ...request, path: withQuery(request.path, broken.query) });
        expectRejection(run, operationId, response?.status, 400, broken.keywordPointer, index);
      },
    ),
  );
  const boundaries = queryBoundaries(operationId).map((boundary) =>
    defineCheck(
      {
        id: `request-validation/${operationId}/${boundary.id}`,
        title: `${boundary.title} is accepted`,
        posts,
        fixture: needsValues,
      },
      async (run) => {
        const values = needsValues ? await run.pathValues(operationId) : {};
        const request = validRequest(operationId, values);
        const { response, index } = await run.send({ ...request, path: withQuery(request.path, boundary.query) });
        expectSuccess(run, operationId, response?.status, index, boundary.title, ruleOrigin(boundary.keywordPointer));
      },
    ),
  );
  return [...rejections, ...boundaries];
}

/** Every request-validation check of every operation of the spec. */
export const requestValidationChecks: readonly CheckDefinition[] = [...operations.keys()].flatMap((operationId) => [
  ...bodyChecks(operationId),
  ...pathParameterChecks(operationId),
  ...queryChecks(operationId),
]);
