// The validator of a schema of the document: for spec/openapi.yaml, the one tools/generate.ts wrote with ajv's standalone
// code (no compile at run time); for another version of the document, or a pointer nobody generated, ajv compiles it
// when first asked for, loaded only then (Node only: a browser gets the generated ones alone).
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { openapiDocument } from '../openapi-document.generated.ts';
import type { JsonObject } from '../json-pointer.ts';
import { addDocumentSchemas, ajvOptions, schemaDefinitionError, schemaId } from './ajv-instance.ts';
import { rootSchemaPointer as rootPointerIn, type SchemaMode, type SchemaValidator } from './ajv-setup.ts';
import { requestValidators, responseValidators, strictValidators } from './schema-validators.generated.ts';

export type { SchemaMode, SchemaValidator } from './ajv-setup.ts';

/** The generated validators of spec/openapi.yaml by pointer, per mode; each table is built when its mode is first used. */
const generated: Record<SchemaMode, () => Readonly<Record<string, SchemaValidator>>> = {
  request: requestValidators,
  response: responseValidators,
  strict: strictValidators,
};

interface CompilerCache {
  instances: Map<SchemaMode, Ajv2020>;
  compiled: Map<string, SchemaValidator>;
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
 * ajv with the formats, loaded on first use: a process that only uses the generated validators never loads it, and an
 * app that never compiles need not install it.
 */
function newAjv(mode: SchemaMode, pointer: string): Ajv2020 {
  const nodeModule = globalThis.process?.getBuiltinModule?.('node:module');
  if (nodeModule === undefined)
    throw new Error(`no generated validator for ${mode} ${pointer}, and ajv compiles at run time only under Node`);
  const require = nodeModule.createRequire(import.meta.url);
  let loaded: [typeof import('ajv/dist/2020.js'), { default: (ajv: Ajv2020) => Ajv2020 }];
  try {
    loaded = [require('ajv/dist/2020.js'), require('ajv-formats')];
  } catch (error) {
    // ajv and ajv-formats are optional peers of the kit: the commands that compile (spec-change) check for them first.
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(
      `compiling the schema at ${pointer} needs ajv and ajv-formats, which are not installed here; run npm install --save-dev ajv@^8 ajv-formats@^3, then try again`,
    );
  }
  const [{ Ajv2020: Ajv }, addFormats] = loaded;
  return addFormats.default(new Ajv(ajvOptions(mode)));
}

/**
 * The validator of the schema at `pointer` (a schema object in the document, `$ref` or inline), generated or compiled
 * once. `document` is spec/openapi.yaml unless another version of it is given.
 * @example getSchemaValidator('/components/schemas/Agent', 'response')(body)
 */
export function getSchemaValidator(
  pointer: string,
  mode: SchemaMode,
  document: JsonObject = openapiDocument,
): SchemaValidator {
  const own = document === openapiDocument ? generated[mode]()[pointer] : undefined;
  if (own !== undefined) return own;
  const { instances, compiled } = cacheOf(document);
  const key = `${mode} ${pointer}`;
  const cached = compiled.get(key);
  if (cached) return cached;
  let ajv = instances.get(mode);
  let validate: SchemaValidator | undefined;
  try {
    if (!ajv) {
      ajv = newAjv(mode, pointer);
      addDocumentSchemas(ajv, mode, document);
      instances.set(mode, ajv);
    }
    validate = ajv.getSchema(schemaId(ajv, pointer, mode, document));
  } catch (error) {
    // Another version of the document may hold a schema JSON Schema refuses: say which, in one line.
    throw schemaDefinitionError(error, document);
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
  return rootPointerIn(pointer, document);
}
