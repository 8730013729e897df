import { describe, expect, it } from 'vitest';
import { documentedExamples } from '../documented-response.ts';
import { parsePrefer, preferredResponse, type Preference } from './prefer.ts';

describe('parsePrefer', () => {
  const cases: [string, { given: string | undefined; want: Preference | undefined }][] = [
    ['no header', { given: undefined, want: undefined }],
    ['a code', { given: 'code=404', want: { code: 404, example: undefined } }],
    ['an example', { given: 'example=pausedAgent', want: { code: undefined, example: 'pausedAgent' } }],
    ['both, comma-separated', { given: 'code=200, example=pausedAgent', want: { code: 200, example: 'pausedAgent' } }],
    [
      'both, semicolon-separated, quoted',
      { given: 'code="409"; example="paused"', want: { code: 409, example: 'paused' } },
    ],
    ['unrelated preferences are ignored', { given: 'return=minimal, respond-async', want: undefined }],
    // The README promises a 400 for a code that is not documented; one that is not a status code at all is one of them.
    ...(['abc', '1e3', '0500', '__proto__', '5OO', ''] as const).map(
      (text): [string, { given: string; want: Preference }] => [
        `code=${text} is unreadable, kept to be refused`,
        { given: `code=${text}`, want: { code: undefined, example: undefined, unreadableCode: text } },
      ],
    ),
    ['Prism dynamic is ignored', { given: 'dynamic=true, code=500', want: { code: 500, example: undefined } }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(parsePrefer(given)).toEqual(want);
  });
});

describe('preferredResponse', () => {
  it.each(['1e3', '0500', '__proto__', '0x1F4'])('Prefer: code=%s → 400 naming the documented codes', (text) => {
    const preference = parsePrefer(`code=${text}`);
    expect(preference).toBeDefined();
    const answer = preference && preferredResponse('getAgent', preference, '/v1/agents/agt_1');
    expect(answer?.status).toBe(400);
    expect(JSON.stringify(answer?.body)).toMatch(/is not a status code; use one of 200, 400/);
  });
});

describe('documentedExamples', () => {
  it('reads the examples of a response from the spec, references resolved', () => {
    expect(documentedExamples('getAgent', 200).map((example) => example.name)).toEqual(['tradingAgent', 'pausedAgent']);
    expect(documentedExamples('deployAgent', 400).map((example) => example.mediaType)).toEqual([
      'application/problem+json',
      'application/problem+json',
    ]);
    expect(documentedExamples('getAgent', 409)).toEqual([]);
  });
});
