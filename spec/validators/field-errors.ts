// Maps ajv errors, once for the whole kit, into the `{ path, message }` pairs that problem+json bodies carry, and into
// the rule of the document each breaks, with that rule's origin.
import { escapePointerToken, type JsonObject } from '../json-pointer.ts';
import { openapiDocument } from '../openapi-document.generated.ts';
import { ruleOrigin, type RuleOrigin } from '../rule-origin.ts';
import type { SchemaError } from './ajv-setup.ts';
import type { ValidationError } from '../types.ts';
import { keywordPointerOf } from './ajv-setup.ts';

/** The rule of the document an ajv error breaks. */
export interface ErrorRule {
  /** The keyword's pointer in the document, in the schema node that failed: `/components/schemas/Agent/required`. */
  keywordPointer: string;
  /** `seed` when the service description states the keyword (for `required`, the missing member), else `assumption`. */
  origin: RuleOrigin;
  /** For a `required` error, the missing property: origin is decided per member, not per keyword. */
  member: string | undefined;
}

/**
 * The rule an ajv error breaks and its origin, whatever the depth of the failing node: every checker of the kit (the
 * response and request checkers, so the proxy, the contract suite, `pact verify`, diff and spec-change) labels a
 * violation through this one function. `rootPointer` is the validated schema's pointer after its `$ref`; `document` is
 * spec/openapi.yaml unless another version of it is given.
 * @example errorRule(validate.errors[0], '/components/schemas/AgentPage') // { keywordPointer: '/components/schemas/Agent/required', origin: 'seed', member: 'tokenomics' }
 */
export function errorRule(error: SchemaError, rootPointer: string, document: JsonObject = openapiDocument): ErrorRule {
  const keywordPointer = keywordPointerOf(error, rootPointer);
  const params = error.params as Record<string, unknown>;
  const member =
    error.keyword === 'required' && typeof params.missingProperty === 'string' ? params.missingProperty : undefined;
  return { keywordPointer, origin: ruleOrigin(keywordPointer, error.data, member, document), member };
}

/**
 * `errorRule` for many errors of one validation: a long array of wrong items breaks the same few keywords again and
 * again, so each keyword's origin is looked up once (the lookup walks the node and its ancestors in the document; for
 * 100,000 errors it was most of the check's time, docs/performance.md). The map costs one entry per distinct keyword,
 * missing member and data kind (number or not) among the errors: a handful, not one per error.
 * @example const ruleOf = errorRules('/components/schemas/Agent'); for (const error of validate.errors ?? []) ruleOf(error);
 */
export function errorRules(
  rootPointer: string,
  document: JsonObject = openapiDocument,
): (error: SchemaError) => ErrorRule {
  const origins = new Map<string, RuleOrigin>();
  return (error) => {
    const keywordPointer = keywordPointerOf(error, rootPointer);
    const params = error.params as Record<string, unknown>;
    const member =
      error.keyword === 'required' && typeof params.missingProperty === 'string' ? params.missingProperty : undefined;
    // ruleOrigin reads the data only to tell a number from anything else (an assumed `type: integer`).
    const key = `${typeof error.data === 'number'} ${member ?? ''} ${keywordPointer}`;
    let origin = origins.get(key);
    if (origin === undefined) {
      origin = ruleOrigin(keywordPointer, error.data, member, document);
      origins.set(key, origin);
    }
    return { keywordPointer, origin, member };
  };
}

/** The JSON Pointer of the data an ajv error is about (the missing property itself for `required`). */
export function errorDataPointer(error: SchemaError): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    return `${error.instancePath}/${escapePointerToken(params.missingProperty)}`;
  }
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return `${error.instancePath}/${escapePointerToken(params.additionalProperty)}`;
  }
  return error.instancePath;
}

/** A message a person can act on, e.g. `must be one of low, normal, high`. */
export function errorMessage(error: SchemaError): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'enum':
      return `must be one of ${(Array.isArray(params.allowedValues) ? params.allowedValues : []).join(', ')}`;
    case 'type':
      return `must be ${params.type === 'integer' ? 'an integer' : `a${/^[aeiou]/.test(String(params.type)) ? 'n' : ''} ${String(params.type)}`}`;
    case 'additionalProperties':
      return 'is not a documented field';
    default:
      return error.message ?? `breaks the ${error.keyword} rule`;
  }
}

/**
 * The `{ path, message }` list for a failed validation; `prefix` places the pointers (`/path` for path parameters).
 * @example toFieldErrors(validate.errors ?? []) // [{ path: '/revenueShare', message: 'must be <= 1' }]
 */
export function toFieldErrors(errors: readonly SchemaError[], prefix = ''): ValidationError[] {
  const seen = new Set<string>();
  const result: ValidationError[] = [];
  for (const error of errors) {
    const entry = { path: prefix + errorDataPointer(error), message: errorMessage(error) };
    const key = `${entry.path}\n${entry.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(entry);
  }
  return result;
}
