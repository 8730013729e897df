// The control plane's routes, read from mocks/control-plane/control-plane.yaml (as generated data) once, with the
// validators of their queries and bodies, which tools/generate.ts writes as ajv standalone code.
import { toFieldErrors, type ValidationError } from '../../spec/index.ts';
import type { SchemaValidator } from '../../spec/validators/ajv-setup.ts';
import { controlPlaneDocument } from './control-plane-document.generated.ts';
import { readOperations, type ControlRoute } from './control-plane-routes.ts';
import { controlValidators } from './control-plane-validators.generated.ts';

export type { ControlOperationId } from './control-plane-routes.ts';

/** What the control plane's document declares of one operation. */
export interface ControlOperationSpec extends ControlRoute {
  /** Validates the query object (defaults filled in); undefined when the operation declares no query. */
  validateQuery: SchemaValidator | undefined;
  /** Validates the JSON body; undefined when the operation takes none. */
  validateBody: SchemaValidator | undefined;
}

/**
 * Every operation of mocks/control-plane/control-plane.yaml, in document order.
 * @example controlOperations.find((operation) => operation.operationId === 'mockGetClock')?.path // '/__mock/clock'
 */
export const controlOperations: readonly ControlOperationSpec[] = readOperations(controlPlaneDocument).map(
  ({ spec, query, body }) => ({
    ...spec,
    validateQuery: query && generated(`${spec.operationId} query`),
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
 * Turns a query string into the operation's query object (numbers where the schema says so) and validates it.
 * @example parseQuery(mockListAgents, 'limit=5') // { ok: true, value: { limit: 5, offset: 0 } }
 */
export function parseQuery(
  operation: ControlOperationSpec,
  query: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; errors: ValidationError[] } {
  const value: Record<string, unknown> = {};
  if (!operation.validateQuery) return { ok: true, value };
  const search = new URLSearchParams(query);
  for (const { name, numeric } of operation.queryParameters) {
    const raw = search.get(name);
    if (raw === null) continue;
    value[name] = numeric && /^-?\d{1,15}(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  }
  if (operation.validateQuery(value)) return { ok: true, value };
  return { ok: false, errors: toFieldErrors(operation.validateQuery.errors ?? [], '/query') };
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
