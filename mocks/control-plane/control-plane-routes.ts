// Reads the operations of mocks/control-plane/control-plane.yaml (as generated data) and the schemas of their queries
// and bodies: control-plane-schemas.ts builds the routes from them at run time, tools/generate.ts the validators.
import type { Options } from 'ajv/dist/2020.js';
import { isJsonObject, walkOperations, type JsonObject } from '../../spec/index.ts';
import type { operations } from './control-plane-types.generated.ts';

/** The operationIds of mocks/control-plane/control-plane.yaml. */
export type ControlOperationId = keyof operations;

/** What the control plane's document declares of one operation, besides its validators. */
export interface ControlRoute {
  operationId: ControlOperationId;
  method: string;
  /** Path template, e.g. `/__mock/tasks/{taskId}`. */
  path: string;
  /** Declared query parameters, with whether each is a number (a query string only holds text). */
  queryParameters: { name: string; numeric: boolean }[];
}

const BASE = 'https://agent-registry.kit/control-plane';

/** ajv's options for the control plane's validators (tools/generate.ts compiles them with these). */
export const CONTROL_AJV_OPTIONS = {
  strict: false,
  allErrors: true,
  useDefaults: true,
  validateSchema: false,
} as const satisfies Options;

function resolve(node: JsonObject, document: JsonObject): JsonObject {
  if (typeof node.$ref !== 'string') return node;
  let target: unknown = document;
  for (const token of node.$ref.replace(/^#\//, '').split('/'))
    target = isJsonObject(target) ? target[token] : undefined;
  if (!isJsonObject(target)) throw new Error(`mocks/control-plane/control-plane.yaml: unresolvable $ref ${node.$ref}`);
  return resolve(target, document);
}

interface ControlOperationSchemas {
  spec: ControlRoute;
  /** The schema of its query object, when it declares a query. */
  query: JsonObject | undefined;
  /** The schema of its JSON body, when it takes one. */
  body: JsonObject | undefined;
}

/**
 * Every operation of the document, in document order, with the schemas of its query and body.
 * @example readOperations(controlPlaneDocument).map(({ spec }) => spec.path)
 */
export function readOperations(document: JsonObject): ControlOperationSchemas[] {
  const result: ControlOperationSchemas[] = [];
  for (const { operationId, operation, method, path, pointer } of walkOperations(document)) {
    if (operationId === undefined) continue;
    const query = (Array.isArray(operation.parameters) ? operation.parameters : [])
      .filter(isJsonObject)
      .map((parameter) => resolve(parameter, document))
      .filter((parameter) => parameter.in === 'query' && typeof parameter.name === 'string');
    const properties: JsonObject = {};
    for (const parameter of query) properties[String(parameter.name)] = parameter.schema ?? {};
    const body = isJsonObject(operation.requestBody) ? resolve(operation.requestBody, document) : undefined;
    result.push({
      spec: {
        operationId: operationId as ControlOperationId,
        method,
        path,
        queryParameters: query.map((parameter) => {
          const schema = isJsonObject(parameter.schema) ? resolve(parameter.schema, document) : {};
          return { name: String(parameter.name), numeric: schema.type === 'integer' || schema.type === 'number' };
        }),
      },
      query:
        query.length === 0
          ? undefined
          : {
              $id: `${BASE}/query${encodeURI(pointer)}`,
              type: 'object',
              properties: rebase(properties),
              required: query
                .filter((parameter) => parameter.required === true)
                .map((parameter) => String(parameter.name)),
            },
      body:
        body === undefined
          ? undefined
          : {
              $id: `${BASE}/body${encodeURI(pointer)}`,
              $ref: `${BASE}#${encodeURI(`${pointer}/requestBody/content/application~1json/schema`)}`,
            },
    });
  }
  return result;
}

/**
 * The schemas ajv compiles for the control plane: the document itself (no key: the others refer into it), then each
 * operation's query and body schema, keyed `<operationId> query|body`.
 * @example for (const { key, schema } of controlValidatorSchemas(controlPlaneDocument)) ajv.addSchema(schema);
 */
export function controlValidatorSchemas(document: JsonObject): { key?: string; schema: JsonObject }[] {
  const schemas: { key?: string; schema: JsonObject }[] = [{ schema: { ...document, $id: BASE } }];
  for (const { spec, query, body } of readOperations(document)) {
    if (query) schemas.push({ key: `${spec.operationId} query`, schema: query });
    if (body) schemas.push({ key: `${spec.operationId} body`, schema: body });
  }
  return schemas;
}

/** Makes the document's local `$ref`s absolute, for a schema compiled outside the document. */
function rebase(node: JsonObject): JsonObject {
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') copy[key] = BASE + value;
    else copy[key] = isJsonObject(value) ? rebase(value) : value;
  }
  return copy;
}
