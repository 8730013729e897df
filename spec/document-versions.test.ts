// The validators and the response checker take another version of the document (a spec-change check replays traffic
// through the new one), keep one compiled cache per version, and leave the spec's own answers unchanged.
import { describe, expect, test } from 'vitest';
import { openapiDocument } from './openapi-document.generated.ts';
import { isJsonObject, type JsonObject } from './json-pointer.ts';
import { validatePathParameter, validateRequestBody } from './validators/request-validators.ts';
import { checkResponse } from './validators/response-checker.ts';
import { operationsOf, walkOperations } from './operations.ts';
import { ruleOrigin } from './rule-origin.ts';
import { getSchemaValidator } from './validators/schema-compiler.ts';

function edited(edit: (document: JsonObject) => void): JsonObject {
  const copy = structuredClone(openapiDocument);
  edit(copy);
  return copy;
}

function schema(document: JsonObject, name: string): JsonObject {
  const components = document.components;
  const schemas = isJsonObject(components) && isJsonObject(components.schemas) ? components.schemas : {};
  const found = schemas[name];
  if (!isJsonObject(found)) throw new Error(`no schema ${name}`);
  return found;
}

describe('another version of the document', () => {
  const deploy = { name: 'x', category: 'nft', model: 'gpt-4', initialSupply: 10, revenueShare: 0.8 };

  test('request bodies are validated against that version, the spec itself is unchanged', () => {
    const tighter = edited((document) => {
      const share = schema(document, 'DeployRequest').properties;
      if (isJsonObject(share) && isJsonObject(share.revenueShare)) share.revenueShare.maximum = 0.5;
    });
    expect(validateRequestBody('deployAgent', deploy, { document: tighter })).toEqual({
      ok: false,
      errors: [{ path: '/revenueShare', message: 'must be <= 0.5' }],
    });
    expect(validateRequestBody('deployAgent', deploy).ok).toBe(true);
  });

  test('path parameters and responses too, with rule origins read from that version', () => {
    const shorter = edited((document) => {
      schema(document, 'AgentId').maxLength = 4;
      const status = schema(document, 'AgentStatus');
      status.enum = ['active', 'paused'];
      delete status['x-assumption'];
    });
    expect(validatePathParameter('getAgent', 'agentId', 'agt_123', shorter).ok).toBe(false);
    expect(validatePathParameter('getAgent', 'agentId', 'agt_123').ok).toBe(true);
    const body = JSON.stringify({
      agentId: 'agt_1',
      name: 'n',
      tokenAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
      marketCap: 1,
      holders: 1,
      status: 'deprecated',
      deployedAt: '2026-11-20T14:32:05.000Z',
    });
    const response = { operationId: 'deployAgent' as const, status: 201, contentType: 'application/json', body };
    expect(checkResponse(response).ok).toBe(true);
    const check = checkResponse(response, shorter);
    expect(check.violations.map((v) => [v.pointer, v.specPointer])).toEqual([
      ['/agentId', '/components/schemas/AgentId/maxLength'],
      ['/status', '/components/schemas/AgentStatus/enum'],
    ]);
    expect(ruleOrigin('/components/schemas/AgentId/maxLength', undefined, undefined, shorter)).toBe('assumption');
    expect(operationsOf(shorter).get('getAgent')?.responses.has(404)).toBe(true);
  });

  test('a status the version no longer documents is a violation', () => {
    const no404 = edited((document) => {
      const paths = document.paths;
      const get =
        isJsonObject(paths) && isJsonObject(paths['/v1/agents/{agentId}'])
          ? paths['/v1/agents/{agentId}'].get
          : undefined;
      if (isJsonObject(get) && isJsonObject(get.responses)) delete get.responses['404'];
    });
    const problem = {
      operationId: 'getAgent' as const,
      status: 404,
      contentType: 'application/problem+json',
      body: '{}',
    };
    expect(checkResponse(problem, no404).violations.map((v) => v.rule)).toEqual(['status-documented']);
  });
});

describe('walkOperations', () => {
  const document: JsonObject = {
    openapi: '3.1.0',
    paths: {
      '/b': { post: { operationId: 'makeB', responses: { '201': { $ref: '#/components/responses/Made' } } } },
      '/a/{id}': { $ref: '#/components/pathItems/AItem' },
    },
    components: {
      responses: { Made: { description: 'made' } },
      pathItems: {
        AItem: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          put: { operationId: 'putA', responses: {} },
          get: { responses: { '200': { description: 'an a' } } },
        },
      },
    },
  };

  test('yields every operation of any document in document order, path items and responses after their $ref', () => {
    const records = walkOperations(document);
    expect(records.map(({ operationId, method, path, pointer }) => [operationId, method, path, pointer])).toEqual([
      ['makeB', 'POST', '/b', '/paths/~1b/post'],
      ['putA', 'PUT', '/a/{id}', '/components/pathItems/AItem/put'],
      [undefined, 'GET', '/a/{id}', '/components/pathItems/AItem/get'],
    ]);
    expect(records[0]?.responses).toEqual([
      { status: '201', node: { description: 'made' }, pointer: '/components/responses/Made' },
    ]);
    expect(records[1]?.pathItemPointer).toBe('/components/pathItems/AItem');
    expect([...operationsOf(document).keys()]).toEqual(['makeB', 'putA']);
  });
});

test('a version whose schema JSON Schema refuses is named by schema and keyword, in one line', () => {
  const broken = edited((document) => {
    const name = schema(document, 'Agent').properties;
    if (isJsonObject(name) && isJsonObject(name.name)) name.name.maxLenght = 5;
  });
  expect(() => getSchemaValidator('/components/schemas/Agent', 'response', broken)).toThrow(
    /^schema \/components\/schemas\/Agent\/properties\/name, keyword maxLenght: is not a keyword/,
  );
});
