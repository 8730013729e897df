// What each operation of the document declares (method, path, statuses, media types, headers), read from the document once.
import { openapiDocument } from './openapi-document.generated.ts';
import { resolveRef } from './document-refs.ts';
import { escapePointerToken, isJsonObject, toPointer, type JsonObject } from './json-pointer.ts';
import type { BodyOperationId, OperationId, OperationKey } from './types.ts';

export interface RequiredHeader {
  /** As the document spells it, e.g. `WWW-Authenticate`. */
  name: string;
  /** Pointer of the header object (after following its $ref); its schema is at `${pointer}/schema`. */
  pointer: string;
}

export interface DocumentedResponse {
  status: number;
  /** Pointer of the response object (after following its $ref). */
  pointer: string;
  /** Media types of the response body, e.g. `application/json`. */
  mediaTypes: string[];
  /** Headers the response must carry. */
  requiredHeaders: RequiredHeader[];
  /** Headers the response may carry (`required: false`, as RateLimit-Limit): checked against their schema when sent. */
  optionalHeaders: RequiredHeader[];
  /** The response's own x-assumption, when the response itself is a decision of the spec. */
  assumption: string | undefined;
}

/** The methods an OpenAPI path item can hold, as HTTP spells them. */
export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OperationSpec {
  operationId: OperationId;
  method: HttpMethod;
  /** The path template, e.g. `/v1/agents/{agentId}`. */
  path: string;
  /** Pointer of the operation object in the document. */
  pointer: string;
  /** Names of the path parameters, in order. */
  pathParameters: string[];
  /** Media type of the request body, when there is one. */
  requestMediaType: string | undefined;
  /** Pointer of the request body's schema, when there is one. */
  requestSchemaPointer: string | undefined;
  responses: Map<number, DocumentedResponse>;
}

/** A response of an operation, after its `$ref`, under the status the document writes (`200`, `4XX`, `default`). */
export interface OperationResponseRecord {
  status: string;
  node: JsonObject;
  /** Pointer of the response object (after following its $ref). */
  pointer: string;
}

/**
 * One operation of an OpenAPI document, as walkOperations finds it: what every reader of operations starts from. A
 * reader that needs more of an operation reads it from `operation` (its request body) or adds a field here computed
 * once for every reader (the operation's resolved parameters belong beside `responses`).
 */
export interface OperationRecord {
  /** As the document spells it; undefined when the operation has none. */
  operationId: string | undefined;
  method: HttpMethod;
  /** The path template, e.g. `/v1/agents/{agentId}`. */
  path: string;
  /** Pointer of the operation object (under its path item, after the path item's `$ref`). */
  pointer: string;
  /** The operation object itself. */
  operation: JsonObject;
  /** The path item holding it (after its `$ref`), and where that is: path-level parameters live there. */
  pathItem: JsonObject;
  pathItemPointer: string;
  /** The operation's responses, in document order. */
  responses: OperationResponseRecord[];
}

const HTTP_METHODS: ReadonlySet<string> = new Set(METHODS);

/**
 * Every operation of any OpenAPI document (spec/openapi.yaml, another version of it, the control plane's), in document
 * order: paths as written, and each path item's methods as written. The one walker of `paths` in the kit.
 * @example walkOperations(document).map((record) => `${record.method} ${record.path}`)
 */
export function walkOperations(document: JsonObject): OperationRecord[] {
  const paths = document.paths;
  if (!isJsonObject(paths)) throw new Error('the document has no paths');
  const records: OperationRecord[] = [];
  for (const [path, raw] of Object.entries(paths)) {
    if (!isJsonObject(raw)) continue;
    const { node: pathItem, pointer: pathItemPointer } = resolveRef(raw, toPointer(['paths', path]), document);
    for (const [method, operation] of Object.entries(pathItem)) {
      if (!HTTP_METHODS.has(method) || !isJsonObject(operation)) continue;
      const pointer = `${pathItemPointer}/${method}`;
      const declared = isJsonObject(operation.responses) ? operation.responses : {};
      const responses = Object.entries(declared).flatMap(([status, response]) =>
        isJsonObject(response)
          ? [{ status, ...resolveRef(response, `${pointer}/responses/${escapePointerToken(status)}`, document) }]
          : [],
      );
      records.push({
        operationId: typeof operation.operationId === 'string' ? operation.operationId : undefined,
        method: method.toUpperCase() as HttpMethod,
        path,
        pointer,
        operation,
        pathItem,
        pathItemPointer,
        responses,
      });
    }
  }
  return records;
}

