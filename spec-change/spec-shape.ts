// What spec-change needs of a version before it compares or replays anything: bounded nesting, only local `$ref`s that
// resolve and never loop on themselves, components.schemas, and schemas ajv can compile. A version that breaks one is
// refused in one line (exit 2) instead of a stack trace.
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { escapePointerToken, getAtPointer, isJsonObject, type JsonObject, type JsonValue } from '../spec/index.ts';
import { getSchemaValidator } from '../spec/validators/schema-compiler.ts';

let metaSchema: Ajv2020 | undefined;
/**
 * ajv, asked only which schema its meta-schema rejects once one failed to compile: loaded then, as the schema
 * compiler loads it (ajv is an optional peer, which the spec-change command checks for before it starts).
 */
function metaSchemaCheck(): Ajv2020 {
  if (metaSchema === undefined) {
    const { Ajv2020: Ajv } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    metaSchema = new Ajv({ strict: false });
  }
  return metaSchema;
}

/** Deeper documents are refused: the comparisons recurse, and no real spec comes near it. */
const maxNesting = 200;

type Visit = (value: JsonValue, pointer: string, key: string) => string | undefined;

/** Walks every value without recursion (so depth cannot overflow the stack); stops at the first problem `visit` names. */
function walk(document: JsonObject, visit: Visit): string | undefined {
  const stack: Array<[JsonValue, string, string, number]> = [[document, '', '', 0]];
  while (stack.length > 0) {
    const [value, pointer, key, depth] = stack.pop() as [JsonValue, string, string, number];
    if (depth > maxNesting) return `nested deeper than ${maxNesting} levels (at ${pointer.slice(0, 120)}…)`;
    const problem = visit(value, pointer, key);
    if (problem !== undefined) return problem;
    if (Array.isArray(value))
      for (const [index, item] of value.entries()) stack.push([item, `${pointer}/${index}`, '', depth + 1]);
    else if (isJsonObject(value))
      for (const [name, child] of Object.entries(value))
        stack.push([child, `${pointer}/${escapePointerToken(name)}`, name, depth + 1]);
  }
  return undefined;
}

/** A `$ref` that is only a chain of `$ref`s back to itself can never be resolved. */
function refLoop(document: JsonObject, start: string): boolean {
  const seen = new Set<string>();
  let ref: string | undefined = start;
  while (ref !== undefined) {
    if (seen.has(ref)) return true;
    seen.add(ref);
    const target = getAtPointer(document, ref.slice(1));
    ref = isJsonObject(target) && typeof target.$ref === 'string' ? target.$ref : undefined;
  }
  return false;
}

function refProblem(document: JsonObject, value: JsonValue, pointer: string): string | undefined {
  if (!isJsonObject(value) || !('$ref' in value)) return undefined;
  const ref = value.$ref;
  if (typeof ref !== 'string' || !(ref === '#' || ref.startsWith('#/')))
    return `the $ref at ${pointer} is ${JSON.stringify(ref).slice(0, 120)}, not a reference inside the document (#/…); spec-change reads no other file or URL`;
  let target: JsonValue | undefined;
  try {
    target = getAtPointer(document, ref.slice(1));
  } catch {
    target = undefined;
  }
  if (target === undefined)
    return `the $ref at ${pointer} points at ${ref.slice(0, 120)}, which is not in the document`;
  if (refLoop(document, ref))
    return `the $ref at ${pointer} (${ref.slice(0, 120)}) is a loop of $refs that never reaches a schema`;
  return undefined;
}

/** The first schema ajv cannot compile, by its first message (ajv repeats one mistake under several keywords). */
function schemaProblem(document: JsonObject, schemaPointers: readonly string[]): string | undefined {
  for (const pointer of schemaPointers) {
    try {
      getSchemaValidator(pointer, 'response', document);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
      // ajv checks every named schema when the first is compiled: name the one its meta-schema rejects.
      const culprit = schemaPointers.find((candidate) => {
        const schema = getAtPointer(document, candidate);
        return isJsonObject(schema) && metaSchemaCheck().validateSchema(schema) === false;
      });
      return `the schema at ${culprit ?? pointer} is invalid (${message
        .replace(/^schema is invalid: /, '')
        .split(', ')[0]
        ?.slice(0, 200)})`;
    }
  }
  return undefined;
}

/**
 * Why spec-change cannot use `document`, in words, or undefined when it can.
 * @example checkDocumentShape({ openapi: '3.1.0', paths: {} }) // 'it has no components.schemas …'
 */
export function checkDocumentShape(document: JsonObject): string | undefined {
  const schemaPointers: string[] = [];
  const problem = walk(document, (value, pointer, key) => {
    if (key === 'schema' && isJsonObject(value) && !pointer.startsWith('/components/schemas/'))
      schemaPointers.push(pointer);
    return refProblem(document, value, pointer);
  });
  if (problem !== undefined) return problem;
  const schemas = getAtPointer(document, '/components/schemas');
  if (!isJsonObject(schemas))
    return 'it has no components.schemas (an object of named schemas); spec-change compares and validates with them';
  for (const name of Object.keys(schemas)) schemaPointers.unshift(`/components/schemas/${escapePointerToken(name)}`);
  return schemaProblem(document, schemaPointers);
}
