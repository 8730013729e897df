// How the document's schemas are given to ajv (options, $ids, rewrites), shared by the validators tools/generate.ts
// writes at build time (ajv's standalone code) and those compiled at run time for another version of the document, so
// both are the same validators with the same errors. Imports no ajv value: a caller brings its own ajv.
import type { Ajv2020, ErrorObject, Options } from 'ajv/dist/2020.js';
import { resolveRef } from '../document-refs.ts';
import { escapePointerToken, getAtPointer, isJsonObject, type JsonObject, type JsonValue } from '../json-pointer.ts';
import { operationsOf } from '../operations.ts';
import { operationParameters } from '../parameters.ts';

/** Schemas are registered as `${SCHEMA_BASE}${pointer}`, so ajv's schemaPath leads back into the document. */
const SCHEMA_BASE = 'https://agent-registry.kit/openapi';
const STRICT_BASE = 'https://agent-registry.kit/strict';

/** How a schema is used: requests get the spec's defaults filled in; responses are only read; strict flags undocumented fields. */
export type SchemaMode = 'request' | 'response' | 'strict';

/** A compiled validator: true when `data` is valid, else false with `errors` set (ajv's ValidateFunction is one). */
export type SchemaValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** Every mode, in the order the generated validators are written. */
export const schemaModes: readonly SchemaMode[] = ['request', 'response', 'strict'];

function rewrite(value: JsonValue, base: string, closeObjects: boolean, document: JsonObject): JsonValue {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, base, closeObjects, document));
  if (!isJsonObject(value)) return value;
  const copy: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    copy[key] =
      key === '$ref' && typeof child === 'string'
        ? base + child.replace(/^#/, '')
        : rewrite(child, base, closeObjects, document);
  }
  // ajv's useDefaults does not look through $ref, so a default declared on a referenced schema (TaskPriority) is carried beside the ref.
  if (typeof value.$ref === 'string' && copy.default === undefined) {
    const target = resolveRef(value, '', document).node;
    if (target.default !== undefined) copy.default = target.default;
  }
  if (closeObjects && isJsonObject(copy.properties) && copy.additionalProperties === undefined) {
    copy.additionalProperties = false;
  }
  return copy;
}

/**
 * A schema registered as a root of its own, without the `default` ajv ignores there (and refuses in strict request
 * mode): a parameter's default (`limit`'s 20) is filled in by the parameter reader, never by ajv.
 */
function asRoot(schema: JsonObject, mode: SchemaMode): JsonObject {
  if (mode !== 'request' || schema.default === undefined) return schema;
  const { default: _, ...rest } = schema;
  return rest;
}

/** Every `x-` keyword the document's schemas use: ajv's strict mode must be told they are annotations. */
function extensionKeywords(value: JsonValue, found: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) extensionKeywords(item, found);
  else if (isJsonObject(value))
    for (const [key, child] of Object.entries(value)) {
      if (key.startsWith('x-')) found.add(key);
      extensionKeywords(child, found);
    }
  return found;
}

/**
 * ajv's options for a mode (`extra` adds to them: the generator's `code` option).
 * @example new Ajv2020(ajvOptions('request', { code: { source: true, esm: true } }))
 */
export function ajvOptions(mode: SchemaMode, extra: Options = {}): Options {
  return { strict: true, allErrors: true, verbose: true, useDefaults: mode === 'request', ...extra };
}

/**
 * Registers the document's vocabulary and every component schema with `ajv` (which has the formats already).
 * @example addDocumentSchemas(ajv, 'response', openapiDocument)
 */
export function addDocumentSchemas(ajv: Ajv2020, mode: SchemaMode, document: JsonObject): void {
  const schemas = getAtPointer(document, '/components/schemas');
  if (!isJsonObject(schemas)) throw new Error('the document has no components.schemas');
  ajv.addVocabulary([...extensionKeywords(document, new Set(['x-assumption', 'x-assumed-keywords']))]);
  const base = mode === 'strict' ? STRICT_BASE : SCHEMA_BASE;
  for (const [name, schema] of Object.entries(schemas)) {
    const rewritten = rewrite(schema, base, mode === 'strict', document);
    if (!isJsonObject(rewritten)) throw new Error(`schema ${name} is not an object`);
    ajv.addSchema({ ...asRoot(rewritten, mode), $id: `${base}/components/schemas/${name}` });
  }
}

/**
 * The $id under which `ajv` (set up by addDocumentSchemas) holds the validator of the schema at `pointer`, adding that
 * schema first when it is not a component schema of its own.
 * @example ajv.getSchema(schemaId(ajv, '/components/schemas/Agent', 'response', openapiDocument))
 */
export function schemaId(ajv: Ajv2020, pointer: string, mode: SchemaMode, document: JsonObject): string {
  const schema = getAtPointer(document, pointer);
  if (!isJsonObject(schema)) throw new Error(`no schema at ${pointer}`);
  const base = mode === 'strict' ? STRICT_BASE : SCHEMA_BASE;
  const root = rootSchemaPointer(pointer, document);
  if (root.startsWith('/components/schemas/') && root.split('/').length === 4) return base + root;
  const id = base + encodeURI(pointer);
  if (ajv.getSchema(id) === undefined) {
    const rewritten = rewrite(schema, base, mode === 'strict', document);
    if (!isJsonObject(rewritten)) throw new Error(`no schema at ${pointer}`);
    ajv.addSchema({ ...asRoot(rewritten, mode), $id: id });
  }
  return id;
}

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
 * Turns an ajv schemaPath back into the pointer of the keyword in the document.
 * @example schemaPathToPointer('https://agent-registry.kit/openapi/components/schemas/Tokenomics/properties/price/minimum', '') // '/components/schemas/Tokenomics/properties/price/minimum'
 */
export function schemaPathToPointer(schemaPath: string, rootPointer: string): string {
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
