// Request validation: each invalid request derived from the schemas (missing required fields, enums, bounds, every
// field as every other JSON type, malformed JSON, wrong media types), each over-long path parameter and each broken
// query, header or cookie parameter (verifier-client/requests/query-parameters.ts, header-parameters.ts) is rejected with its
// documented 4xx problem, never 2xx or 5xx; a parameter on its bounds is accepted.
import {
  getOperation,
  operations,
  parameterSchemaPointer,
  ruleOrigin,
  type JsonValue,
  type OperationId,
} from '../../spec/index.ts';
import { defineCheck, type CheckDefinition } from './check-definition.ts';
import { expectRejection } from './expect-rejection.ts';
import { expectSuccess, unknownValues } from './expect-success.ts';
import { invalidRequests } from '../../verifier-client/requests/invalid-requests.ts';
import { headerBoundaries, headerBreaks, type HeaderCase } from '../../verifier-client/requests/header-parameters.ts';
import {
  takesBody,
  validRequest,
  withQuery,
  type CheckRequest,
} from '../../verifier-client/requests/operation-requests.ts';
import {
  queryBoundaries,
  queryBreaks,
  type QueryBoundary,
  type QueryBreak,
} from '../../verifier-client/requests/query-parameters.ts';
import { resolveSchema } from '../../verifier-client/requests/spec-schemas.ts';

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

/** A JSON text of `value` with every character of every string, member names too, written as a `\uXXXX` escape. */
function escapedJson(value: JsonValue): string {
  if (typeof value === 'string')
    return `"${[...Array(value.length).keys()].map((at) => `\\u${value.charCodeAt(at).toString(16).padStart(4, '0')}`).join('')}"`;
  if (Array.isArray(value)) return `[${value.map(escapedJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([name, member]) => `${escapedJson(name)}:${escapedJson(member)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/**
 * The valid example body written with JSON's own escapes: the same JSON value as the plain text, so a server that reads
 * JSON (the seed: request bodies are JSON) accepts it with the documented success status; one that mishandles escapes,
 * or refuses a body for them, does not.
 */
function escapedBodyChecks(operationId: OperationId): CheckDefinition[] {
  if (!takesBody(operationId)) return [];
  const needsValues = getOperation(operationId).pathParameters.length > 0;
  const title = 'the valid example body with every string written as \\u escapes';
  return [
    defineCheck(
      {
        id: `request-validation/${operationId}/escaped-body`,
        title: `${title} is accepted`,
        posts: 1,
        fixture: needsValues,
      },
      async (run) => {
        const values = needsValues ? await run.pathValues(operationId) : {};
        const request = validRequest(operationId, values);
        const body = request.body === undefined ? undefined : escapedJson(JSON.parse(request.body) as JsonValue);
        const { response, index } = await run.send({ ...request, body });
        expectSuccess(run, operationId, response?.status, index, title);
      },
    ),
  ];
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

/** One way to change a valid request: a broken or a boundary value of one query, header or cookie parameter. */
interface ParameterCase {
  id: string;
  title: string;
  keywordPointer: string;
  apply(request: CheckRequest): CheckRequest;
}

const inQuery = (found: QueryBreak | QueryBoundary): ParameterCase => ({
  ...found,
  apply: (request) => ({ ...request, path: withQuery(request.path, found.query) }),
});

const inHeaders = (found: HeaderCase): ParameterCase => ({
  ...found,
  apply: (request) => ({ ...request, headers: found.headers }),
});

/**
 * Each way to break one query, header or cookie parameter, in an otherwise valid request on real path values: the
 * documented 400; and each value on a bound, accepted.
 */
function parameterChecks(operationId: OperationId): CheckDefinition[] {
  const operation = getOperation(operationId);
  const needsValues = operation.pathParameters.length > 0;
  const posts = operation.method === 'POST' ? 1 : 0;
  const define = (found: ParameterCase, rejected: boolean): CheckDefinition =>
    defineCheck(
      {
        id: `request-validation/${operationId}/${found.id}`,
        title: `${found.title} is ${rejected ? 'rejected with 400' : 'accepted'}`,
        posts,
        fixture: needsValues,
      },
      async (run) => {
        const values = needsValues ? await run.pathValues(operationId) : {};
        const { response, index } = await run.send(found.apply(validRequest(operationId, values)));
        if (rejected) expectRejection(run, operationId, response?.status, 400, found.keywordPointer, index);
        else expectSuccess(run, operationId, response?.status, index, found.title, ruleOrigin(found.keywordPointer));
      },
    );
  return [
    ...[...queryBreaks(operationId).map(inQuery), ...headerBreaks(operationId).map(inHeaders)].map((found) =>
      define(found, true),
    ),
    ...[...queryBoundaries(operationId).map(inQuery), ...headerBoundaries(operationId).map(inHeaders)].map((found) =>
      define(found, false),
    ),
  ];
}

/** Every request-validation check of every operation of the spec. */
export const requestValidationChecks: readonly CheckDefinition[] = [...operations.keys()].flatMap((operationId) => [
  ...bodyChecks(operationId),
  ...escapedBodyChecks(operationId),
  ...pathParameterChecks(operationId),
  ...parameterChecks(operationId),
]);
