import { describe, expect, it } from 'vitest';
import { documentedExamples } from './documented-response.ts';
import { parsePrefer, type Preference } from './prefer.ts';

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
    ['a code that is not three digits is ignored', { given: 'code=abc', want: undefined }],
    ['Prism dynamic is ignored', { given: 'dynamic=true, code=500', want: { code: 500, example: undefined } }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(parsePrefer(given)).toEqual(want);
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
