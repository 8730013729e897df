// The one catalogue of errors the fake answers with, and the one serializer that turns them into problem+json responses.
import type { Problem, ValidationError } from '../../spec/index.ts';
import type { MockResponse } from './mock-http.ts';

/** Base of every problem `type` URI. */
const PROBLEM_BASE = 'https://agent-registry.dev/problems/';

/**
 * The bounds spec/openapi.yaml puts on a problem (Problem, ValidationError): what is longer is cut, and only the
 * first errors are listed, so an error body stays small whatever the request held.
 */
const MAX_DETAIL = 4096;
const MAX_INSTANCE = 2048;
const MAX_ERRORS = 100;
const MAX_ERROR_PATH = 2048;
const MAX_ERROR_MESSAGE = 1024;

/** Every problem the fake can answer with: its status, type slug and title. */
export const PROBLEMS = {
  validation: { status: 400, slug: 'validation', title: 'Request body is invalid' },
  'missing-body': { status: 400, slug: 'validation', title: 'Request body is missing' },
  'invalid-parameter': { status: 400, slug: 'validation', title: 'Path parameter is invalid' },
  'invalid-request-parameter': { status: 400, slug: 'validation', title: 'Request parameter is invalid' },
  'malformed-json': { status: 400, slug: 'malformed-json', title: 'Request body is not valid JSON' },
  'bad-request': { status: 400, slug: 'bad-request', title: 'Bad request' },
  'not-i-json': { status: 400, slug: 'malformed-json', title: 'Request body is not I-JSON (RFC 7493)' },
  unauthorized: { status: 401, slug: 'unauthorized', title: 'Authentication required' },
  'forbidden-origin': { status: 403, slug: 'forbidden-origin', title: 'Origin not allowed' },
  'forbidden-host': { status: 403, slug: 'forbidden-host', title: 'Host not allowed' },
  'control-token': { status: 403, slug: 'control-token', title: 'Control plane token missing or wrong' },
  'agent-not-found': { status: 404, slug: 'agent-not-found', title: 'Agent not found' },
  'task-not-found': { status: 404, slug: 'task-not-found', title: 'Task not found' },
  'not-found': { status: 404, slug: 'not-found', title: 'Not found' },
  'method-not-allowed': { status: 405, slug: 'method-not-allowed', title: 'Method not allowed' },
  'request-timeout': { status: 408, slug: 'request-timeout', title: 'Request timeout' },
  'agent-not-active': { status: 409, slug: 'agent-not-active', title: 'Agent does not accept tasks' },
  'payload-too-large': { status: 413, slug: 'payload-too-large', title: 'Request body too large' },
  'uri-too-long': { status: 414, slug: 'uri-too-long', title: 'URI too long' },
  'unsupported-media-type': { status: 415, slug: 'unsupported-media-type', title: 'Unsupported media type' },
  'unsupported-encoding': { status: 415, slug: 'unsupported-encoding', title: 'Unsupported content encoding' },
  'rate-limited': { status: 429, slug: 'rate-limited', title: 'Too many requests' },
  'headers-too-large': { status: 431, slug: 'headers-too-large', title: 'Request header fields too large' },
  internal: { status: 500, slug: 'internal', title: 'Internal server error' },
  /** The proxy (proxy --upstream) forwarded the request but the real server gave no answer. */
  'upstream-unreachable': {
    status: 502,
    slug: 'upstream-unreachable',
    title: 'The upstream server could not be reached',
  },
  /** The proxy's upstream answered something the contract forbids, and --fail-on-violation is on. */
  'contract-violation': { status: 502, slug: 'contract-violation', title: "The upstream's answer breaks the contract" },
  unavailable: { status: 503, slug: 'unavailable', title: 'Service unavailable' },
  /** The durable store could not write a change: nothing of it was applied, so the client may retry. */
  'state-not-saved': { status: 503, slug: 'state-not-saved', title: 'The change could not be saved' },
  /** A shared store (PostgreSQL) could not be read before answering: nothing was applied, so the client may retry. */
  'state-unavailable': { status: 503, slug: 'state-unavailable', title: 'The record could not be read' },
  /** The proxy's upstream did not answer within its timeout. */
  'upstream-timeout': { status: 504, slug: 'upstream-timeout', title: 'The upstream server did not answer in time' },
} as const;

export type ProblemKind = keyof typeof PROBLEMS;

// Which catalogue entry built a response: several kinds share a status and a type slug, and coverage counts kinds.
const builtFrom = new WeakMap<MockResponse, ProblemKind>();

/**
 * The catalogue kind `problemResponse` built this response from; undefined for any other response.
 * @example problemKindOf(problemResponse('missing-body', { detail: 'No body.' })) // 'missing-body'
 */
export function problemKindOf(response: MockResponse): ProblemKind | undefined {
  return builtFrom.get(response);
}

/** The kind a forced status (scenarios, `Prefer: code=`) is answered with. */
export function problemKindForStatus(status: number): ProblemKind {
  for (const [kind, entry] of Object.entries(PROBLEMS) as [ProblemKind, (typeof PROBLEMS)[ProblemKind]][]) {
    if (entry.status === status) return kind;
  }
  return status >= 500 ? 'internal' : 'bad-request';
}

export interface ProblemDetails {
  detail: string;
  /** The request path. */
  instance?: string;
  /** Field errors; a refused override's (control plane) also name the rule and where it lives in spec/openapi.yaml. */
  errors?: (ValidationError & { rule?: string; specPointer?: string })[];
  /** Extra response headers (WWW-Authenticate, Retry-After, Allow…). */
  headers?: Record<string, string>;
}

/**
 * The problem+json response for `kind`: the only place an error body is built.
 * @example problemResponse('agent-not-found', { detail: 'No agent has the id agt_x.', instance: '/v1/agents/agt_x' })
 */
export function problemResponse(kind: ProblemKind, details: ProblemDetails): MockResponse {
  const entry = PROBLEMS[kind];
  const problem: Problem = {
    type: PROBLEM_BASE + entry.slug,
    title: entry.title,
    status: entry.status,
    detail: details.detail.slice(0, MAX_DETAIL),
  };
  if (details.instance !== undefined) problem.instance = details.instance.slice(0, MAX_INSTANCE);
  if (details.errors)
    problem.errors = details.errors.slice(0, MAX_ERRORS).map(({ path, message, rule, specPointer }) => ({
      path: path.slice(0, MAX_ERROR_PATH),
      message: message.slice(0, MAX_ERROR_MESSAGE),
      ...(rule !== undefined && { rule }),
      ...(specPointer !== undefined && { specPointer }),
    }));
  const response: MockResponse = {
    status: entry.status,
    // A 503 says when to come back, as the spec requires (a second is what a fake's passing failure needs).
    headers: {
      'content-type': 'application/problem+json',
      ...(entry.status === 503 && { 'retry-after': '1' }),
      ...details.headers,
    },
    body: JSON.stringify(problem),
  };
  builtFrom.set(response, kind);
  return response;
}
