// The one reader of request parameters (path, query, header, cookie) for any OpenAPI document: each declared parameter
// deserialized by its style (parameter-styles.ts), coerced to its schema's types, validated by the document's validators
// and defaulted, with every problem a JSON Pointer such as `/query/limit`. What a reader needs of its operation is
// worked out when it is created; a request only splits its own text and runs the validators.
import { keywordPointerOf, type SchemaError } from '../validators/ajv-setup.ts';
import { openapiDocument } from '../openapi-document.generated.ts';
import type { JsonObject } from '../json-pointer.ts';
import { getOperation } from '../operations.ts';
import { operationParameters, type ParameterLocation, type ParameterSpec } from './parameters.ts';
import type { OperationId } from '../types.ts';
import { errorDataPointer, errorMessage } from '../validators/field-errors.ts';
import {
  fromHeader,
  fromPairs,
  fromPath,
  splitCookies,
  splitQuery,
  typed,
  type Deserialized,
  type QueryPairs,
} from './parameter-styles.ts';
import { getSchemaValidator, rootSchemaPointer, type SchemaValidator } from '../validators/schema-compiler.ts';
import { checkedPart, MAX_CHECKED_VALUES } from '../validators/checked-value.ts';

/** What a request carries of its parameters, as it arrived. */
export interface ParameterInput {
  /** The path parameters by name, as the URL holds them: percent-encoded unless `pathDecoded`. */
  path?: Readonly<Record<string, string>>;
  /** Whether `path`'s values are already percent-decoded. */
  pathDecoded?: boolean;
  /** The query string without `?` ('' when none). */
  query?: string;
  /** The request's headers, names in lower case (the Cookie header included). */
  headers?: Readonly<Record<string, string | readonly string[] | undefined>>;
}

/** The parameters of a request once read: by location, then by the name the document gives them. */
export interface ReadParameters {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
  cookie: Record<string, unknown>;
}

/** One way a request's parameter breaks what the document declares of it. */
export interface ParameterError {
  /** JSON Pointer in the request: `/query/limit`, `/query/tags/1`, `/header/X-Request-Id`. */
  path: string;
  /** e.g. `must be <= 100`. */
  message: string;
  location: ParameterLocation;
  name: string;
  /** The keyword of the document it breaks, e.g. `/components/parameters/Limit/schema/maximum`. */
  specPointer: string;
  /** The value the keyword judged (after coercion); undefined for a missing or unreadable parameter. */
  data: unknown;
  /** For a missing required parameter, its name: the member of `required` it breaks. */
  member?: string;
}

export type ParameterReading = { ok: true; value: ReadParameters } | { ok: false; errors: ParameterError[] };

/** Reads one operation's parameters from a request. */
export type ParameterReader = (input: ParameterInput) => ParameterReading;

/** How a reader finds the validator of a parameter's schema, and the root its keywords are read against. */
export interface ParameterValidators {
  validatorOf(schemaPointer: string): SchemaValidator;
  rootOf(schemaPointer: string): string;
}

interface Prepared {
  spec: ParameterSpec;
  validate: SchemaValidator;
  root: string;
}

function schemaErrors(prepared: Prepared, errors: readonly SchemaError[]): ParameterError[] {
  const { spec, root } = prepared;
  return errors.map((error) => {
    const params = error.params as Record<string, unknown>;
    return {
      path: spec.errorPointer + errorDataPointer(error),
      message: errorMessage(error),
      location: spec.in,
      name: spec.name,
      specPointer: keywordPointerOf(error, root),
      data: error.data,
      ...(error.keyword === 'required' && { member: String(params.missingProperty) }),
    };
  });
}

function unreadable(spec: ParameterSpec, message: string, specPointer: string): ParameterError {
  return { path: spec.errorPointer, message, location: spec.in, name: spec.name, specPointer, data: undefined };
}

function headerValue(headers: ParameterInput['headers'], name: string): string | readonly string[] | undefined {
  return headers?.[name] ?? headers?.[name.toLowerCase()];
}

const none: Record<string, unknown> = Object.freeze({});
const NO_PARAMETERS: ParameterReading = Object.freeze({
  ok: true,
  value: Object.freeze({ path: none, query: none, header: none, cookie: none }),
});

/**
 * A reader of the given parameters (an operation's, from operationParameters), their validators found once here.
 * @example createParameterReader(operationParameters(pointer, document), validators)({ query: 'limit=5' })
 */
