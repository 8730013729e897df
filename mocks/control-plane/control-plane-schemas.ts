// Reads mocks/control-plane/control-plane.yaml (as generated data) once: its routes, and ajv validators of its queries and bodies.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  escapePointerToken,
  isJsonObject,
  toFieldErrors,
  type JsonObject,
  type ValidationError,
} from '../../spec/index.ts';
import { controlPlaneDocument } from './control-plane-document.generated.ts';
import type { operations } from './control-plane-types.generated.ts';

/** The operationIds of mocks/control-plane/control-plane.yaml. */
export type ControlOperationId = keyof operations;

/** What the control plane's document declares of one operation. */
export interface ControlOperationSpec {
  operationId: ControlOperationId;
  method: string;
  /** Path template, e.g. `/__mock/tasks/{taskId}`. */
  path: string;
  /** Declared query parameters, with whether each is a number (a query string only holds text). */
  queryParameters: { name: string; numeric: boolean }[];
  /** Validates the query object (defaults filled in); undefined when the operation declares no query. */
  validateQuery: ValidateFunction | undefined;
  /** Validates the JSON body; undefined when the operation takes none. */
  validateBody: ValidateFunction | undefined;
}

const BASE = 'https://agent-registry.kit/control-plane';
const ajv = new Ajv2020({ strict: false, allErrors: true, useDefaults: true, validateSchema: false });
addFormats.default(ajv);
ajv.addSchema({ ...controlPlaneDocument, $id: BASE });

function resolve(node: JsonObject): JsonObject {
  if (typeof node.$ref !== 'string') return node;
  let target: unknown = controlPlaneDocument;
  for (const token of node.$ref.replace(/^#\//, '').split('/'))
    target = isJsonObject(target) ? target[token] : undefined;
  if (!isJsonObject(target)) throw new Error(`mocks/control-plane/control-plane.yaml: unresolvable $ref ${node.$ref}`);
  return resolve(target);
}

function readOperations(): ControlOperationSpec[] {
  const result: ControlOperationSpec[] = [];
  const paths = isJsonObject(controlPlaneDocument.paths) ? controlPlaneDocument.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isJsonObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!isJsonObject(operation) || typeof operation.operationId !== 'string') continue;
      const pointer = `/paths/${escapePointerToken(path)}/${method}`;
      const query = (Array.isArray(operation.parameters) ? operation.parameters : [])
        .filter(isJsonObject)
        .map(resolve)
        .filter((parameter) => parameter.in === 'query' && typeof parameter.name === 'string');
      const properties: JsonObject = {};
      for (const parameter of query) properties[String(parameter.name)] = parameter.schema ?? {};
      const body = isJsonObject(operation.requestBody) ? resolve(operation.requestBody) : undefined;
      result.push({
        operationId: operation.operationId as ControlOperationId,
        method: method.toUpperCase(),
        path,
        queryParameters: query.map((parameter) => {
          const schema = isJsonObject(parameter.schema) ? resolve(parameter.schema) : {};
          return { name: String(parameter.name), numeric: schema.type === 'integer' || schema.type === 'number' };
        }),
        validateQuery:
          query.length === 0
            ? undefined
            : ajv.compile({
                $id: `${BASE}/query${encodeURI(pointer)}`,
                type: 'object',
                properties: rebase(properties),
                required: query
                  .filter((parameter) => parameter.required === true)
                  .map((parameter) => String(parameter.name)),
              }),
        validateBody:
          body === undefined
            ? undefined
            : ajv.compile({ $ref: `${BASE}#${encodeURI(`${pointer}/requestBody/content/application~1json/schema`)}` }),
      });
    }
  }
  return result;
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

/**
 * Every operation of mocks/control-plane/control-plane.yaml, in document order.
 * @example controlOperations.find((operation) => operation.operationId === 'getClock')?.path // '/__mock/clock'
 */
export const controlOperations: readonly ControlOperationSpec[] = readOperations();

/**
 * Turns a query string into the operation's query object (numbers where the schema says so) and validates it.
 * @example parseQuery(listAgents, 'limit=5') // { ok: true, value: { limit: 5, offset: 0 } }
 */
export function parseQuery(
  operation: ControlOperationSpec,
  query: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; errors: ValidationError[] } {
  const value: Record<string, unknown> = {};
  if (!operation.validateQuery) return { ok: true, value };
  const search = new URLSearchParams(query);
  for (const { name, numeric } of operation.queryParameters) {
    const raw = search.get(name);
    if (raw === null) continue;
    value[name] = numeric && /^-?\d{1,15}(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  }
  if (operation.validateQuery(value)) return { ok: true, value };
  return { ok: false, errors: toFieldErrors(operation.validateQuery.errors ?? [], '/query') };
}

/**
 * Validates a parsed JSON body against the operation's request schema (defaults filled in).
 * @example validateBody(advanceClock, { seconds: -1 }) // { ok: false, errors: [{ path: '/seconds', … }] }
 */
export function validateBody(
  operation: ControlOperationSpec,
  body: unknown,
): { ok: true; value: unknown } | { ok: false; errors: ValidationError[] } {
  if (!operation.validateBody || operation.validateBody(body)) return { ok: true, value: body };
  return { ok: false, errors: toFieldErrors(operation.validateBody.errors ?? []) };
}
