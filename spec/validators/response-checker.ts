// Checks one response against what the document says of its operation: status, media type, headers and body.
import type { SchemaError } from './ajv-setup.ts';
import { mediaTypeOf } from './media-type.ts';
import { getOperation, type DocumentedResponse } from '../operations.ts';
import { openapiDocument } from '../openapi-document.generated.ts';
import type { JsonObject } from '../json-pointer.ts';
import { getSchemaValidator, rootSchemaPointer } from './schema-compiler.ts';
import { errorDataPointer, errorMessage, errorRules } from './field-errors.ts';
import { ruleOrigin, type RuleOrigin } from '../rule-origin.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.ts';
import { checkedPart, foundText, uncheckedRest } from './checked-value.ts';
import type { OperationId } from '../types.ts';

/** The rule a violation breaks; each is a check of its own in reports. */
export type ResponseRule =
  | 'status-documented'
  | 'content-type'
  | 'body-is-json'
  | 'body-schema'
  | 'required-header'
  | 'problem-status-matches'
  | 'undocumented-field';

/** One way a response departs from the document. */
export interface Violation {
  operationId: OperationId;
  status: number;
  rule: ResponseRule;
  /** JSON Pointer into the response body (`/tokenomics/price`), or `/headers/<name>` for a header. */
  pointer: string;
  expected: string;
  found: string;
  /** Whether the rule comes from the service description or from a decision of the spec. */
  origin: RuleOrigin;
  /** Where the rule lives in spec/openapi.yaml. */
  specPointer: string;
  /** One readable line. */
  message: string;
}

export interface ResponseToCheck {
  operationId: OperationId;
  status: number;
  /** The Content-Type header as received (parameters such as charset are allowed). */
  contentType: string | null | undefined;
  /** The body exactly as received; the empty string when there was none. */
  body: string;
  /** Response headers; when given, headers the document requires are checked too. */
  headers?: Readonly<Record<string, string | undefined>> | Headers;
}

export interface ResponseCheck {
  /** True when there are no violations (warnings do not count). */
  ok: boolean;
  violations: Violation[];
  /** Undocumented fields in the body: reported, never a failure. */
  warnings: Violation[];
}

function expectedFor(error: SchemaError): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `property ${String(params.missingProperty)} to be present`;
    case 'enum':
      return `one of ${(Array.isArray(params.allowedValues) ? params.allowedValues : []).join(', ')}`;
    case 'type':
      return `type ${String(params.type)}`;
    case 'additionalProperties':
      return 'only documented properties';
    default:
      return `${error.keyword} ${foundText(error.schema)}`;
  }
}