export function createParameterReader(
  parameters: readonly ParameterSpec[],
  validators: ParameterValidators,
): ParameterReader {
  const prepared: Prepared[] = parameters.map((spec) => ({
    spec,
    validate: validators.validatorOf(spec.schemaPointer),
    root: validators.rootOf(spec.schemaPointer),
  }));
  const readsQuery = prepared.some(({ spec }) => spec.in === 'query');
  const readsCookies = prepared.some(({ spec }) => spec.in === 'cookie');
  // An operation without parameters (the deploy) answers one frozen reading: nothing is allocated per request.
  if (prepared.length === 0) return () => NO_PARAMETERS;
  return function read(input) {
    const value: ReadParameters = { path: {}, query: {}, header: {}, cookie: {} };
    const query: QueryPairs | undefined = readsQuery && input.query ? splitQuery(input.query) : undefined;
    const cookieHeader = readsCookies ? headerValue(input.headers, 'cookie') : undefined;
    const cookies = readsCookies
      ? splitCookies(typeof cookieHeader === 'string' ? cookieHeader : cookieHeader?.join('; '))
      : undefined;
    const errors: ParameterError[] = [];
    for (const one of prepared) {
      const { spec } = one;
      let found: Deserialized;
      if (spec.in === 'path') {
        const raw = input.path?.[spec.name];
        found = raw === undefined ? undefined : fromPath(spec, raw, input.pathDecoded === true);
      } else if (spec.in === 'query') found = query && fromPairs(spec, query, true);
      else if (spec.in === 'cookie') found = cookies && fromPairs(spec, cookies, false);
      else {
        const raw = headerValue(input.headers, spec.name);
        found = raw === undefined ? undefined : fromHeader(spec, raw);
      }
      if (found === undefined) {
        if (spec.required) {
          errors.push({
            ...unreadable(spec, 'is required', `${spec.pointer}/required`),
            member: spec.name,
          });
        } else if (spec.default !== undefined) {
          value[spec.in][spec.name] = typeof spec.default === 'object' ? structuredClone(spec.default) : spec.default;
        }
        continue;
      }
      const converted = found.ok ? typed(spec, found.value) : found;
      if (!converted.ok) {
        errors.push(unreadable(spec, converted.message, spec.schemaPointer));
        continue;
      }
      // A list of more values than the checkers validate (a pact's 16 MiB query) is refused whole, never cut and passed.
      if (checkedPart(converted.value).cut) {
        errors.push(unreadable(spec, `holds more than ${MAX_CHECKED_VALUES} values`, spec.schemaPointer));
        continue;
      }
      if (one.validate(converted.value)) value[spec.in][spec.name] = converted.value;
      // Appended one by one: a list of many wrong items makes more errors than a spread's arguments may be.
      else for (const error of schemaErrors(one, one.validate.errors ?? [])) errors.push(error);
    }
    return errors.length === 0 ? { ok: true, value } : { ok: false, errors };
  };
}

/** The validators of a version of the document: the generated ones for spec/openapi.yaml. */
function documentValidators(document: JsonObject): ParameterValidators {
  return {
    validatorOf: (pointer) => getSchemaValidator(pointer, 'request', document),
    rootOf: (pointer) => rootSchemaPointer(pointer, document),
  };
}

const readers = new WeakMap<JsonObject, Map<string, ParameterReader>>();

/**
 * The reader of an operation's parameters in a version of the document (spec/openapi.yaml unless another is given),
 * made once.
 * @example parameterReader(operationId)({ path: { agentId: 'agt_1' }, query: 'limit=500' })
 */
export function parameterReader(operationId: OperationId, document: JsonObject = openapiDocument): ParameterReader {
  let byOperation = readers.get(document);
  if (!byOperation) {
    byOperation = new Map();
    readers.set(document, byOperation);
  }
  let reader = byOperation.get(operationId);
  if (!reader) {
    const operation = getOperation(operationId, document);
    reader = createParameterReader(operationParameters(operation.pointer, document), documentValidators(document));
    byOperation.set(operationId, reader);
  }
  return reader;
}

/**
 * Reads and validates every parameter an operation declares.
 * @example readParameters(operationId, { query: 'status=activ' }) // { ok: false, errors: [{ path: '/query/status', … }] }
 */
export function readParameters(
  operationId: OperationId,
  input: ParameterInput,
  document: JsonObject = openapiDocument,
): ParameterReading {
  return parameterReader(operationId, document)(input);
}
