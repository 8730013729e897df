// Checks one request a client sent against what the document says of its operation: its parameters (every location,
// read by the spec's one parameter reader), media type, body.
// The request-side twin of response-checker.ts: each violation carries its JSON Pointer, the rule's place in the
// document and whether that rule is the service description's (seed) or the spec's own decision (assumption).
import type { SchemaError } from './ajv-setup.ts';
import { errorDataPointer, errorMessage, errorRules } from './field-errors.ts';
import type { JsonObject } from '../json-pointer.ts';
import { mediaTypeOf } from './media-type.ts';
import { openapiDocument } from '../openapi-document.generated.ts';
import { getOperation } from '../operations.ts';
import { parameterReader, type ParameterError } from '../parameters/parameter-reader.ts';
import type { Violation } from './response-checker.ts';
import { ruleOrigin } from '../rule-origin.ts';
import { getSchemaValidator, rootSchemaPointer } from './schema-compiler.ts';
import type { OperationId } from '../types.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.ts';
import { checkedPart, foundText, uncheckedRest } from './checked-value.ts';

/** The rule a request breaks. */
export type RequestRule =
  | 'path-parameter'
  | 'query-parameter'
  | 'header-parameter'
  | 'cookie-parameter'
  | 'request-content-type'
  | 'request-body-required'
  | 'request-body-is-json'
  | 'request-body-schema';

/** One way a request departs from the document; `pointer` is `/path/<name>`, `/query/<name>`… for a parameter. */
export interface RequestViolation extends Omit<Violation, 'rule' | 'status'> {
  rule: RequestRule;
}

export interface RequestToCheck {
  operationId: OperationId;
  /** Path parameters by name, percent-decoded. */
  pathParameters: Readonly<Record<string, string>>;
  /** The query string without `?`; undefined when the caller does not know it (its parameters are then not checked). */
  query?: string;
  /** The request's headers, names in lower case (Cookie included); undefined: header and cookie parameters unchecked. */
  headers?: Readonly<Record<string, string | readonly string[] | undefined>>;
  contentType: string | undefined;
  /** The body as sent; undefined when there was none. */
  body: string | undefined;
}

function fromSchemaErrors(
  operationId: OperationId,
  rule: 'request-body-schema',
  errors: readonly SchemaError[],
  rootPointer: string,
  prefix: string,
  document: JsonObject,
): RequestViolation[] {
  const ruleOf = errorRules(rootPointer, document);
  return errors.map((error) => {
    const { keywordPointer, origin, member } = ruleOf(error);
    const pointer = prefix + errorDataPointer(error);
    return {
      operationId,
      rule,
      pointer,
      expected: error.keyword === 'required' ? `property ${String(member)} to be present` : errorMessage(error),
      found: error.keyword === 'required' ? 'nothing' : foundText(error.data),
      origin,
      specPointer: keywordPointer,
      message: `${pointer || 'the request body'} ${errorMessage(error)}`,
    };
  });
}

function fromParameterError(operationId: OperationId, error: ParameterError, document: JsonObject): RequestViolation {
  const missing = error.message === 'is required' && error.data === undefined;
  return {
    operationId,
    rule: `${error.location}-parameter`,
    pointer: error.path,
    expected: missing ? `the ${error.location} parameter ${error.name} to be present` : error.message,
    found: foundText(error.data),
    origin: ruleOrigin(error.specPointer, error.data, error.member, document),
    specPointer: error.specPointer,
    message: `${error.path} ${error.message}`,
  };
}

/**
 * Checks a request against the document: spec/openapi.yaml, unless another version of it is given.
 * @example checkRequest({ operationId, pathParameters: { agentId: 'x' }, contentType: undefined, body: undefined })
 */
export function checkRequest(request: RequestToCheck, document: JsonObject = openapiDocument): RequestViolation[] {
  const { operationId } = request;
  const operation = getOperation(operationId, document);
  const violations: RequestViolation[] = [];
  const reading = parameterReader(
    operationId,
    document,
  )({
    path: request.pathParameters,
    pathDecoded: true,
    query: request.query,
    headers: request.headers,
  });
  if (!reading.ok)
    for (const error of reading.errors) {
      // What the caller did not give is not checked: a header nobody passed is not missing.
      if (error.location === 'query' && request.query === undefined) continue;
      if ((error.location === 'header' || error.location === 'cookie') && request.headers === undefined) continue;
      violations.push(fromParameterError(operationId, error, document));
    }
  const schemaPointer = operation.requestSchemaPointer;
  const mediaType = operation.requestMediaType;
  if (schemaPointer === undefined || mediaType === undefined) return violations;
  const bodyPointer = `${operation.pointer}/requestBody`;
  if (request.body === undefined || request.body === '') {
    violations.push({
      operationId,
      rule: 'request-body-required',
      pointer: '',
      expected: `a ${mediaType} body`,
      found: 'no body',
      origin: 'seed',
      specPointer: bodyPointer,
      message: `${operationId} takes a ${mediaType} body; none was sent`,
    });
    return violations;
  }
  if (request.contentType !== undefined && mediaTypeOf(request.contentType) !== mediaType)
    violations.push({
      operationId,
      rule: 'request-content-type',
      pointer: '',
      expected: mediaType,
      found: request.contentType,
      origin: 'seed',
      specPointer: `${bodyPointer}/content`,
      message: `Content-Type must be ${mediaType}, got ${request.contentType}`,
    });
  if (nestsDeeperThan(request.body, MAX_JSON_DEPTH)) {
    // Nothing walks a body deeper than the kit's bound (ajv, structuredClone and the origin rules recurse): one finding.
    violations.push({
      operationId,
      rule: 'request-body-is-json',
      pointer: '',
      expected: `a JSON body nesting at most ${MAX_JSON_DEPTH} levels`,
      found: `arrays and objects nested deeper than ${MAX_JSON_DEPTH} levels`,
      origin: 'assumption',
      specPointer: `${bodyPointer}/content`,
      message: `the request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
    });
    return violations;
  }
  let body: unknown;
  try {
    body = JSON.parse(request.body);
  } catch {
    violations.push({
      operationId,
      rule: 'request-body-is-json',
      pointer: '',
      expected: 'a JSON body',
      found: foundText(request.body),
      origin: 'seed',
      specPointer: `${bodyPointer}/content`,
      message: 'the request body is not valid JSON',
    });
    return violations;
  }
  const validate = getSchemaValidator(schemaPointer, 'request', document);
  const part = checkedPart(body);
  if (part.cut)
    // Not a pass on what was left unchecked: a request of more values than the checkers validate is a finding.
    violations.push({
      operationId,
      rule: 'request-body-schema',
      specPointer: schemaPointer,
      ...uncheckedRest('the request body'),
    });
  // The request mode fills in defaults: a clone keeps the caller's value as it was sent.
  if (!validate(part.cut ? part.value : structuredClone(body)))
    // Appended one by one: a body of many wrong items makes more violations than a spread's arguments may be.
    for (const violation of fromSchemaErrors(
      operationId,
      'request-body-schema',
      validate.errors ?? [],
      rootSchemaPointer(schemaPointer, document),
      '',
      document,
    ))
      violations.push(violation);
  return violations;
}