function headerValue(headers: ResponseToCheck['headers'], name: string): string | undefined {
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

/**
 * Checks a response against the document: spec/openapi.yaml, unless another version of it is given.
 * @example
 * const check = checkResponse({ operationId, status: 200, contentType: 'application/json', body: text });
 * for (const v of check.violations) console.log(v.pointer, v.message);
 */
export function checkResponse(response: ResponseToCheck, document: JsonObject = openapiDocument): ResponseCheck {
  const { operationId, status } = response;
  const operation = getOperation(operationId, document);
  const documented = operation.responses.get(status);
  if (!documented) return { ok: false, violations: [undocumentedStatus(response, operation)], warnings: [] };
  const violations: Violation[] = [];
  const warnings: Violation[] = [];
  checkHeaders(response, documented, violations, document);
  const mediaType = mediaTypeOf(response.contentType);
  const expectedMediaType = documented.mediaTypes[0];
  if (!expectedMediaType) return { ok: violations.length === 0, violations, warnings };
  const base = { operationId, status };
  if (!documented.mediaTypes.includes(mediaType)) {
    // The seed says success bodies are JSON; every error body (problem+json) is a decision of the spec.
    const origin: RuleOrigin = status < 300 || !documented.assumption ? 'seed' : 'assumption';
    const found = response.contentType ? response.contentType : 'no Content-Type';
    violations.push({
      ...base,
      rule: 'content-type',
      pointer: '',
      expected: documented.mediaTypes.join(' or '),
      found,
      origin,
      specPointer: `${documented.pointer}/content`,
      message: `Content-Type must be ${documented.mediaTypes.join(' or ')}, got ${response.contentType ? response.contentType : 'none'}`,
    });
  }
  if (nestsDeeperThan(response.body, MAX_JSON_DEPTH)) {
    // Nothing walks a body deeper than the kit's bound (ajv, JSON.stringify and the origin rules recurse): one finding.
    violations.push({
      ...base,
      rule: 'body-is-json',
      pointer: '',
      expected: `a JSON body nesting at most ${MAX_JSON_DEPTH} levels`,
      found: `arrays and objects nested deeper than ${MAX_JSON_DEPTH} levels`,
      origin: 'assumption',
      specPointer: `${documented.pointer}/content`,
      message: `the body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
    });
    return { ok: false, violations, warnings };
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    const specPointer = `${documented.pointer}/content`;
    const found = foundText(response.body);
    violations.push({
      ...base,
      rule: 'body-is-json',
      pointer: '',
      expected: 'a JSON body',
      found,
      origin: 'seed',
      specPointer,
      message: 'the body is not valid JSON',
    });
    return { ok: false, violations, warnings };
  }
  const schemaMediaType = documented.mediaTypes.includes(mediaType) ? mediaType : expectedMediaType;
  const schemaPointer = `${documented.pointer}/content/${schemaMediaType.replace('/', '~1')}/schema`;
  const part = checkedPart(body);
  if (part.cut)
    warnings.push({ ...base, rule: 'body-schema', specPointer: schemaPointer, ...uncheckedRest('the body') });
  const checked: CheckedBody = {
    base,
    body: part.value,
    schemaPointer,
    rootPointer: rootSchemaPointer(schemaPointer, document),
    document,
  };
  // Appended one by one: a body of many wrong items makes as many violations, more than a spread's arguments may be.
  for (const violation of schemaViolations(checked)) violations.push(violation);
  for (const warning of undocumentedFields(checked)) warnings.push(warning);
  if (schemaMediaType === 'application/problem+json')
    for (const violation of problemStatusViolations(base, body)) violations.push(violation);
  return { ok: violations.length === 0, violations, warnings };
}

/** A parsed body and where its schema is, for the rules that check it. */
interface CheckedBody {
  base: { operationId: OperationId; status: number };
  body: unknown;
  schemaPointer: string;
  rootPointer: string;
  document: JsonObject;
}

function undocumentedStatus(response: ResponseToCheck, operation: ReturnType<typeof getOperation>): Violation {
  const { operationId, status } = response;
  const success = [...operation.responses.values()].find((r) => r.status >= 200 && r.status < 300);
  // A different success status breaks the seed where the seed fixed it; error statuses are all decisions of the spec.
  const origin: RuleOrigin = status >= 200 && status < 300 && success && !success.assumption ? 'seed' : 'assumption';
  const expected = [...operation.responses.keys()].join(', ');
  return {
    operationId,
    status,
    rule: 'status-documented',
    pointer: '',
    expected: `one of ${expected}`,
    found: String(status),
    origin,
    specPointer: `${operation.pointer}/responses`,
    message: `status ${status} is not documented for ${operationId} (documented: ${expected})`,
  };
}

function schemaViolations({ base, body, schemaPointer, rootPointer, document }: CheckedBody): Violation[] {
  const validate = getSchemaValidator(schemaPointer, 'response', document);
  if (validate(body)) return [];
  const ruleOf = errorRules(rootPointer, document);
  return (validate.errors ?? []).map((error) => {
    const { keywordPointer, origin } = ruleOf(error);
    const pointer = errorDataPointer(error);
    return {
      ...base,
      rule: 'body-schema',
      pointer,
      expected: expectedFor(error),
      found: error.keyword === 'required' ? 'nothing' : foundText(error.data),
      origin,
      specPointer: keywordPointer,
      message: `${pointer || 'the body'} ${errorMessage(error)}`,
    };
  });
}

/** Fields the schema does not name: a warning, since the spec does not forbid them. */
function undocumentedFields({ base, body, schemaPointer, rootPointer, document }: CheckedBody): Violation[] {
  const strict = getSchemaValidator(schemaPointer, 'strict', document);
  if (strict(body)) return [];
  const ruleOf = errorRules(rootPointer, document);
  return (strict.errors ?? [])
    .filter((error) => error.keyword === 'additionalProperties')
    .map((error) => {
      const pointer = errorDataPointer(error);
      return {
        ...base,
        rule: 'undocumented-field',
        pointer,
        expected: expectedFor(error),
        found: pointer,
        origin: 'seed',
        specPointer: ruleOf(error).keywordPointer,
        message: `${pointer} is not a documented field`,
      };
    });
}

function problemStatusViolations(base: CheckedBody['base'], body: unknown): Violation[] {
  if (typeof body !== 'object' || body === null || !('status' in body) || body.status === base.status) return [];
  return [
    {
      ...base,
      rule: 'problem-status-matches',
      pointer: '/status',
      expected: String(base.status),
      found: foundText(body.status),
      origin: 'assumption',
      specPointer: '/components/schemas/Problem/properties/status',
      message: `the problem's status ${foundText(body.status)} differs from the HTTP status ${base.status}`,
    },
  ];
}

function checkHeaders(
  response: ResponseToCheck,
  documented: DocumentedResponse,
  violations: Violation[],
  document: JsonObject,
): void {
  if (!response.headers) return;
  const optional = new Set(documented.optionalHeaders);
  // A required header must be there; an optional one (RateLimit-Limit…) is checked only when sent. Both must match
  // their schema; the rule is the same one, 'required-header': the header the document states is not what was sent.
  for (const header of [...documented.requiredHeaders, ...documented.optionalHeaders]) {
    const value = headerValue(response.headers, header.name.toLowerCase());
    if (value === undefined && optional.has(header)) continue;
    const base = {
      operationId: response.operationId,
      status: response.status,
      rule: 'required-header' as const,
      pointer: `/headers/${header.name.toLowerCase()}`,
    };
    if (value === undefined) {
      violations.push({
        ...base,
        expected: `a ${header.name} header`,
        found: 'no such header',
        origin: ruleOrigin(`${header.pointer}/required`, undefined, undefined, document),
        specPointer: header.pointer,
        message: `the ${header.name} header is missing`,
      });
      continue;
    }
    const validate = getSchemaValidator(`${header.pointer}/schema`, 'response', document);
    // Header values are text; a schema of type integer means the text is a decimal integer.
    const parsed = /^-?\d+$/.test(value) ? Number(value) : value;
    if (!validate(parsed)) {
      const reasons = (validate.errors ?? []).map(errorMessage).join('; ');
      violations.push({
        ...base,
        expected: reasons,
        found: foundText(value),
        origin: ruleOrigin(`${header.pointer}/schema/type`, undefined, undefined, document),
        specPointer: `${header.pointer}/schema`,
        message: `the ${header.name} header ${reasons}`,
      });
    }
  }
}
