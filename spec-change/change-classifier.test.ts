// The classifier on pairs of small specs: each row edits a copy of one small document and names every change the
// classifier must report, with whom it breaks and where.
import { describe, expect, test } from 'vitest';
import { isJsonObject, openapiDocument, type JsonObject, type JsonValue } from '../spec/index.ts';
import { classifyChanges, type Impact } from './change-classifier.ts';

/** A small API: POST /things (a body in, a Thing out), GET /things/{id}; Kind is shared by the request and the response. */
function smallSpec(): JsonObject {
  return {
    openapi: '3.1.0',
    info: { title: 'Things', version: '1' },
    security: [{ bearer: [] }],
    paths: {
      '/things': {
        post: {
          operationId: 'createThing',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/NewThing' } } },
          },
          responses: {
            '201': {
              description: 'made',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
            },
            '400': { description: 'bad', content: { 'application/problem+json': { schema: { type: 'object' } } } },
          },
        },
      },
      '/things/{id}': {
        get: {
          operationId: 'getThing',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 64 } }],
          responses: {
            '200': {
              description: 'found',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
            },
            '404': { description: 'no such thing' },
          },
        },
      },
    },
    components: {
      schemas: {
        Kind: { type: 'string', enum: ['a', 'b'] },
        NewThing: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 100 },
            size: { type: 'integer', minimum: 0, maximum: 10, default: 1 },
            kind: { $ref: '#/components/schemas/Kind' },
            priority: { type: 'string', enum: ['low', 'high'] },
          },
        },
        Thing: {
          type: 'object',
          required: ['id', 'name'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            score: { type: 'number', maximum: 1 },
            kind: { $ref: '#/components/schemas/Kind' },
            state: { type: 'string', enum: ['new', 'old'] },
          },
        },
      },
    },
  };
}

function at(document: JsonObject, path: string[]): JsonObject {
  let node: JsonValue | undefined = document;
  for (const key of path) node = isJsonObject(node) ? node[key] : undefined;
  if (!isJsonObject(node)) throw new Error(`nothing at ${path.join('/')}`);
  return node;
}

const schema = (document: JsonObject, name: string): JsonObject => at(document, ['components', 'schemas', name]);
const property = (document: JsonObject, name: string, field: string): JsonObject =>
  at(document, ['components', 'schemas', name, 'properties', field]);

const newThing = '/components/schemas/NewThing';
const thing = '/components/schemas/Thing';
const getThing = '/paths/~1things~1{id}/get';
const createThing = '/paths/~1things/post';

type Row = [
  title: string,
  edit: (head: JsonObject) => void,
  expected: Array<[kind: string, impact: Impact, pointer: string]>,
];

