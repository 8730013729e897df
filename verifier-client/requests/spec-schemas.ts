// Reads the request schemas and examples of an operation out of the document, following local $refs, so nothing restates them.
import {
  getAtPointer,
  getOperation,
  isJsonObject,
  openapiDocument,
  resolvedAt,
  mediaExamples,
  type JsonObject,
} from '../../spec/index.ts';
import type { BodyOperationId, OperationId } from '../../spec/index.ts';

/** A schema node and the pointer it lives at (after following `$ref`s). */
export interface SchemaAt {
  schema: JsonObject;
  pointer: string;
}

/**
 * Follows `$ref`s until a schema that is not a reference.
 * @example resolveSchema('/components/schemas/DeployRequest/properties/category').pointer // '/components/schemas/AgentCategory'
 */
export function resolveSchema(pointer: string): SchemaAt {
  const resolved = resolvedAt(pointer);
  if (!resolved) throw new Error(`no schema at ${pointer}`);
  return { schema: resolved.node, pointer: resolved.pointer };
}

/** The pointer of the JSON request body schema of an operation. */
export function requestSchemaPointer(operationId: BodyOperationId): string {
  const pointer = getOperation(operationId).requestSchemaPointer;
  if (pointer === undefined) throw new Error(`${operationId} takes no request body`);
  return pointer;
}

/** The request body schema of an operation, resolved. */
export function requestSchema(operationId: BodyOperationId): SchemaAt {
  return resolveSchema(requestSchemaPointer(operationId));
}

/**
 * The documented request examples of an operation, richest first (the one with the most fields).
 * @example requestExamples(operationId)[0] // the richest documented example
 */
export function requestExamples(operationId: BodyOperationId): JsonObject[] {
  const pointer = requestSchemaPointer(operationId).replace(/\/schema$/, '');
  const media = getAtPointer(openapiDocument, pointer);
  if (!isJsonObject(media)) return [];
  const values: JsonObject[] = [];
  for (const { name, value } of mediaExamples(media, pointer))
    if (name !== undefined && isJsonObject(value)) values.push(value);
  return values.sort((a, b) => Object.keys(b).length - Object.keys(a).length);
}

/**
 * The JSON body schema of one documented response of an operation, resolved.
 * @example responseSchema(operationId, 200).pointer // '/components/schemas/Agent' for the retrieve
 */
export function responseSchema(operationId: OperationId, status: number): SchemaAt {
  const response = getOperation(operationId).responses.get(status);
  const mediaType = response?.mediaTypes[0];
  if (!response || mediaType === undefined) throw new Error(`${operationId} documents no ${status} body`);
  return resolveSchema(`${response.pointer}/content/${mediaType.replace('/', '~1')}/schema`);
}

/** The properties of an object schema, each resolved, in document order. */
export function propertiesOf(at: SchemaAt): Array<{ name: string; at: SchemaAt; required: boolean }> {
  const properties = isJsonObject(at.schema.properties) ? at.schema.properties : {};
  const required = Array.isArray(at.schema.required) ? at.schema.required : [];
  return Object.keys(properties).map((name) => ({
    name,
    at: resolveSchema(`${at.pointer}/properties/${name}`),
    required: required.includes(name),
  }));
}

/**
 * A number schema's bounds: `minimum` (else `exclusiveMinimum`) and `maximum` (else `exclusiveMaximum`).
 * @example numericBounds({ minimum: 0, exclusiveMaximum: 1 }) // { low: 0, high: 1 }
 */
export function numericBounds(schema: JsonObject): { low: number | undefined; high: number | undefined } {
  const bound = (inclusive: unknown, exclusive: unknown): number | undefined =>
    typeof inclusive === 'number' ? inclusive : typeof exclusive === 'number' ? exclusive : undefined;
  return { low: bound(schema.minimum, schema.exclusiveMinimum), high: bound(schema.maximum, schema.exclusiveMaximum) };
}
