// Maps ajv errors, once for the whole kit, into the `{ path, message }` pairs that problem+json bodies carry.
import type { SchemaError } from './ajv-setup.ts';
import { escapePointerToken } from '../json-pointer.ts';
import type { ValidationError } from '../types.ts';

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