const rows: Row[] = [
  ['nothing changed', () => {}, []],
  [
    'an operation removed',
    (h) => {
      delete at(h, ['paths'])['/things/{id}'];
    },
    [['operation-removed', 'breaking-for-clients', getThing]],
  ],
  [
    'an operation added',
    (h) => {
      at(h, ['paths', '/things']).get = { operationId: 'listThings', responses: { '200': { description: 'all' } } };
    },
    [['operation-added', 'breaking-for-servers', '/paths/~1things/get']],
  ],
  [
    'a response field removed',
    (h) => {
      delete at(h, ['components', 'schemas', 'Thing', 'properties']).score;
    },
    [['response-field-removed', 'breaking-for-clients', `${thing}/properties/score`]],
  ],
  [
    'an optional response field added',
    (h) => {
      at(h, ['components', 'schemas', 'Thing', 'properties']).colour = { type: 'string' };
    },
    [['response-field-added', 'compatible', `${thing}/properties/colour`]],
  ],
  [
    'a response field made required',
    (h) => {
      schema(h, 'Thing').required = ['id', 'name', 'score'];
    },
    [['field-made-required', 'breaking-for-servers', `${thing}/required`]],
  ],
  [
    'a response field made optional',
    (h) => {
      schema(h, 'Thing').required = ['id'];
    },
    [['field-made-optional', 'breaking-for-clients', `${thing}/required`]],
  ],
  [
    'a request field made required',
    (h) => {
      schema(h, 'NewThing').required = ['name', 'size'];
    },
    [['field-made-required', 'breaking-for-clients', `${newThing}/required`]],
  ],
  [
    'a request field made optional',
    (h) => {
      schema(h, 'NewThing').required = [];
    },
    [['field-made-optional', 'breaking-for-servers', `${newThing}/required`]],
  ],
  [
    'a request field added',
    (h) => {
      at(h, ['components', 'schemas', 'NewThing', 'properties']).colour = { type: 'string' };
    },
    [['request-field-added', 'breaking-for-servers', `${newThing}/properties/colour`]],
  ],
  [
    'a request field removed',
    (h) => {
      delete at(h, ['components', 'schemas', 'NewThing', 'properties']).priority;
    },
    [['request-field-removed', 'breaking-for-clients', `${newThing}/properties/priority`]],
  ],
  [
    'a request enum value removed',
    (h) => {
      property(h, 'NewThing', 'priority').enum = ['high'];
    },
    [['enum-value-removed', 'breaking-for-clients', `${newThing}/properties/priority/enum`]],
  ],
  [
    'a request enum value added',
    (h) => {
      property(h, 'NewThing', 'priority').enum = ['low', 'high', 'urgent'];
    },
    [['enum-value-added', 'breaking-for-servers', `${newThing}/properties/priority/enum`]],
  ],
  [
    'a response enum value removed',
    (h) => {
      property(h, 'Thing', 'state').enum = ['new'];
    },
    [['enum-value-removed', 'breaking-for-servers', `${thing}/properties/state/enum`]],
  ],
  [
    'a response enum value added',
    (h) => {
      property(h, 'Thing', 'state').enum = ['new', 'old', 'gone'];
    },
    [['enum-value-added', 'breaking-for-clients', `${thing}/properties/state/enum`]],
  ],
  [
    'an enum value added to a schema both requests and responses use',
    (h) => {
      schema(h, 'Kind').enum = ['a', 'b', 'c'];
    },
    [['enum-value-added', 'breaking-for-both', '/components/schemas/Kind/enum']],
  ],
  [
    'a request type narrowed (integer to a string only)',
    (h) => {
      property(h, 'NewThing', 'name').type = ['string'];
      property(h, 'NewThing', 'size').type = 'string';
    },
    [['type-changed', 'breaking-for-both', `${newThing}/properties/size/type`]],
  ],
  [
    'a response type widened (number to number or null)',
    (h) => {
      property(h, 'Thing', 'score').type = ['number', 'null'];
    },
    [['type-widened', 'breaking-for-clients', `${thing}/properties/score/type`]],
  ],
  [
    'a response type narrowed (number to integer)',
    (h) => {
      property(h, 'Thing', 'score').type = 'integer';
    },
    [['type-narrowed', 'breaking-for-servers', `${thing}/properties/score/type`]],
  ],
  [
    'a request type widened (integer to number)',
    (h) => {
      property(h, 'NewThing', 'size').type = 'number';
    },
    [['type-widened', 'breaking-for-servers', `${newThing}/properties/size/type`]],
  ],
  [
    'a request bound tightened, another loosened, one added',
    (h) => {
      property(h, 'NewThing', 'size').maximum = 5;
      property(h, 'NewThing', 'name').maxLength = 200;
      property(h, 'NewThing', 'size').multipleOf = 1;
    },
    [
      ['bound-tightened', 'breaking-for-clients', `${newThing}/properties/size/maximum`],
      ['multipleOf-added', 'breaking-for-clients', `${newThing}/properties/size/multipleOf`],
      ['bound-loosened', 'breaking-for-servers', `${newThing}/properties/name/maxLength`],
    ],
  ],
  [
    'a response bound loosened',
    (h) => {
      delete property(h, 'Thing', 'score').maximum;
    },
    [['bound-loosened', 'breaking-for-clients', `${thing}/properties/score/maximum`]],
  ],
  [
    'a path parameter bound tightened',
    (h) => {
      const parameters = at(h, ['paths', '/things/{id}', 'get']).parameters;
      if (Array.isArray(parameters) && isJsonObject(parameters[0]) && isJsonObject(parameters[0].schema))
        parameters[0].schema.maxLength = 8;
    },
    [['bound-tightened', 'breaking-for-clients', `${getThing}/parameters/0/schema/maxLength`]],
  ],
  [
    'a path parameter renamed, nothing else',
    (h) => {
      const paths = at(h, ['paths']);
      const item = at(h, ['paths', '/things/{id}']);
      const parameters = at(item, ['get']).parameters;
      if (Array.isArray(parameters) && isJsonObject(parameters[0])) parameters[0].name = 'thingId';
      delete paths['/things/{id}'];
      paths['/things/{thingId}'] = item;
    },
    [],
  ],
  [
    'an error status removed, the success status removed, a status added',
    (h) => {
      const get = at(h, ['paths', '/things/{id}', 'get', 'responses']);
      delete get['404'];
      get['410'] = { description: 'gone' };
      const post = at(h, ['paths', '/things', 'post', 'responses']);
      post['200'] = post['201'] ?? {};
      delete post['201'];
    },
    [
      ['response-status-removed', 'breaking-for-both', `${createThing}/responses/201`],
      ['response-status-added', 'breaking-for-clients', `${createThing}/responses/200`],
      ['response-status-added', 'breaking-for-clients', `${getThing}/responses/410`],
      ['response-status-removed', 'breaking-for-servers', `${getThing}/responses/404`],
    ],
  ],
  [
    'a request default changed',
    (h) => {
      property(h, 'NewThing', 'size').default = 2;
    },
    [['default-changed', 'breaking-for-both', `${newThing}/properties/size/default`]],
  ],
  [
    'descriptions changed',
    (h) => {
      property(h, 'Thing', 'name').description = 'What it is called.';
    },
    [['documentation-changed', 'compatible', `${thing}/properties/name`]],
  ],
  [
    'a required query parameter added, an optional one added',
    (h) => {
      at(h, ['paths', '/things/{id}', 'get']).parameters = [
        { name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 64 } },
        { name: 'view', in: 'query', required: true, schema: { type: 'string' } },
        { name: 'lang', in: 'query', schema: { type: 'string' } },
      ];
    },
    [
      ['required-parameter-added', 'breaking-for-clients', `${getThing}/parameters/1`],
      ['parameter-added', 'breaking-for-servers', `${getThing}/parameters/2`],
    ],
  ],
  [
    'a request media type removed and another added',
    (h) => {
      const content = at(h, ['paths', '/things', 'post', 'requestBody', 'content']);
      content['application/merge-patch+json'] = content['application/json'] ?? {};
      delete content['application/json'];
    },
    [
      ['request-media-type-removed', 'breaking-for-clients', `${createThing}/requestBody/content/application~1json`],
      [
        'request-media-type-added',
        'breaking-for-servers',
        `${createThing}/requestBody/content/application~1merge-patch+json`,
      ],
    ],
  ],
  [
    'undocumented request fields now rejected',
    (h) => {
      schema(h, 'NewThing').additionalProperties = false;
    },
    [['additional-properties-closed', 'breaking-for-clients', `${newThing}/additionalProperties`]],
  ],
  [
    'a response pattern added',
    (h) => {
      property(h, 'Thing', 'id').pattern = '^t_';
    },
    [['pattern-added', 'breaking-for-servers', `${thing}/properties/id/pattern`]],
  ],
  [
    'the security requirement changed',
    (h) => {
      at(h, ['paths', '/things/{id}', 'get']).security = [];
    },
    [['security-changed', 'breaking-for-both', `${getThing}/security`]],
  ],
];

