import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { openapiDocument } from './openapi-document.generated.ts';
import { getAtPointer, isJsonObject, type JsonValue } from './json-pointer.ts';
import { walkOperations } from './operations.ts';

function collectRefs(value: JsonValue, at: string, into: [string, string][]): void {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) collectRefs(item, `${at}/${index}`, into);
  } else if (isJsonObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') into.push([at, child]);
      else collectRefs(child, `${at}/${key}`, into);
    }
  }
}

describe('spec/openapi.yaml', () => {
  it('loads as OpenAPI 3.1 and is what the generated document module holds', async () => {
    const source: unknown = parse(await readFile(new URL('./openapi.yaml', import.meta.url), 'utf8'));
    expect(source).toEqual(openapiDocument);
    expect(openapiDocument.openapi).toBe('3.1.0');
  });

  it('resolves every $ref', () => {
    const refs: [string, string][] = [];
    collectRefs(openapiDocument, '', refs);
    expect(refs.length).toBeGreaterThan(30);
    for (const [at, ref] of refs) {
      expect(ref, `${at} must be a local ref`).toMatch(/^#\//);
      expect(getAtPointer(openapiDocument, ref.slice(1)), `${ref} at ${at}`).toBeDefined();
    }
  });

  it.each([
    ['getAgent', { path: '/v1/agents/{agentId}', method: 'get', success: '200' }],
    ['deployAgent', { path: '/v1/agents/deploy', method: 'post', success: '201' }],
    ['executeAgentTask', { path: '/v1/agents/{agentId}/execute', method: 'post', success: '200' }],
  ] as const)('%s is %s with its success status, bearer security, and /v1 first', (operationId, want) => {
    const operation = getAtPointer(openapiDocument, `/paths/${want.path.replaceAll('/', '~1')}/${want.method}`);
    expect(isJsonObject(operation) && operation.operationId).toBe(operationId);
    expect(
      getAtPointer(
        openapiDocument,
        `/paths/${want.path.replaceAll('/', '~1')}/${want.method}/responses/${want.success}`,
      ),
    ).toBeDefined();
    expect(isJsonObject(operation) && operation.security).toEqual([{ bearerAuth: [] }]);
  });

  it('puts every path of the document under /v1/', () => {
    const paths = Object.keys(isJsonObject(openapiDocument.paths) ? openapiDocument.paths : {});
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path).toMatch(/^\/v1\//);
  });

  it('holds the seed operations and marks every other one as an assumption', () => {
    // The three operations above are the service description's; it shows no others, so an operation the spec adds is
    // the spec's decision and says why in its own `x-assumption` (CONTRIBUTING.md, "Adding an endpoint", step 1).
    const seed = new Set(['getAgent', 'deployAgent', 'executeAgentTask']);
    const records = walkOperations(openapiDocument);
    expect(records.filter((record) => seed.has(record.operationId ?? '')).map((record) => record.operationId)).toEqual(
      expect.arrayContaining([...seed]),
    );
    for (const record of records.filter((record) => !seed.has(record.operationId ?? '')))
      expect(
        record.operation['x-assumption'],
        `spec/openapi.yaml#${record.pointer}: ${record.operationId ?? `${record.method} ${record.path}`} is not an operation of the service description; give it an \`x-assumption\` saying what the spec decides`,
      ).toEqual(expect.any(String));
  });

  it.each([
    ['AgentCategory', ['trading', 'analytics', 'social', 'gaming', 'defi', 'nft', 'automation']],
    ['AgentModel', ['gpt-4', 'gpt-3.5-turbo', 'claude-3', 'llama-2']],
    ['AgentStatus', ['active', 'paused', 'deprecated']],
    ['TaskStatus', ['queued', 'processing', 'completed', 'failed']],
    ['TaskPriority', ['low', 'normal', 'high']],
  ])('enum %s is exactly the seed list', (name, values) => {
    expect(getAtPointer(openapiDocument, `/components/schemas/${name}/enum`)).toEqual(values);
  });

  it('declares a JWT bearer scheme and requires it everywhere', () => {
    expect(getAtPointer(openapiDocument, '/components/securitySchemes/bearerAuth')).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    expect(openapiDocument.security).toEqual([{ bearerAuth: [] }]);
  });

  it.each([
    ['/components/schemas/Performance/properties/averageResponseTime/description', /milliseconds/],
    ['/components/schemas/TaskSubmission/properties/estimatedCompletion/description', /seconds/],
    ['/components/schemas/TaskSubmission/properties/cost/description', /agent tokens/],
    ['/components/schemas/DeployRequest/properties/pricePerToken/description', /SOL/],
    ['/components/schemas/Agent/properties/deployedAt/format', /^date-time$/],
    ['/components/schemas/DeployResult/properties/deployedAt/format', /^date-time$/],
  ])('states the unit or format the seed gives at %s', (pointer, want) => {
    expect(String(getAtPointer(openapiDocument, pointer))).toMatch(want);
  });

  it("keeps revenueShare in 0..1 and parameters free-form, and requires the seed's request fields", () => {
    expect(getAtPointer(openapiDocument, '/components/schemas/DeployRequest/properties/revenueShare')).toMatchObject({
      minimum: 0,
      maximum: 1,
    });
    expect(getAtPointer(openapiDocument, '/components/schemas/ExecuteRequest/properties/parameters')).toMatchObject({
      type: 'object',
      additionalProperties: true,
    });
    expect(getAtPointer(openapiDocument, '/components/schemas/DeployRequest/required')).toEqual([
      'name',
      'category',
      'model',
      'initialSupply',
    ]);
    expect(getAtPointer(openapiDocument, '/components/schemas/ExecuteRequest/required')).toEqual(['task']);
    expect(getAtPointer(openapiDocument, '/components/schemas/TaskPriority/default')).toBe('normal');
  });

  it('serves the local fake backend', () => {
    expect(openapiDocument.servers).toContainEqual(expect.objectContaining({ url: 'http://127.0.0.1:4010' }));
  });
});
