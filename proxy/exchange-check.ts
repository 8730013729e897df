// Checks one exchange the proxy forwarded (the app's request, the real server's answer) with the spec's one request
// checker and one response checker, and names each violation the way the contract suite does: its check family, rule,
// JSON Pointer, expectation, finding, place in spec/openapi.yaml and origin (seed or assumption).
import {
  checkRequest,
  checkResponse,
  getAtPointer,
  getOperation,
  matchOperation,
  openapiDocument,
  type OperationId,
  type RequestViolation,
  type Violation,
} from '../spec/index.ts';
import type { CheckViolation } from '../client/check-record.ts';

/** One violation the proxy saw, placed in its exchange. */
export interface ProxyViolation extends Omit<CheckViolation, 'exchange'> {
  /** Whose fault: the app's request, or the server's answer. */
  part: 'request' | 'response';
  operationId: OperationId | null;
  method: string;
  /** The operation's path template (`/v1/agents/{agentId}`), or the path itself when no operation has it. */
  path: string;
  status: number | undefined;
}

/** What the proxy saw of one exchange; bodies are decoded text, undefined when there was none or it was too large. */
export interface ExchangeToCheck {
  method: string;
  /** The path without the query, still percent-encoded. */
  path: string;
  requestHeaders: Readonly<Record<string, string | string[] | undefined>>;
  requestBody: string | undefined;
  status: number;
  responseHeaders: Readonly<Record<string, string | string[] | undefined>>;
  /** undefined when the body was larger than the proxy checks: then only the status is judged. */
  responseBody: string | undefined;
}

export interface ExchangeCheck {
  operationId: OperationId | null;
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
  if (method === 'OPTIONS' || !path.startsWith('/v1/')) return { operationId: null, violations: [] };
  const match = matchOperation(openapiDocument, method, path, false);
  const base = { method, status };
  if (!match) {
    return {
      operationId: null,
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
  const requestViolations = checkRequest({
    operationId: match.operationId,
    pathParameters: decodedParameters(match.parameters),
    contentType: single(exchange.requestHeaders['content-type']),
    body: exchange.requestBody,
  });
  const violations: ProxyViolation[] = requestViolations.map((violation) => fromRequest(violation, place));
  violations.push(...serverRules(exchange, match.operationId, requestViolations, place));
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
  return { operationId: match.operationId, violations };
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
  if (accepted && single(exchange.requestHeaders.authorization) === undefined && hasSecurity(operationId))
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
      message: `a request without credentials must be answered 401, got ${status}`,
    });
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

/** Whether the operation needs credentials: its own `security`, else the document's (an empty list opts out). */
function hasSecurity(operationId: OperationId): boolean {
  const security =
    getAtPointer(openapiDocument, `${getOperation(operationId).pointer}/security`) ?? openapiDocument.security;
  return Array.isArray(security) && security.length > 0;
}
