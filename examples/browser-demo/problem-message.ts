// Turns an error answer of the API into words a person can read: the status, the problem's title and detail, each bad field.
import type { Problem } from '../../spec/index.ts';

/** An answer that was not a success, as the demo received it. */
export interface ErrorAnswer {
  status: number;
  /** The parsed body (a problem+json object when the server follows the spec), or its text when it is not JSON. */
  body: unknown;
  /** The Retry-After header of a 429, when there is one. */
  retryAfter?: string | null;
}

/** What the page shows: one headline and, for validation errors, one line per bad field. */
export interface ReadableError {
  headline: string;
  lines: string[];
}

function isProblem(body: unknown): body is Problem {
  if (typeof body !== 'object' || body === null) return false;
  const candidate = body as Record<string, unknown>;
  return typeof candidate.title === 'string' && typeof candidate.status === 'number';
}

/**
 * Describes an error answer; never throws, whatever the body is.
 * @example problemMessage({ status: 404, body: { type: 'about:blank', title: 'Agent not found', status: 404, detail: 'No agent has the id x.' } })
 * // { headline: '404 Agent not found: No agent has the id x.', lines: [] }
 */
export function problemMessage(answer: ErrorAnswer): ReadableError {
  const retry = answer.status === 429 && answer.retryAfter ? ` (retry in ${answer.retryAfter} s)` : '';
  if (!isProblem(answer.body)) {
    const text =
      typeof answer.body === 'string' && answer.body.trim() !== '' ? `: ${answer.body.trim().slice(0, 200)}` : '';
    return { headline: `${answer.status} without problem details${text}${retry}`, lines: [] };
  }
  const problem = answer.body;
  const detail = typeof problem.detail === 'string' && problem.detail !== '' ? `: ${problem.detail}` : '';
  // Retry-After is only spelled out when the detail does not already say when to retry.
  const when = /retry/i.test(detail) ? '' : retry;
  const lines = (Array.isArray(problem.errors) ? problem.errors : []).map(
    (error) => `${error.path === '' ? '(body)' : error.path} ${error.message}`,
  );
  return { headline: `${answer.status} ${problem.title}${detail}${when}`, lines };
}
