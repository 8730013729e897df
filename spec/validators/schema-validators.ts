// Validates any value against one of the document's component schemas, as it is (no defaults filled in).
import { getSchemaValidator } from './schema-compiler.ts';
import { toFieldErrors } from './field-errors.ts';
import type { ValidationResult } from './request-validators.ts';

export interface ValidateSchemaOptions {
  /** Also refuse properties the schema does not document (default false: they are allowed, as in responses). */
  strict?: boolean;
}

/**
 * Validates `value` against `#/components/schemas/<path>`; `path` is a schema name, or a pointer below one
 * (`TaskSubmission/properties/cost`). The value is never changed. Errors are `{ path, message }` with JSON Pointers.
 * @example validateSchema('Agent', JSON.parse(text), { strict: true }).ok
 */
export function validateSchema(
  path: string,
  value: unknown,
  options: ValidateSchemaOptions = {},
): ValidationResult<unknown> {
  const validate = getSchemaValidator(`/components/schemas/${path}`, options.strict ? 'strict' : 'response');
  if (validate(value)) return { ok: true, value };
  return { ok: false, errors: toFieldErrors(validate.errors ?? []) };
}
