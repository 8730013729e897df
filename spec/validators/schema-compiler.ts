// Compiles the document's schemas with ajv once per process, each under an $id that is its JSON Pointer in the document.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { resolveRef } from '../document-refs.ts';
import { openapiDocument } from '../openapi-document.generated.ts';
import { getAtPointer, isJsonObject, type JsonObject, type JsonValue } from '../json-pointer.ts';

/** Schemas are registered as `${SCHEMA_BASE}${pointer}`, so ajv's schemaPath leads back into the document. */
const SCHEMA_BASE = 'https://agent-registry.kit/openapi';
const STRICT_BASE = 'https://agent-registry.kit/strict';

/** How a schema is used: requests get the spec's defaults filled in; responses are only read; strict flags undocumented fields. */
export type SchemaMode = 'request' | 'response' | 'strict';

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

function createAjv(mode: SchemaMode, document: JsonObject): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    verbose: true,
    useDefaults: mode === 'request',
  });
  addFormats.default(ajv);
  const schemas = getAtPointer(document, '/components/schemas');
  if (!isJsonObject(schemas)) throw new Error('the document has no components.schemas');
  ajv.addVocabulary([...extensionKeywords(document, new Set(['x-assumption', 'x-assumed-keywords']))]);
  const base = mode === 'strict' ? STRICT_BASE : SCHEMA_BASE;
  for (const [name, schema] of Object.entries(schemas)) {
    const rewritten = rewrite(schema, base, mode === 'strict', document);
    if (!isJsonObject(rewritten)) throw new Error(`schema ${name} is not an object`);
    ajv.addSchema({ ...rewritten, $id: `${base}/components/schemas/${name}` });
  }
  return ajv;
}

interface CompilerCache {
  instances: Map<SchemaMode, Ajv2020>;
  compiled: Map<string, ValidateFunction>;
}
// One cache per version of the document: the spec's own, and any other version a spec-change check loads.
const caches = new WeakMap<JsonObject, CompilerCache>();

function cacheOf(document: JsonObject): CompilerCache {
  let cache = caches.get(document);
  if (!cache) {
    cache = { instances: new Map(), compiled: new Map() };
    caches.set(document, cache);
  }
  return cache;
}

/**
 * The compiled validator of the schema at `pointer` (a schema object in the document, `$ref` or inline), compiled once.
 * `document` is spec/openapi.yaml unless another version of it is given.
 * @example getSchemaValidator('/components/schemas/Agent', 'response')(body)
 */
export function getSchemaValidator(
  pointer: string,
  mode: SchemaMode,
  document: JsonObject = openapiDocument,
): ValidateFunction {
  const { instances, compiled } = cacheOf(document);
  const key = `${mode} ${pointer}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  let ajv = instances.get(mode);
  if (!ajv) {
    ajv = createAjv(mode, document);
    instances.set(mode, ajv);
  }
  const schema = getAtPointer(document, pointer);
  if (!isJsonObject(schema)) throw new Error(`no schema at ${pointer}`);
  const base = mode === 'strict' ? STRICT_BASE : SCHEMA_BASE;
  const root = rootSchemaPointer(pointer, document);
  let validate: ValidateFunction | undefined;
  if (root.startsWith('/components/schemas/') && root.split('/').length === 4) {
    validate = ajv.getSchema(base + root);
  } else {
    const rewritten = rewrite(schema, base, mode === 'strict', document);
    if (!isJsonObject(rewritten)) throw new Error(`no schema at ${pointer}`);
    validate = ajv.compile({ ...rewritten, $id: base + encodeURI(pointer) });
  }
  if (!validate) throw new Error(`could not compile the schema at ${pointer}`);
  compiled.set(key, validate);
  return validate;
}

/**
 * The pointer ajv treats as the root of the schema at `pointer`: the target of a schema that is only a `$ref`.
 * @example rootSchemaPointer('/paths/~1v1~1agents~1deploy/post/requestBody/content/application~1json/schema') // '/components/schemas/DeployRequest'
 */
export function rootSchemaPointer(pointer: string, document: JsonObject = openapiDocument): string {
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