describe('classifyChanges on pairs of small specs', () => {
  test.each(rows)('%s', (_title, edit, expected) => {
    const base = smallSpec();
    const head = structuredClone(base);
    edit(head);
    const found = classifyChanges(base, head).map((c) => [c.kind, c.impact, c.pointer]);
    expect(found.sort()).toEqual(expected.map((e) => [...e]).sort());
  });

  test('a change reached from a request and a response names both uses', () => {
    const base = smallSpec();
    const head = structuredClone(base);
    schema(head, 'Kind').enum = ['a'];
    const [change] = classifyChanges(base, head);
    expect(change?.usedBy.sort()).toEqual([
      'GET /things/{} 200 response',
      'POST /things 201 response',
      'POST /things request body',
    ]);
  });

  test('the project spec against itself: no change; against a copy with one enum value fewer: that change', () => {
    expect(classifyChanges(openapiDocument, openapiDocument)).toEqual([]);
    const head = structuredClone(openapiDocument);
    schema(head, 'TaskPriority').enum = ['normal', 'high'];
    expect(classifyChanges(openapiDocument, head).map((c) => [c.kind, c.impact, c.pointer])).toEqual([
      ['enum-value-removed', 'breaking-for-clients', '/components/schemas/TaskPriority/enum'],
    ]);
  });
});
