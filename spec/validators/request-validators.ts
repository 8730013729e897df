// Validates what a client sends (request bodies, and single path parameters through parameter-reader.ts, which reads them
// all) against the document, filling in the spec's defaults.
import { getOperation } from '../operations.ts';
import { isJsonObject, type JsonObject } from '../json-pointer.ts';
import { operationParameters } from '../parameters/parameters.ts';
import { parameterReader } from '../parameters/parameter-reader.ts';
import { getSchemaValidator, rootSchemaPointer, type SchemaValidator } from './schema-compiler.ts';
import type { RuleOrigin } from '../rule-origin.ts';
import { errorRule, toFieldErrors } from './field-errors.ts';
import type { BodyOperationId, OperationId, RequestBodies, ValidationError } from '../types.ts';
import { openapiDocument } from '../openapi-document.generated.ts';

/** The outcome of a validation: the value with defaults applied, or every reason it was rejected. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: ValidationError[] };

function requestSchemaPointer(operationId: BodyOperationId, document: JsonObject): string {
  const pointer = getOperation(operationId, document).requestSchemaPointer;
  if (pointer === undefined) throw new Error(`${operationId} takes no request body`);
  return pointer;
}

export interface ValidateRequestBodyOptions {
  /**
   * Whether to validate a clone (default true), so the caller's value is never changed. A caller that owns a body it
   * has just parsed can pass false: ajv then writes the spec's defaults into that body, and the clone's cost is saved
   * (the fake's request path does: docs/performance.md, "CPU per stage").
   */
  clone?: boolean;
  /** Another version of the document to validate against (a spec-change check); spec/openapi.yaml by default. */
  document?: JsonObject;
}

/**
 * Validates a parsed JSON request body. On success the value carries the spec's defaults
 * (priority `normal`, revenueShare 0, pricePerToken 0.01); by default it is a clone and the caller's value is unchanged.
 * @example
 * const result = validateRequestBody(operationId, JSON.parse(text), { clone: false });
 * if (!result.ok) return problem(400, result.errors);
 */
export function validateRequestBody<K extends BodyOperationId>(
  operationId: K,
  body: unknown,
  options: ValidateRequestBodyOptions = {},
): ValidationResult<RequestBodies[K]> {
  const document = options.document ?? openapiDocument;
  const validate =
    document === openapiDocument
      ? ownValidator(bodyValidators, operationId, () => requestSchemaPointer(operationId, document))
      : getSchemaValidator(requestSchemaPointer(operationId, document), 'request', document);
  const subject: unknown = options.clone !== false && isJsonObject(body) ? structuredClone(body) : body;
  if (validate(subject)) return { ok: true, value: subject as RequestBodies[K] };
  return { ok: false, errors: toFieldErrors(validate.errors ?? []) };
}

/** One keyword of the document a request body breaks, with where it comes from. */
export interface BrokenKeyword {
  /** The keyword's JSON Pointer in the document, e.g. `/components/schemas/DeployRequest/properties/revenueShare/maximum`. */
  keywordPointer: string;
  /** `seed` when the service description states the keyword (for `required`, the missing member), else `assumption`. */
  origin: RuleOrigin;
}

/**
 * Every keyword a body breaks, each with its own origin, so a body is labelled by the rule that makes it invalid
 * rather than by its whole schema: one that only crosses an assumed bound breaks no rule of the seed. Empty when valid.
 * @example brokenKeywords(operationId, { ...body, initialSupply: 2e15 }) // [{ keywordPointer: '…/initialSupply/maximum', origin: 'assumption' }]
 */
export function brokenKeywords(operationId: BodyOperationId, body: unknown): BrokenKeyword[] {
  const pointer = requestSchemaPointer(operationId, openapiDocument);
  const validate = ownValidator(bodyValidators, operationId, () => pointer);
  if (validate(isJsonObject(body) ? structuredClone(body) : body)) return [];
  const root = rootSchemaPointer(pointer);
  const seen = new Map<string, BrokenKeyword>();
  for (const error of validate.errors ?? []) {
    const { keywordPointer, origin } = errorRule(error, root);
    const key = `${keywordPointer} ${origin}`;
    if (!seen.has(key)) seen.set(key, { keywordPointer, origin });
  }
  return [...seen.values()];
}

// The fake validates a body on every request: for spec/openapi.yaml the compiled validator is kept by operation, with
// no pointer to find and no cache key to build per request (parameters are the reader's: parameter-reader.ts).
const bodyValidators = new Map<string, SchemaValidator>();

function ownValidator(cache: Map<string, SchemaValidator>, key: string, pointer: () => string): SchemaValidator {
  let validate = cache.get(key);
  if (!validate) {
    validate = getSchemaValidator(pointer(), 'request', openapiDocument);
    cache.set(key, validate);
  }
  return validate;
}

/**
 * Pointer of the schema of a path parameter of an operation (after following the parameter's $ref); throws when the
 * operation has no such parameter.
 * @example parameterSchemaPointer(operationId, 'agentId') // '/components/parameters/AgentId/schema'
 */
export function parameterSchemaPointer(
  operationId: OperationId,
  name: string,
  document: JsonObject = openapiDocument,
): string {
  const found = operationParameters(getOperation(operationId, document).pointer, document).find(
    (parameter) => parameter.in === 'path' && parameter.name === name,
  );
  if (found === undefined) throw new Error(`${operationId} has no path parameter ${name}`);
  return found.schemaPointer;
}

/**
 * Validates one path parameter (percent-decoded) with the one parameter reader; error paths are `/path/<name>`.
 * `document`: as for validateRequestBody.
 * @example validatePathParameter(operationId, 'agentId', 'x'.repeat(200)).ok // false
 */
export function validatePathParameter(
  operationId: OperationId,
  name: string,
  value: string,
  document: JsonObject = openapiDocument,
): ValidationResult<string> {
  parameterSchemaPointer(operationId, name, document);
  const reading = parameterReader(operationId, document)({ path: { [name]: value }, pathDecoded: true });
  // The reader reads the whole request: the other parameters, absent here, are not this one's problem.
  const own = reading.ok ? [] : reading.errors.filter((error) => error.location === 'path' && error.name === name);
  if (own.length === 0) return { ok: true, value };
  return { ok: false, errors: own.map(({ path, message }) => ({ path, message })) };
}
