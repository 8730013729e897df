// A per-test answer for one operation (a documented status and body), checked by the spec's one response checker before
// it is ever served: the msw handler, the core's override table and PUT /__mock/overrides all build it here.
import {
  checkResponse,
  findOperation,
  type DocumentedStatus,
  type OperationId,
  type OperationKey,
  type OperationOf,
  type OperationSpec,
  type ResponseBody,
  type ValidationError,
} from '../../../spec/index.ts';
import { documentedResponse } from '../documented-response.ts';
import type { MockResponse } from '../mock-http.ts';

/** What an override may add to the status and body. */
export interface OverrideOptions {
  /** Extra response headers (names in any case); the headers the spec requires of the status are filled in otherwise. */
  headers?: Record<string, string>;
  /** Answer only the next request to the operation, then let the fake answer again (`times: 1`). */
  once?: boolean;
  /** Answer the next `times` requests to the operation (a whole number from 1 to 1,000,000), then step aside. */
  times?: number;
}

/** Most answers an override may be set for (`times`); beyond it, leave `times` out: until reset. */
const MAX_TIMES = 1_000_000;

/** What a problem with an empty path is about, by its rule (a body problem's path is never empty unless it is the whole body). */
const WHOLE_PART: Record<string, string> = {
  operation: '(the operation)',
  'status-documented': '(the status)',
  'status-final': '(the status)',
  'content-type': '(the content type)',
  times: '(once, times)',
};

/** Rules about the override's call rather than the answer's body, with the field of PUT /__mock/overrides each names. */
const CALL_FIELDS: Record<string, string> = {
  operation: '/operation',
  'status-documented': '/status',
  'status-final': '/status',
  'content-type': '/headers/content-type',
  times: '/times',
};

/**
 * Where a problem lies in the PUT /__mock/overrides body (`/status`, `/headers/…`, `/body/…`); `overrideProblemPath`
 * turns it back, so the override's error has the same `path` in process and over HTTP.
 * @example overrideFieldPath({ path: '/statistics/holders', rule: 'body-schema', … }) // '/body/statistics/holders'
 */
export function overrideFieldPath(problem: Pick<OverrideProblem, 'path' | 'rule'>): string {
  const field = CALL_FIELDS[problem.rule];
  if (field !== undefined) return field;
  if (problem.path.startsWith('/headers/')) return problem.path;
  return `/body${problem.path}`;
}

/**
 * The problem's path in the answer (what `OverrideError.problems` holds) from its field in PUT /__mock/overrides.
 * @example overrideProblemPath('/body/statistics/holders', 'body-schema') // '/statistics/holders'
 */
export function overrideProblemPath(field: string, rule: string): string {
  if (CALL_FIELDS[rule] !== undefined) return '';
  if (field.startsWith('/body')) return field.slice('/body'.length);
  return field;
}

/** One way an override breaks the spec: where in the answer, the rule, and where the rule lives in spec/openapi.yaml. */
export interface OverrideProblem extends ValidationError {
  rule: string;
  specPointer: string;
}

/**
 * Thrown when an override's answer breaks the spec; `problems` lists each JSON Pointer and rule. Use the unchecked
 * variant (`uncheckedOverrideHandler`, `api.overrideUnchecked`) to serve a deliberately broken answer.
 */
export class OverrideError extends Error {
  override readonly name = 'OverrideError';
  readonly problems: OverrideProblem[];
  constructor(what: string, problems: OverrideProblem[]) {
    super(
      `${what} breaks spec/openapi.yaml: ${problems.map((p) => `${p.path || WHOLE_PART[p.rule] || '(the body)'} ${p.message} [${p.rule} at ${p.specPointer}]`).join('; ')}`,
    );
    this.problems = problems;
  }
}

/**
 * An override as PUT /__mock/overrides takes it, and as the storage keeps it: whoever loads it builds it again through
 * `buildOverride`, so a stored override is checked exactly as a new one is.
 */
export interface OverrideInput {
  /** The operationId. */
  operation: string;
  status: number;
  /** The JSON body; absent, the spec's example of that status. */
  body?: unknown;
  headers?: Record<string, string>;
  /** True for an override built without the response checker (the explicit escape hatch). */
  unchecked?: boolean;
  /** Only the next request (the same as `times: 1`). */
  once?: boolean;
  /** Only the next `times` requests; absent, until reset. */
  times?: number;
}

/** An override's answer; one from the spec's example names its path template as `instance` until a request fills it. */
export interface OverrideResponse extends MockResponse {
  /** The template the example's `instance` holds, e.g. `/v1/agents/{agentId}`; each answer puts the request's path there. */
  exampleInstance?: string;
}

/** A built override: the operation it answers, the answer itself, and what it was built from. */
export interface BuiltOverride {
  operation: OperationSpec;
  response: OverrideResponse;
  input: OverrideInput;
}

/** The body argument of a typed override: the documented body of that status (omitted: the spec's own example). */
export type OverrideBody<Key extends OperationKey, S extends DocumentedStatus<OperationOf<Key>>> = ResponseBody<
  OperationOf<Key>,
  S
>;

/**
 * The operation a key names, or an OverrideError saying which keys exist.
 * @example overrideOperation('GET /v1/agents/{agentId}').operationId
 */
function overrideOperation(key: string): OperationSpec {
  const operation = findOperation(key);
  if (operation) return operation;
  throw new OverrideError(`The override of ${JSON.stringify(key)}`, [
    {
      path: '',
      message: 'is neither an operationId nor a METHOD /path of the spec',
      rule: 'operation',
      specPointer: '/paths',
    },
  ]);
}

