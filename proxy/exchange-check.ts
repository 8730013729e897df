// Checks one exchange the proxy forwarded (the app's request, the real server's answer) with the spec's one request
// checker and one response checker, and names each violation the way the contract suite does: its check family, rule,
// JSON Pointer, expectation, finding, place in spec/openapi.yaml and origin (seed or assumption).
import {
  checkRequest,
  checkResponse,
  escapePointerToken,
  isJsonObject,
  MAX_JSON_DEPTH,
  foundText,
  nestsDeeperThan,
  ruleOrigin,
  type JsonObject,
  type JsonValue,
  getOperation,
  matchOperation,
  openapiDocument,
  type OperationId,
  type RequestViolation,
  type Violation,
} from '../spec/index.ts';
import type { CheckViolation } from '../verifier-client/check-record.ts';
import { credentialProblem } from '../verifier-client/credential-form.ts';
import { echoedRequestFields } from '../verifier-client/invariants.ts';
import { successStatus } from '../verifier-client/requests/operation-requests.ts';
import { responseSchema } from '../verifier-client/requests/spec-schemas.ts';

/** One violation the proxy saw, placed in its exchange. */
export interface ProxyViolation extends Omit<CheckViolation, 'exchange'> {
  /** Whose fault: the app's request, or the server's answer. */
  part: 'request' | 'response';
  operationId: OperationId | null;
  method: string;
  /** The operation's path template (`/v1/agents/{agentId}`), or the path itself when no operation has it. */
  path: string;
  status: number | undefined;
  /**
   * For a finding across exchanges, both of them (the earlier first: the deploy, then the read-back that disagrees);
   * for one within an exchange, absent.
   */
  exchanges?: ExchangeRef[];
}

/** One exchange a finding names: its method, its path as sent (ids included) and when its answer was checked. */
export interface ExchangeRef {
  method: string;
  path: string;
  status: number;
  at: string;
}

/** What the proxy saw of one exchange; bodies are decoded text, undefined when there was none or it was too large. */
export interface ExchangeToCheck {
  method: string;
  /** The path without the query, still percent-encoded. */
  path: string;
  /** The query string without `?` ('' when none); its parameters are checked as the spec declares them. */
  query?: string;
  requestHeaders: Readonly<Record<string, string | string[] | undefined>>;
  requestBody: string | undefined;
  status: number;
  responseHeaders: Readonly<Record<string, string | string[] | undefined>>;
  /** undefined when the body was larger than the proxy checks: then only the status is judged. */
  responseBody: string | undefined;
}

export interface ExchangeCheck {
  operationId: OperationId | null;
  /** The path parameters, decoded (empty when no operation matched). */
  parameters: Record<string, string>;
  /** Whether the request passed every request check (the cross-exchange rules only learn from such requests). */
  requestValid: boolean;
  /** The bodies as JSON objects, parsed once when first asked for (the echo and cross-exchange rules share them). */
  json: ParsedBodies;
  violations: ProxyViolation[];
}

const single = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(', ') : value;

function decodedParameters(parameters: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, raw] of Object.entries(parameters)) {
    try {
      decoded[name] = decodeURIComponent(raw);
    } catch {
      decoded[name] = raw;
    }
  }
  return decoded;
}

function textHeaders(headers: ExchangeToCheck['responseHeaders']): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const text = single(value);
    if (text !== undefined) result[name] = text;
  }
  return result;
}

/**
 * The violations of one exchange. A CORS preflight and paths outside the API (`/v1/`) are not the contract's business.
 * @example checkExchange({ method: 'GET', path: '/v1/agents/agt_1', ..., status: 200, responseBody: text }).violations
 */
