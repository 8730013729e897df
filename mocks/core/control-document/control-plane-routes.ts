// Reads the operations of mocks/control-plane/control-plane.yaml (as generated data) and the schemas of their queries
// and bodies: control-plane-schemas.ts builds the routes from them at run time, tools/generate.ts the validators.
import type { Options } from 'ajv/dist/2020.js';
import { isJsonObject, operationParameters, walkOperations, type JsonObject } from '../../../spec/index.ts';
import type { operations } from './control-plane-types.generated.ts';

/** The operationIds of mocks/control-plane/control-plane.yaml. */
export type ControlOperationId = keyof operations;

/** What the control plane's document declares of one operation, besides its validators. */
export interface ControlRoute {
  operationId: ControlOperationId;
  method: string;
  /** Path template, e.g. `/__mock/tasks/{taskId}`. */
  path: string;
  /** Pointer of the operation object in the document: its parameters are read there (spec's operationParameters). */
  pointer: string;
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
  /** The schema of its JSON body, when it takes one. */
  body: JsonObject | undefined;
}

/**
 * Every operation of the document, in document order, with the schema of its body.
 * @example readOperations(controlPlaneDocument).map(({ spec }) => spec.path)
 */
export function readOperations(document: JsonObject): ControlOperationSchemas[] {
  const result: ControlOperationSchemas[] = [];
  for (const { operationId, operation, method, path, pointer } of walkOperations(document)) {
    if (operationId === undefined) continue;
    const body = isJsonObject(operation.requestBody) ? resolve(operation.requestBody, document) : undefined;
    result.push({
      spec: { operationId: operationId as ControlOperationId, method, path, pointer },
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
 * parameter's schema (keyed `parameter <pointer>`, for the spec's parameter reader) and each body's (`<operationId> body`).
 * @example for (const { key, schema } of controlValidatorSchemas(controlPlaneDocument)) ajv.addSchema(schema);
 */
export function controlValidatorSchemas(document: JsonObject): { key?: string; schema: JsonObject }[] {
  const schemas: { key?: string; schema: JsonObject }[] = [{ schema: { ...document, $id: BASE } }];
  for (const { spec, body } of readOperations(document)) {
    for (const { schemaPointer } of operationParameters(spec.pointer, document))
      schemas.push({
        key: `parameter ${schemaPointer}`,
        schema: { $id: `${BASE}/parameter${encodeURI(schemaPointer)}`, $ref: `${BASE}#${encodeURI(schemaPointer)}` },
      });
    if (body) schemas.push({ key: `${spec.operationId} body`, schema: body });
  }
  return schemas;
}
