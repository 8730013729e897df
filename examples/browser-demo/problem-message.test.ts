import { describe, expect, it } from 'vitest';
import { problemMessage, type ErrorAnswer, type ReadableError } from './problem-message.ts';

const cases: Array<[string, { given: ErrorAnswer; want: ReadableError }]> = [
  [
    'a 404 problem',
    {
      given: {
        status: 404,
        body: {
          type: 'https://agent-registry.dev/problems/agent-not-found',
          title: 'Agent not found',
          status: 404,
          detail: 'No agent has the id agt_x.',
        },
      },
      want: { headline: '404 Agent not found: No agent has the id agt_x.', lines: [] },
    },
  ],
  [
    'a 400 with field errors',
    {
      given: {
        status: 400,
        body: {
          type: 'x',
          title: 'Request body is invalid',
          status: 400,
          detail: 'The request body breaks the schema in 2 places.',
          errors: [
            { path: '/revenueShare', message: 'must be <= 1' },
            { path: '', message: 'is not valid JSON' },
          ],
        },
      },
      want: {
        headline: '400 Request body is invalid: The request body breaks the schema in 2 places.',
        lines: ['/revenueShare must be <= 1', '(body) is not valid JSON'],
      },
    },
  ],
  [
    'a 429 with Retry-After',
    {
      given: { status: 429, body: { type: 'x', title: 'Too many requests', status: 429 }, retryAfter: '7' },
      want: { headline: '429 Too many requests (retry in 7 s)', lines: [] },
    },
  ],
  [
    'a 429 whose detail already says when to retry',
    {
      given: {
        status: 429,
        body: { type: 'x', title: 'Too many requests', status: 429, detail: 'Limit exceeded; retry in 7 s.' },
        retryAfter: '7',
      },
      want: { headline: '429 Too many requests: Limit exceeded; retry in 7 s.', lines: [] },
    },
  ],
  [
    'a body that is not a problem',
    {
      given: { status: 502, body: '<html>Bad gateway</html>' },
      want: { headline: '502 without problem details: <html>Bad gateway</html>', lines: [] },
    },
  ],
  [
    'no body at all',
    {
      given: { status: 500, body: undefined },
      want: { headline: '500 without problem details', lines: [] },
    },
  ],
  [
    'a problem whose errors are not a list',
    {
      given: { status: 400, body: { title: 'Bad', status: 400, errors: 'oops' } },
      want: { headline: '400 Bad', lines: [] },
    },
  ],
];

describe('problemMessage', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(problemMessage(given)).toEqual(want);
  });
});
