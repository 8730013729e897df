// How the document's schemas are given to an ajv instance (options, $ids, rewrites), shared by the validators
// tools/generate.ts writes at build time (ajv's standalone code) and those compiled at run time for another version of
// the document, so both are the same validators with the same errors. Imports no ajv value: a caller brings its own
// ajv. Only those callers import this module, so no type of the package names ajv (an optional peer).
import type { Ajv2020, ErrorObject, Options } from 'ajv/dist/2020.js';
import { resolveRef } from '../document-refs.ts';
import { escapePointerToken, getAtPointer, isJsonObject, type JsonObject, type JsonValue } from '../json-pointer.ts';
import { NODE_POINTER, rootSchemaPointer, SCHEMA_BASE, type SchemaMode, STRICT_BASE } from './ajv-setup.ts';

/** Keywords whose value is one schema, a list of schemas, or a map from names to schemas (JSON Schema 2020-12). */
const ONE_SCHEMA = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
]);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);

interface Rewrite {
  base: string;
  closeObjects: boolean;
  document: JsonObject;
}

function rewriteSchemas(value: JsonValue, pointer: string, how: Rewrite): JsonValue {
  if (Array.isArray(value)) return value.map((item, index) => rewrite(item, `${pointer}/${index}`, how));
  if (!isJsonObject(value)) return value;
  const copy: JsonObject = {};
  for (const [key, child] of Object.entries(value))
    copy[key] = rewrite(child, `${pointer}/${escapePointerToken(key)}`, how);
  return copy;
}

/** A schema node as ajv is given it: refs made absolute, its own pointer added, objects closed in strict mode. */
function rewrite(value: JsonValue, pointer: string, how: Rewrite): JsonValue {
  if (!isJsonObject(value)) return value;
  const copy: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    const at = `${pointer}/${escapePointerToken(key)}`;
    if (key === '$ref' && typeof child === 'string') copy[key] = how.base + child.replace(/^#/, '');
    else if (ONE_SCHEMA.has(key))
      copy[key] = Array.isArray(child) ? rewriteSchemas(child, at, how) : rewrite(child, at, how);
    else if (SCHEMA_LIST.has(key) || SCHEMA_MAP.has(key)) copy[key] = rewriteSchemas(child, at, how);
    else copy[key] = child;
  }
  copy[NODE_POINTER] = pointer;
  // ajv's useDefaults does not look through $ref, so a default declared on a referenced schema (TaskPriority) is carried beside the ref.
  if (typeof value.$ref === 'string' && copy.default === undefined) {
    const target = resolveRef(value, '', how.document).node;
    if (target.default !== undefined) copy.default = target.default;
  }
  if (how.closeObjects && isJsonObject(copy.properties) && copy.additionalProperties === undefined) {
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

function how(mode: SchemaMode, document: JsonObject): Rewrite {
  return { base: mode === 'strict' ? STRICT_BASE : SCHEMA_BASE, closeObjects: mode === 'strict', document };
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
  ajv.addVocabulary([...extensionKeywords(document, new Set(['x-assumption', 'x-assumed-keywords', NODE_POINTER]))]);
  const base = mode === 'strict' ? STRICT_BASE : SCHEMA_BASE;
  for (const [name, schema] of Object.entries(schemas)) {
    const pointer = `/components/schemas/${escapePointerToken(name)}`;
    const rewritten = rewrite(schema, pointer, how(mode, document));
    if (!isJsonObject(rewritten)) throw new SchemaDefinitionError(pointer, '', 'is not a schema object');
    if (ajv.validateSchema(rewritten) === false) throw invalidSchema(pointer, ajv.errors?.[0]);
    ajv.addSchema({ ...asRoot(rewritten, mode), $id: `${base}/components/schemas/${name}` });
  }
}

/** A schema of the document JSON Schema refuses, with the pointer of its node and the keyword at fault. */
class SchemaDefinitionError extends Error {
  readonly pointer: string;
  readonly keyword: string;

  constructor(pointer: string, keyword: string, reason: string) {
    super(`schema ${pointer}${keyword ? `, keyword ${keyword}` : ''}: ${reason}`);
    this.pointer = pointer;
    this.keyword = keyword;
  }
}

function invalidSchema(pointer: string, error: ErrorObject | undefined): SchemaDefinitionError {
  // The meta-schema's error is about the keyword's value: the last token of its path is the keyword.
  const tokens = (error?.instancePath ?? '').split('/').slice(1);
  const keyword = (tokens.pop() ?? '').replaceAll('~1', '/').replaceAll('~0', '~');
  return new SchemaDefinitionError(
    `${pointer}${tokens.length ? `/${tokens.join('/')}` : ''}`,
    keyword,
    error?.message ?? 'is invalid',
  );
}

/** The first schema node of the document (components, then paths) that has `keyword` as one of its own keys. */
function nodeWithKeyword(node: JsonValue, pointer: string, keyword: string): string | undefined {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) {
      const found = nodeWithKeyword(item, `${pointer}/${index}`, keyword);
      if (found !== undefined) return found;
    }
  } else if (isJsonObject(node)) {
    if (Object.hasOwn(node, keyword)) return pointer;
    for (const [key, child] of Object.entries(node)) {
      const found = nodeWithKeyword(child, `${pointer}/${escapePointerToken(key)}`, keyword);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * An error ajv threw while compiling the document's schemas, as a SchemaDefinitionError naming the schema node and
 * the keyword when ajv's message lets them be found (strict mode names the keyword or the place, not both).
 * @example schemaDefinitionError(new Error('strict mode: unknown keyword: "maxLenght"'), document).pointer // '/components/schemas/Agent/properties/name'
 */
export function schemaDefinitionError(error: unknown, document: JsonObject): Error {
  if (error instanceof SchemaDefinitionError || !(error instanceof Error))
    return error instanceof Error ? error : new Error(String(error));
  const line = error.message.split('\n')[0] ?? '';
  const unknown = /unknown keyword: "([^"]+)"/.exec(line);
  if (unknown?.[1] !== undefined) {
    const keyword = unknown[1];
    const at =
      nodeWithKeyword(document.components ?? {}, '/components', keyword) ??
      nodeWithKeyword(document.paths ?? {}, '/paths', keyword);
    return new SchemaDefinitionError(
      at ?? '(not found)',
      keyword,
      'is not a keyword of JSON Schema 2020-12 (nor an x- extension)',
    );
  }
  const place = /at (?:path )?"(?:(?:https:\/\/agent-registry\.kit\/(?:openapi|strict))([^"#]*))?#([^"]*)"/.exec(line);
  if (place)
    return new SchemaDefinitionError(
      decodeURI(`${place[1] ?? ''}${place[2] ?? ''}`),
      '',
      line.replace(/ at (?:path )?"[^"]*"/, ''),
    );
  return new Error(line);
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
    const rewritten = rewrite(schema, pointer, how(mode, document));
    if (!isJsonObject(rewritten)) throw new Error(`no schema at ${pointer}`);
    ajv.addSchema({ ...asRoot(rewritten, mode), $id: id });
  }
  return id;
}
