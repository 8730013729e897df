// What every validator of the document shares, whoever made it (ajv's standalone code that tools/generate.ts writes at
// build time, or ajv compiling another version of the document at run time): the modes, the validator's and its
// errors' shape, the $id bases that lead an error back into the document, and which schemas are validated. It names
// no ajv type, so the package's types hold without ajv installed (an optional peer); how the schemas are given to an
// ajv instance is ajv-instance.ts.
import { escapePointerToken, getAtPointer, isJsonObject, type JsonObject } from '../json-pointer.ts';
import { operationsOf } from '../operations.ts';
import { operationParameters } from '../parameters/parameters.ts';

/** Schemas are registered as `${SCHEMA_BASE}${pointer}`, so ajv's schemaPath leads back into the document. */
export const SCHEMA_BASE = 'https://agent-registry.kit/openapi';
export const STRICT_BASE = 'https://agent-registry.kit/strict';

/** How a schema is used: requests get the spec's defaults filled in; responses are only read; strict flags undocumented fields. */
export type SchemaMode = 'request' | 'response' | 'strict';

/** One error of a validator, as ajv writes it: ajv's ErrorObject is one (this names only what the kit reads of it). */
export interface SchemaError {
  keyword: string;
  /** JSON Pointer of the data that failed. */
  instancePath: string;
  /** Where the failed keyword is, under the $id bases below. */
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
  /** The failed keyword's value (ajv's `verbose`). */
  schema?: unknown;
  /** The data that failed (ajv's `verbose`). */
  data?: unknown;
  /** The schema node whose keyword failed (ajv's `verbose`). */
  parentSchema?: unknown;
}

/** A compiled validator: true when `data` is valid, else false with `errors` set (ajv's ValidateFunction is one). */
export type SchemaValidator = ((data: unknown) => boolean) & { errors?: SchemaError[] | null };

/** Every mode, in the order the generated validators are written. */
export const schemaModes: readonly SchemaMode[] = ['request', 'response', 'strict'];

/**
 * The annotation every schema node carries into ajv: its own pointer in the document. ajv's schemaPath is relative to
 * the compiled function the error came from (a referenced schema compiled apart starts again at `#`), but an error's
 * parentSchema is the node whose keyword failed, in the generated validators as in those compiled at run time.
 */
export const NODE_POINTER = 'x-kit-schema-pointer';

/**
 * The pointer ajv treats as the root of the schema at `pointer`: the target of a schema that is only a `$ref`.
 * @example rootSchemaPointer('/paths/~1v1~1agents~1deploy/post/requestBody/content/application~1json/schema', openapiDocument) // '/components/schemas/DeployRequest'
 */
export function rootSchemaPointer(pointer: string, document: JsonObject): string {
  const schema = getAtPointer(document, pointer);
  if (isJsonObject(schema) && typeof schema.$ref === 'string' && Object.keys(schema).length === 1) {
    return rootSchemaPointer(schema.$ref.replace(/^#/, ''), document);
  }
  return pointer;
}

/**
 * The pointer in the document of the keyword an ajv error is about, at any depth: inside an array's items, through a
 * chain of `$ref`s, in a branch of `allOf`/`oneOf`/`anyOf`, under `additionalProperties` or `prefixItems`, it is the
 * keyword of the schema node that failed (read from the node's own pointer, which `rewrite` gave it), not a path read
 * against the root. `rootPointer` (the schema validated, after its `$ref`) places an error of a node with no pointer
 * of its own (a `false` schema), from ajv's schemaPath.
 * @example keywordPointerOf(validate.errors[0]) // '/components/schemas/Agent/required' for an item of a list missing a field
 */
export function keywordPointerOf(error: SchemaError, rootPointer = ''): string {
  const node: unknown = error.parentSchema;
  if (isJsonObject(node) && typeof node[NODE_POINTER] === 'string')
    return `${node[NODE_POINTER]}/${escapePointerToken(error.keyword)}`;
  const { schemaPath } = error;
  if (schemaPath.startsWith('#')) return rootPointer + decodeURI(schemaPath.slice(1));
  for (const base of [SCHEMA_BASE, STRICT_BASE]) {
    if (schemaPath.startsWith(base)) return decodeURI(schemaPath.slice(base.length).replace('#', ''));
  }
  return schemaPath;
}

/**
 * The schemas the kit validates against, by mode: what the validators of spec/ ask for (request: request bodies and
 * every parameter; response: response bodies and headers, every component schema and each of its properties, for
 * validateSchema; strict: the response bodies and the component schemas they are).
 * tools/generate.ts writes a validator for each; any other pointer is compiled when first asked for.
 * @example validatedSchemaPointers(openapiDocument).request // ['/components/parameters/AgentId/schema', …]
 */
export function validatedSchemaPointers(document: JsonObject): Record<SchemaMode, string[]> {
  const request = new Set<string>();
  const bodies = new Set<string>();
  const headers = new Set<string>();
  for (const operation of operationsOf(document).values()) {
    if (operation.requestSchemaPointer !== undefined) request.add(operation.requestSchemaPointer);
    for (const parameter of operationParameters(operation.pointer, document)) request.add(parameter.schemaPointer);
    for (const response of operation.responses.values()) {
      for (const mediaType of response.mediaTypes) {
        const body = `${response.pointer}/content/${mediaType.replace('/', '~1')}/schema`;
        bodies.add(body).add(rootSchemaPointer(body, document));
      }
      for (const header of [...response.requiredHeaders, ...response.optionalHeaders])
        headers.add(`${header.pointer}/schema`);
    }
  }
  const schemas = new Set<string>();
  const components = getAtPointer(document, '/components/schemas');
  for (const [name, schema] of Object.entries(isJsonObject(components) ? components : {})) {
    schemas.add(`/components/schemas/${name}`);
    const own = isJsonObject(schema) && isJsonObject(schema.properties) ? schema.properties : {};
    for (const property of Object.keys(own))
      schemas.add(`/components/schemas/${name}/properties/${escapePointerToken(property)}`);
  }
  const sorted = (...sets: Set<string>[]): string[] => [...new Set(sets.flatMap((set) => [...set]))].sort();
  return { request: sorted(request), response: sorted(bodies, headers, schemas), strict: sorted(bodies) };
}
