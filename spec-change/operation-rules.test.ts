// Each operation rule alone, on one tiny operation edited in the head copy: what it reports, and what it hands on to
// the schema rules and the media-type comparison.
import { describe, expect, test } from 'vitest';
import type { JsonObject } from '../spec/index.ts';
import {
  operationIdRule,
  type OperationRule,
  parametersRule,
  requestBodyRule,
  responsesRule,
  securityRule,
} from './operation-rules.ts';
import { operationsIn } from './operations-in.ts';

/** One operation, POST /things/{id}, with a query parameter, a body and two responses (one with a header). */
function tinySpec(): JsonObject {
  return {
    openapi: '3.1.0',
    security: [{ bearer: [] }],
    paths: {
      '/things/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        post: {
          operationId: 'touchThing',
          parameters: [{ $ref: '#/components/parameters/Verbose' }],
          requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
          responses: {
            '200': {
              description: 'ok',
              headers: { 'X-Count': { required: true, schema: { type: 'integer' } } },
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            '404': { description: 'no such thing' },
          },
        },
      },
    },
    components: { parameters: { Verbose: { name: 'verbose', in: 'query', schema: { type: 'boolean' } } } },
  };
}

/** The operation in the head, to edit. */
const operation = (document: JsonObject): JsonObject =>
  ((document.paths as JsonObject)['/things/{id}'] as JsonObject).post as JsonObject;

function run(rule: OperationRule, edit: (head: JsonObject) => void): string[] {
  const baseDocument = tinySpec();
  const headDocument = tinySpec();
  edit(headDocument);
  const key = 'POST /things/{}';
  const base = operationsIn(baseDocument).get(key);
  const head = operationsIn(headDocument).get(key);
  if (!base || !head) throw new Error('the tiny spec lost its operation');
  const found: string[] = [];
  rule(
    { key, base, head, baseDocument, headDocument },
    {
      record: (change) => found.push(`${change.kind} ${change.impact} ${change.pointer} (${change.usedBy.join(', ')})`),
      compareSchemas: (_b, _h, where, direction) => found.push(`schemas ${where.head} ${direction} (${where.use})`),
      compareContent: (_b, _h, where, direction) => found.push(`content ${where.head} ${direction} (${where.use})`),
    },
  );
  return found;
}

const op = '/paths/~1things~1{id}/post';
const key = 'POST /things/{}';
type Row = [string, OperationRule, (head: JsonObject) => void, string[]];

const rows: Row[] = [
  ['operationId unchanged', operationIdRule, () => {}, []],
  [
    'operationId renamed',
    operationIdRule,
    (h) => {
      operation(h).operationId = 'pokeThing';
    },
    [`operation-id-changed breaking-for-clients ${op}/operationId (${key})`],
  ],
  [
    'security inherited from the document, same',
    securityRule,
    (h) => {
      operation(h).security = [{ bearer: [] }];
    },
    [],
  ],
  [
    'security dropped',
    securityRule,
    (h) => {
      operation(h).security = [];
    },
    [`security-changed breaking-for-both ${op}/security (${key})`],
  ],
  [
    'parameters: a path parameter renamed is the same one; both schemas compared',
    parametersRule,
    (h) => {
      const paths = h.paths as JsonObject;
      paths['/things/{thingId}'] = paths['/things/{id}'] as JsonObject;
      delete paths['/things/{id}'];
      ((paths['/things/{thingId}'] as JsonObject).parameters as JsonObject[])[0] = {
        name: 'thingId',
        in: 'path',
        required: true,
        schema: { type: 'string' },
      };
    },
    [
      `schemas /paths/~1things~1{thingId}/parameters/0/schema request (${key} parameter thingId)`,
      `schemas /components/parameters/Verbose/schema request (${key} parameter verbose)`,
    ],
  ],
  [
    'parameters: one made required, one removed, one added',
    parametersRule,
    (h) => {
      ((h.components as JsonObject).parameters as JsonObject).Verbose = {
        name: 'verbose',
        in: 'query',
        required: true,
        schema: { type: 'boolean' },
      };
      ((h.paths as JsonObject)['/things/{id}'] as JsonObject).parameters = [{ name: 'page', in: 'query', schema: {} }];
    },
    [
      `parameter-removed breaking-for-clients /paths/~1things~1{id}/parameters/0 (${key})`,
      `parameter-made-required breaking-for-clients /components/parameters/Verbose/required (${key})`,
      `schemas /components/parameters/Verbose/schema request (${key} parameter verbose)`,
      `parameter-added breaking-for-servers /paths/~1things~1{id}/parameters/0 (${key})`,
    ],
  ],
  [
    'request body: made required, content compared',
    requestBodyRule,
    (h) => {
      (operation(h).requestBody as JsonObject).required = true;
    },
    [
      `request-body-made-required breaking-for-clients ${op}/requestBody/required (${key})`,
      `content ${op}/requestBody/content request (${key} request body)`,
    ],
  ],
  [
    'request body: removed',
    requestBodyRule,
    (h) => {
      delete operation(h).requestBody;
    },
    [`request-body-removed breaking-for-clients ${op}/requestBody (${key})`],
  ],
  [
    'responses: 404 removed, 409 added, a header no longer required, content compared',
    responsesRule,
    (h) => {
      const responses = operation(h).responses as JsonObject;
      delete responses['404'];
      responses['409'] = { description: 'conflict' };
      (((responses['200'] as JsonObject).headers as JsonObject)['X-Count'] as JsonObject).required = false;
    },
    [
      `response-header-no-longer-required breaking-for-clients ${op}/responses/200/headers/X-Count (${key} 200 response)`,
      `schemas ${op}/responses/200/headers/X-Count/schema response (${key} 200 response)`,
      `content ${op}/responses/200/content response (${key} 200 response)`,
      `response-status-removed breaking-for-servers ${op}/responses/404 (${key})`,
      `response-status-added breaking-for-clients ${op}/responses/409 (${key})`,
    ],
  ],
  [
    'responses: a success status removed breaks both',
    responsesRule,
    (h) => {
      delete (operation(h).responses as JsonObject)['200'];
    },
    [
      `response-status-removed breaking-for-both ${op}/responses/200 (${key})`,
      // The 404 is in both: its (absent) content is still handed on.
      `content ${op}/responses/404/content response (${key} 404 response)`,
    ],
  ],
];

describe('operation rules, each alone', () => {
  test.each(rows)('%s', (_title, rule, edit, expected) => {
    expect(run(rule, edit)).toEqual(expected);
  });
});