function documentedResponse(record: OperationResponseRecord, document: JsonObject): DocumentedResponse {
  const { node, pointer } = record;
  const headers = isJsonObject(node.headers) ? node.headers : {};
  const documentedHeaders = Object.entries(headers).flatMap(([name, header]) => {
    if (!isJsonObject(header)) return [];
    const resolved = resolveRef(header, `${pointer}/headers/${escapePointerToken(name)}`, document);
    return [{ name, pointer: resolved.pointer, required: resolved.node.required === true }];
  });
  return {
    status: Number(record.status),
    pointer,
    mediaTypes: Object.keys(isJsonObject(node.content) ? node.content : {}),
    requiredHeaders: documentedHeaders
      .filter((header) => header.required)
      .map(({ name, pointer }) => ({ name, pointer })),
    optionalHeaders: documentedHeaders
      .filter((header) => !header.required)
      .map(({ name, pointer }) => ({ name, pointer })),
    assumption: typeof node['x-assumption'] === 'string' ? node['x-assumption'] : undefined,
  };
}

function readOperations(document: JsonObject): Map<OperationId, OperationSpec> {
  const result = new Map<OperationId, OperationSpec>();
  for (const record of walkOperations(document)) {
    const { operation, pointer, path } = record;
    if (record.operationId === undefined) continue;
    const operationId = record.operationId as OperationId;
    const responses = new Map<number, DocumentedResponse>();
    for (const response of record.responses)
      responses.set(Number(response.status), documentedResponse(response, document));
    const requestBody = isJsonObject(operation.requestBody) ? operation.requestBody : undefined;
    const content = requestBody && isJsonObject(requestBody.content) ? requestBody.content : undefined;
    const requestMediaType = content ? Object.keys(content)[0] : undefined;
    result.set(operationId, {
      operationId,
      method: record.method,
      path,
      pointer,
      pathParameters: [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? ''),
      requestMediaType,
      requestSchemaPointer:
        requestMediaType === undefined
          ? undefined
          : `${pointer}/requestBody/content/${escapePointerToken(requestMediaType)}/schema`,
      responses,
    });
  }
  return result;
}

const byDocument = new WeakMap<JsonObject, ReadonlyMap<OperationId, OperationSpec>>();

/**
 * The operations of a version of the document (another than spec/openapi.yaml in a spec-change check), read once.
 * Its operationIds need not be this version's: the type names this version's only.
 * @example operationsOf(baseDocument).has(operationId)
 */
export function operationsOf(document: JsonObject): ReadonlyMap<OperationId, OperationSpec> {
  let found = byDocument.get(document);
  if (!found) {
    found = readOperations(document);
    byDocument.set(document, found);
  }
  return found;
}

/**
 * Every operation of spec/openapi.yaml by operationId.
 * @example [...operations.values()].filter((operation) => operation.responses.has(201)) // the operations that create
 */
// Marked pure: the package's build puts spec/'s modules in one chunk, so an app's bundler keeps this call (and the whole
// document) whenever it keeps anything of that chunk, unless told that an unused result can go.
export const operations: ReadonlyMap<OperationId, OperationSpec> = /* @__PURE__ */ operationsOf(openapiDocument);

/** The operation's spec; throws for an operationId the document does not have. */
export function getOperation(operationId: OperationId, document: JsonObject = openapiDocument): OperationSpec {
  const operation = (document === openapiDocument ? operations : operationsOf(document)).get(operationId);
  if (!operation) throw new Error(`unknown operationId ${operationId}`);
  return operation;
}

/**
 * Whether the operation takes a JSON request body (then it is a `BodyOperationId` and `validateRequestBody` applies).
 * @example if (takesJsonBody(operationId)) validateRequestBody(operationId, body);
 */
export function takesJsonBody(operationId: OperationId): operationId is BodyOperationId {
  return getOperation(operationId).requestMediaType === 'application/json';
}

/**
 * The operation an operationId or a `METHOD /path/{template}` of spec/openapi.yaml names; undefined when none does.
 * @example findOperation('GET /v1/agents/{agentId}')?.operationId // the retrieve operation's id
 */
export function findOperation(key: OperationKey | string): OperationSpec | undefined {
  const byId = operations.get(key as OperationId);
  if (byId) return byId;
  const space = key.indexOf(' ');
  if (space < 0) return undefined;
  const method = key.slice(0, space).toUpperCase();
  const path = key.slice(space + 1);
  for (const operation of operations.values())
    if (operation.method === method && operation.path === path) return operation;
  return undefined;
}
