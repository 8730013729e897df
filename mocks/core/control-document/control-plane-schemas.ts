// The control plane's routes, read from mocks/control-plane/control-plane.yaml (as generated data) once, with the
// spec's parameter reader over their parameters and the validators of their bodies, which tools/generate.ts writes as
// ajv standalone code.
import {
  createParameterReader,
  operationParameters,
  toFieldErrors,
  type ParameterReader,
  type ValidationError,
} from '../../../spec/index.ts';
import type { SchemaValidator } from '../../../spec/validators/ajv-setup.ts';
import { controlPlaneDocument } from './control-plane-document.generated.ts';
import { readOperations, type ControlRoute } from './control-plane-routes.ts';
import { controlValidators } from './control-plane-validators.generated.ts';

export type { ControlOperationId } from './control-plane-routes.ts';

/** What the control plane's document declares of one operation. */
export interface ControlOperationSpec extends ControlRoute {
  /** Reads its path and query parameters with the spec's one parameter reader (defaults filled in). */
  readParameters: ParameterReader;
  /** Validates the JSON body; undefined when the operation takes none. */
  validateBody: SchemaValidator | undefined;
}

const parameterValidators = {
  validatorOf: (pointer: string) => generated(`parameter ${pointer}`),
  rootOf: (pointer: string) => pointer,
};

/**
 * Every operation of mocks/control-plane/control-plane.yaml, in document order.
 * @example controlOperations.find((operation) => operation.operationId === 'mockGetClock')?.path // '/__mock/clock'
 */
export const controlOperations: readonly ControlOperationSpec[] = readOperations(controlPlaneDocument).map(
  ({ spec, body }) => ({
    ...spec,
    readParameters: createParameterReader(operationParameters(spec.pointer, controlPlaneDocument), parameterValidators),
    validateBody: body && generated(`${spec.operationId} body`),
  }),
);

function generated(key: string): SchemaValidator {
  const validate = controlValidators()[key];
  if (validate === undefined)
    throw new Error(`no generated validator for the control plane's ${key}: run npm run generate`);
  return validate;
}

/**
 * Validates a parsed JSON body against the operation's request schema (defaults filled in).
 * @example validateBody(advanceClock, { seconds: -1 }) // { ok: false, errors: [{ path: '/seconds', … }] }
 */
export function validateBody(
  operation: ControlOperationSpec,
  body: unknown,
): { ok: true; value: unknown } | { ok: false; errors: ValidationError[] } {
  if (!operation.validateBody || operation.validateBody(body)) return { ok: true, value: body };
  return { ok: false, errors: toFieldErrors(operation.validateBody.errors ?? []) };
}
