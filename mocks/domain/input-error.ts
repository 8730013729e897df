// The one error a test's call into the fake throws when what it passed breaks the spec or the fake's rules: the same
// `{ path, message }` list a 400 problem of the API or the control plane carries.
import type { ValidationError } from '../../spec/index.ts';

/**
 * Thrown by seeding, scenarios and `store.deploy` on input the API itself would refuse; `errors` names each field by
 * JSON Pointer.
 * @example try { await api.seedAgent({ name: '' }); } catch (error) { (error as MockInputError).errors[0]?.path; } // '/name'
 */
export class MockInputError extends Error {
  override readonly name = 'MockInputError';
  readonly errors: ValidationError[];
  constructor(what: string, errors: ValidationError[]) {
    super(`${what} is refused: ${errors.map((e) => `${e.path || '(the value)'} ${e.message}`).join('; ')}`);
    this.errors = errors;
  }
}