export function checkExchange(exchange: ExchangeToCheck): ExchangeCheck {
  const { method, path, status } = exchange;
  if (method === 'OPTIONS' || !path.startsWith('/v1/'))
    return { operationId: null, parameters: {}, requestValid: false, json: parsedBodies(exchange), violations: [] };
  const match = matchOperation(openapiDocument, method, path, false);
  const base = { method, status };
  if (!match) {
    return {
      operationId: null,
      parameters: {},
      requestValid: false,
      json: parsedBodies(exchange),
      violations: [
        {
          ...base,
          part: 'request',
          check: 'conformance',
          operationId: null,
          path,
          rule: 'operation-documented',
          pointer: '',
          expected: 'an operation of spec/openapi.yaml',
          found: `${method} ${path}`,
          origin: 'seed',
          specPointer: '/paths',
          message: `${method} ${path} is not an operation of the spec`,
        },
      ],
    };
  }
  const operation = getOperation(match.operationId);
  const place = { ...base, operationId: match.operationId, path: operation.path };
  const parameters = decodedParameters(match.parameters);
  const requestViolations = checkRequest({
    operationId: match.operationId,
    pathParameters: parameters,
    query: exchange.query ?? '',
    headers: exchange.requestHeaders,
    contentType: single(exchange.requestHeaders['content-type']),
    body: exchange.requestBody,
  });
  const violations: ProxyViolation[] = requestViolations.map((violation) => fromRequest(violation, place));
  const credential = credentialProblem(single(exchange.requestHeaders.authorization), match.operationId);
  if (credential !== undefined) violations.push(credentialOfApp(credential, place));
  violations.push(...serverRules(exchange, match.operationId, requestViolations, credential, place));
  const answer = checkResponse({
    operationId: match.operationId,
    status,
    contentType: single(exchange.responseHeaders['content-type']),
    body: exchange.responseBody ?? '',
    headers: textHeaders(exchange.responseHeaders),
  });
  for (const violation of answer.violations) {
    // A body too large to check is judged by its status alone.
    if (exchange.responseBody === undefined && violation.rule !== 'status-documented') continue;
    violations.push(fromResponse(violation, place));
  }
  const json = parsedBodies(exchange);
  if (status >= 200 && status < 300 && exchange.responseBody !== undefined)
    violations.push(...echoRules(json, match.operationId, parameters, place));
  const requestValid = requestViolations.length === 0 && credential === undefined;
  return { operationId: match.operationId, parameters, requestValid, json, violations };
}

type Place = Pick<ProxyViolation, 'method' | 'status' | 'operationId' | 'path'>;

function fromRequest(violation: RequestViolation, place: Place): ProxyViolation {
  const { operationId: _, ...rest } = violation;
  return { ...rest, ...place, part: 'request', check: 'request-validation' };
}

function fromResponse(violation: Violation, place: Place): ProxyViolation {
  const { operationId: _, status: __, ...rest } = violation;
  return { ...rest, ...place, part: 'response', check: 'conformance' };
}

/** The contract suite's rules about what a server accepts: named and placed as its checks name them. */
function serverRules(
  exchange: ExchangeToCheck,
  operationId: OperationId,
  requestViolations: readonly RequestViolation[],
  credential: string | undefined,
  place: Place,
): ProxyViolation[] {
  const { status } = exchange;
  const found: ProxyViolation[] = [];
  const operation = getOperation(operationId);
  const accepted = status >= 200 && status < 300;
  const broken = requestViolations[0];
  if (accepted && broken !== undefined)
    found.push({
      ...place,
      part: 'response',
      check: 'request-validation',
      rule: 'rejects-invalid-request',
      pointer: '',
      expected: 'a 4xx problem',
      found: String(status),
      origin: broken.origin,
      specPointer: broken.specPointer,
      message: `a request that breaks ${broken.specPointer} was not rejected (${status})`,
    });
  if (accepted && credential !== undefined)
    found.push({
      ...place,
      part: 'response',
      check: 'auth',
      rule: 'rejects-unauthenticated',
      pointer: '',
      expected: 'status 401',
      found: `${status} (accepted)`,
      origin: 'seed',
      specPointer: '/security',
      message: `a request with ${credential} must be answered 401, got ${status}`,
    });
  // The contract suite's success-status: a request every validator of the spec accepts, with a well-formed credential,
  // must not be refused, except for what only the server's state can tell (401: the token itself; 404: an unknown id;
  // 409: a state conflict; 429: a rate limit), which a proxy cannot judge from the exchange.
  if (
    status >= 400 &&
    status < 500 &&
    requestViolations.length === 0 &&
    credential === undefined &&
    !statesOnlyTheServerKnows.has(status)
  ) {
    const success = successStatus(operationId);
    found.push({
      ...place,
      part: 'response',
      check: 'behaviour',
      rule: 'success-status',
      pointer: '',
      expected: `status ${success.status}`,
      found: String(status),
      origin: 'seed',
      specPointer: success.pointer,
      message: `a request the spec's validators accept was refused with ${status}`,
    });
  }
  if (status >= 500)
    found.push({
      ...place,
      part: 'response',
      check: 'conformance',
      rule: 'not-a-server-error',
      pointer: '',
      expected: 'an answer that is not a 5xx',
      found: String(status),
      origin: 'seed',
      specPointer: `${operation.pointer}/responses`,
      message: `${place.method} ${operation.path} made the server fail (${status})`,
    });
  return found;
}

