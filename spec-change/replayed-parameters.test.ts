// A recorded request's parameters judged by the new version's parameter reader, in every location the source recorded:
// a header or cookie parameter the new version requires or bounds breaks a call that sent the old one's, and a source
// that recorded no headers is never blamed for one.
import { describe, expect, test } from 'vitest';
import { isJsonObject, openapiDocument, type JsonObject } from '../spec/index.ts';
import { exchangeEvidence } from './report-evidence.ts';
import { replay, type Evidence } from './traffic-replay.ts';

const agentPath = '/v1/agents/{agentId}';

/** The spec with the retrieve gaining `parameters` of its own beside the path's. */
function withRetrieveParameters(...parameters: JsonObject[]): JsonObject {
  const copy = structuredClone(openapiDocument);
  const paths = copy.paths;
  const item = isJsonObject(paths) ? paths[agentPath] : undefined;
  const get = isJsonObject(item) ? item.get : undefined;
  if (!isJsonObject(get)) throw new Error(`no GET ${agentPath}`);
  get.parameters = [...(Array.isArray(get.parameters) ? get.parameters : []), ...parameters];
  return copy;
}

const agentId = '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';

function retrieve(headers: Record<string, string> | undefined): Evidence {
  const exchange = {
    request: { method: 'GET', url: `http://127.0.0.1:4010/v1/agents/${agentId}`, ...(headers ? { headers } : {}) },
    // Only a request the server accepted is replayed; its answer is left out below, it does not matter here.
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: '' },
  };
  const evidence = exchangeEvidence(exchange, 'behaviour/getAgent #0', '', openapiDocument);
  if (!evidence) throw new Error('not evidence');
  return { ...evidence, response: undefined };
}

const tenant = { name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string', maxLength: 4 } };
const depth = { name: 'depth', in: 'cookie', schema: { type: 'integer', maximum: 3 } };

function requestReasons(head: JsonObject, evidence: Evidence): string[][] {
  return replay(openapiDocument, head, [evidence])
    .findings.filter((f) => f.part === 'request')
    .map((f) => f.reasons);
}

describe('the replay judges recorded headers and cookies by the new version', () => {
  test.each([
    ['a required header the old calls did not send', { accept: 'application/json' }, tenant, '/header/X-Tenant'],
    ['a header value past the new bound', { 'X-Tenant': 'acme-corp' }, tenant, '/header/X-Tenant'],
    ['a cookie value past the new bound', { cookie: 'depth=9' }, depth, '/cookie/depth'],
  ])('%s is a break', (_, headers, parameter, pointer) => {
    const reasons = requestReasons(withRetrieveParameters(parameter), retrieve(headers));
    expect(reasons).toHaveLength(1);
    expect(reasons[0]?.[0]).toMatch(new RegExp(`^${pointer} `, 'i'));
  });

  test('values within the new version pass', () => {
    const head = withRetrieveParameters(tenant, depth);
    expect(requestReasons(head, retrieve({ 'x-tenant': 'acme', cookie: 'depth=2' }))).toEqual([]);
  });

  test('a source that recorded no headers is not blamed for a header it may have sent', () => {
    expect(requestReasons(withRetrieveParameters(tenant), retrieve(undefined))).toEqual([]);
  });
});