/**
 * Builds the answer of an override and, unless `checked` is false, checks it with the spec's response checker
 * (status documented, media type, required headers, body schema, no undocumented field).
 * @example buildOverride(operationId, 404, undefined, {}, true).response.status // 404, the spec's example body
 */
export function buildOverride(
  key: string,
  status: number,
  body: unknown,
  options: OverrideOptions = {},
  checked = true,
): BuiltOverride {
  const operation = overrideOperation(key);
  const times = timesProblem(options);
  if (times) throw new OverrideError(`The override ${status} of ${operation.operationId}`, [times]);
  const documented = operation.responses.has(status)
    ? documentedResponse(operation.operationId, status, operation.path, 'an override')
    : { status, headers: { 'content-type': 'application/json' }, body: '' };
  const response: OverrideResponse = {
    status,
    headers: { ...documented.headers },
    body: body === undefined ? documented.body : JSON.stringify(body),
    ...(body === undefined &&
      documented.body.includes(instanceField(operation.path)) && { exampleInstance: operation.path }),
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) response.headers[name.toLowerCase()] = value;
  const unsendable = unsendableProblems(response);
  if (unsendable.length > 0) throw new OverrideError(`The override ${status} of ${operation.operationId}`, unsendable);
  if (checked) {
    const problems = overrideProblems(operation.operationId, response);
    if (problems.length > 0) throw new OverrideError(`The override ${status} of ${operation.operationId}`, problems);
  }
  const input: OverrideInput = {
    operation: operation.operationId,
    status,
    ...(body !== undefined && { body }),
    ...(options.headers !== undefined && { headers: { ...options.headers } }),
    ...(!checked && { unchecked: true }),
    ...(options.once === true && { once: true }),
    ...(options.times !== undefined && { times: options.times }),
  };
  return { operation, response, input };
}

/** What is wrong with `once` and `times`, or undefined: a whole number of answers in range, and not both but once. */
function timesProblem(options: OverrideOptions): OverrideProblem | undefined {
  const { once, times } = options as { once?: unknown; times?: unknown };
  const problem = (message: string): OverrideProblem => ({ path: '', message, rule: 'times', specPointer: '' });
  if (once !== undefined && typeof once !== 'boolean') return problem('once must be true or false');
  if (times === undefined) return undefined;
  if (typeof times !== 'number' || !Number.isInteger(times) || times < 1 || times > MAX_TIMES)
    return problem(`times must be a whole number from 1 to ${MAX_TIMES}`);
  if (once === true && times !== 1) return problem('give once or times, not both');
  return undefined;
}

/**
 * Builds an override from what PUT /__mock/overrides takes (and the storage keeps): checked unless `unchecked`.
 * @example buildOverrideFrom({ operation: 'GET /v1/agents/{agentId}', status: 404 }).response.status // 404
 */
export function buildOverrideFrom(input: OverrideInput): BuiltOverride {
  return buildOverride(
    input.operation,
    input.status,
    input.body,
    {
      ...(input.headers && { headers: input.headers }),
      ...(input.once !== undefined && { once: input.once }),
      ...(input.times !== undefined && { times: input.times }),
    },
    input.unchecked !== true,
  );
}

/**
 * Headers that say how the message is framed or the connection used: the HTTP layer writes them itself, and an answer
 * carrying its own would be framed twice (Transfer-Encoding beside Content-Length) or take over the connection.
 */
const FRAMING_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
]);

/**
 * What no override may answer, checked or not (`unchecked` lifts the spec's rules, not HTTP's): a status that is not
 * a final answer (1xx) and framing headers. Whoever builds an override goes through here: PUT /__mock/overrides, the
 * test API and each override loaded from storage.
 */
function unsendableProblems(response: MockResponse): OverrideProblem[] {
  const problems: OverrideProblem[] = [];
  if (response.status < 200 || response.status > 599)
    problems.push({
      path: '',
      message: `status ${response.status} is not a final answer (200 to 599)`,
      rule: 'status-final',
      specPointer: '',
    });
  for (const name of Object.keys(response.headers))
    if (FRAMING_HEADERS.has(name))
      problems.push({
        path: `/headers/${name}`,
        message: `${name} frames the message; the server sets it`,
        rule: 'framing-header',
        specPointer: '',
      });
  return problems;
}

/** Everything the response checker finds wrong with an answer, undocumented fields included (a misspelt one is one). */
function overrideProblems(operationId: OperationId, response: MockResponse): OverrideProblem[] {
  const check = checkResponse({
    operationId,
    status: response.status,
    contentType: response.headers['content-type'],
    body: response.body,
    headers: response.headers,
  });
  return [...check.violations, ...check.warnings].map((v) => ({
    path: v.pointer,
    message: v.message.startsWith(v.pointer) && v.pointer !== '' ? v.message.slice(v.pointer.length + 1) : v.message,
    rule: v.rule,
    specPointer: v.specPointer,
  }));
}

/** The `instance` member as JSON.stringify writes it into a problem body. */
const instanceField = (instance: string): string => `"instance":${JSON.stringify(instance)}`;

/**
 * A copy of an override's answer for one request (adapters add CORS headers to what they are given): an answer from
 * the spec's example names the request's own path as its `instance`, as any other answer of the fake does.
 * @example const response = overrideAnswer(built.response, request.path);
 */
export function overrideAnswer(response: OverrideResponse, instance: string): MockResponse {
  const body =
    response.exampleInstance === undefined
      ? response.body
      : response.body.replace(instanceField(response.exampleInstance), instanceField(instance.slice(0, 2048)));
  return { status: response.status, headers: { ...response.headers }, body };
}
