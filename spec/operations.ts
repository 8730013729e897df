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

function readOperations(document: JsonObject): Map<OperationId, OperationSpec> {
  const result = new Map<OperationId, OperationSpec>();
  const paths = document.paths;
  if (!isJsonObject(paths)) throw new Error('the document has no paths');
  for (const [path, item] of Object.entries(paths)) {
    if (!isJsonObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isJsonObject(operation)) continue;
      const pointer = toPointer(['paths', path, method]);
      const responses = new Map<number, DocumentedResponse>();
      for (const [status, raw] of Object.entries(isJsonObject(operation.responses) ? operation.responses : {})) {
        if (!isJsonObject(raw)) continue;
        const response = resolveRef(raw, toPointer(['paths', path, method, 'responses', status]), document);
        const headers = isJsonObject(response.node.headers) ? response.node.headers : {};
        const documentedHeaders = Object.entries(headers).flatMap(([name, header]) => {
          if (!isJsonObject(header)) return [];
          const resolved = resolveRef(header, `${response.pointer}/headers/${name}`, document);
          return [{ name, pointer: resolved.pointer, required: resolved.node.required === true }];
        });
        responses.set(Number(status), {
          status: Number(status),
          pointer: response.pointer,
          mediaTypes: Object.keys(isJsonObject(response.node.content) ? response.node.content : {}),
          requiredHeaders: documentedHeaders
            .filter((header) => header.required)
            .map(({ name, pointer }) => ({ name, pointer })),
          optionalHeaders: documentedHeaders
            .filter((header) => !header.required)
            .map(({ name, pointer }) => ({ name, pointer })),
          assumption: typeof response.node['x-assumption'] === 'string' ? response.node['x-assumption'] : undefined,
        });
      }
      const requestBody = isJsonObject(operation.requestBody) ? operation.requestBody : undefined;
      const content = requestBody && isJsonObject(requestBody.content) ? requestBody.content : undefined;
      const requestMediaType = content ? Object.keys(content)[0] : undefined;
      result.set(operation.operationId as OperationId, {
        operationId: operation.operationId as OperationId,
        method: method.toUpperCase() as HttpMethod,
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