/** The refusals only the server's state can justify: never judged against a valid request. */
const statesOnlyTheServerKnows = new Set([401, 404, 409, 429]);

/** The app's own missing or malformed credential: its request's fault, whatever the server answered. */
function credentialOfApp(problem: string, place: Place): ProxyViolation {
  return {
    ...place,
    part: 'request',
    check: 'auth',
    rule: 'request-credentials',
    pointer: '',
    expected: 'Authorization: Bearer <a JWT>',
    found: problem,
    origin: 'seed',
    specPointer: '/components/securitySchemes',
    message: `the app sent ${problem}; every operation needs a JWT bearer token`,
  };
}

/**
 * Agreement within one accepted exchange: a field of the answer named like a path parameter holds the path's value
 * (the agentId of GET /v1/agents/{agentId}), and a field the answer repeats from the request holds what was sent.
 */
function echoRules(
  json: ParsedBodies,
  operationId: OperationId,
  parameters: Readonly<Record<string, string>>,
  place: Place,
): ProxyViolation[] {
  const echoed = echoedRequestFields(operationId);
  const names = Object.keys(parameters);
  if (echoed.length === 0 && names.length === 0) return [];
  const answer = json.response();
  if (answer === undefined) return [];
  const found: ProxyViolation[] = [];
  const disagree = (rule: string, field: string, want: JsonValue, why: string): void => {
    const value = answer[field];
    if (value === undefined || JSON.stringify(value) === JSON.stringify(want)) return;
    const specPointer = responseFieldPointer(operationId, field);
    found.push({
      ...place,
      part: 'response',
      check: 'behaviour',
      rule,
      pointer: `/${escapePointerToken(field)}`,
      expected: shown(want),
      found: shown(value),
      origin: ruleOrigin(specPointer),
      specPointer,
      message: `the answer's ${field} is not ${why}`,
    });
  };
  for (const name of names) {
    const value = parameters[name];
    if (value !== undefined) disagree('answer-echoes-path-parameter', name, value, `the ${name} of the path`);
  }
  if (echoed.length > 0) {
    const sent = json.request();
    for (const field of echoed) {
      const value = sent?.[field];
      if (value !== undefined) disagree('answer-echoes-request', field, value, `the ${field} the request sent`);
    }
  }
  return found;
}

function responseFieldPointer(operationId: OperationId, field: string): string {
  const at = responseSchema(operationId, successStatus(operationId).status);
  return `${at.pointer}/properties/${escapePointerToken(field)}`;
}

/** An exchange's bodies as JSON objects (undefined when absent, not JSON or not an object), each parsed at most once. */
export interface ParsedBodies {
  request(): JsonObject | undefined;
  response(): JsonObject | undefined;
}

/** Parsing is the costly part of these rules, so it happens only for the rules that read a body, and once. */
function parsedBodies(exchange: ExchangeToCheck): ParsedBodies {
  let request: { value: JsonObject | undefined } | undefined;
  let response: { value: JsonObject | undefined } | undefined;
  return {
    request: () => {
      request ??= { value: parsedObject(exchange.requestBody) };
      return request.value;
    },
    response: () => {
      response ??= { value: parsedObject(exchange.responseBody) };
      return response.value;
    },
  };
}

function parsedObject(text: string | undefined): JsonObject | undefined {
  // A body nesting past the kit's bound is one violation of the checkers, never a value the rules walk or stringify.
  if (text === undefined || nestsDeeperThan(text, MAX_JSON_DEPTH)) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A value as a finding shows it (never a credential cut in two): JSON, cut at 80 characters. */
export const shown = (value: JsonValue | undefined): string => foundText(value, 80);
