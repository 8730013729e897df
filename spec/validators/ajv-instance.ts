// How the document's schemas are given to an ajv instance (options, $ids, rewrites), shared by the validators
// tools/generate.ts writes at build time (ajv's standalone code) and those compiled at run time for another version of
// the document, so both are the same validators with the same errors. Imports no ajv value: a caller brings its own
// ajv. Only those callers import this module, so no type of the package names ajv (an optional peer).
import type { Ajv2020, Options } from 'ajv/dist/2020.js';
import { resolveRef } from '../document-refs.ts';
import { getAtPointer, isJsonObject, type JsonObject, type JsonValue } from '../json-pointer.ts';
import { rootSchemaPointer, SCHEMA_BASE, type SchemaMode, STRICT_BASE } from './ajv-setup.ts';

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
    ajv.addSchema({ ...rewritten, $id: `${base}/components/schemas/${name}` });
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
    ajv.addSchema({ ...rewritten, $id: id });
  }
  return id;
}
