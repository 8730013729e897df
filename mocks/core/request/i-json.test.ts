// I-JSON (RFC 7493) breaches that JSON.parse lets through: repeated member names and lone surrogate escapes.
import { describe, expect, it } from 'vitest';
import { findIJsonViolation } from './i-json.ts';
import { readJsonBody } from './request-body.ts';

describe('findIJsonViolation', () => {
  const cases: [string, { given: string; want: { path: string; message: RegExp } | undefined }][] = [
    ['a plain object', { given: '{"a":1,"b":[1,2,{"c":"d"}]}', want: undefined }],
    ['the same name in sibling objects', { given: '[{"a":1},{"a":2}]', want: undefined }],
    ['the same name at two levels', { given: '{"a":{"a":1}}', want: undefined }],
    ['a repeated top-level name', { given: '{"name":"x","name":"y"}', want: { path: '/name', message: /repeats/ } }],
    [
      'a repeated name spelled with an escape',
      { given: '{"task":"x","t\\u0061sk":"y"}', want: { path: '/task', message: /"task"/ } },
    ],
    [
      'a repeated nested name, pointer escaped',
      { given: '{"p":[0,{"a/b":1,"a/b":2}]}', want: { path: '/p/1/a~1b', message: /repeats/ } },
    ],
    [
      'after an empty object in an array',
      { given: '[{},"x",{"k":1,"k":2}]', want: { path: '/2/k', message: /repeats/ } },
    ],
    ['quotes and backslashes in strings', { given: '{"a":"\\"}{,\\\\","b":"\\\\"}', want: undefined }],
    ['a surrogate pair', { given: '{"emoji":"\\ud83d\\ude00"}', want: undefined }],
    ['a lone high surrogate', { given: '{"t":"\\ud83d"}', want: { path: '/t', message: /lone surrogate.*ud83d/ } }],
    ['a lone low surrogate', { given: '{"t":["ok","\\uDE00x"]}', want: { path: '/t/1', message: /lone surrogate/ } }],
    [
      'a high surrogate followed by a non-surrogate',
      { given: '"\\ud800\\u0041"', want: { path: '', message: /lone/ } },
    ],
    ['two high surrogates', { given: '"\\ud800\\ud800"', want: { path: '', message: /lone/ } }],
    ['a lone surrogate in a member name', { given: '{"\\udc00":1}', want: { path: '', message: /lone/ } }],
    ['raw non-ASCII text', { given: '{"t":"héllo 😀"}', want: undefined }],
    [
      'a repeated name with space before the colon',
      { given: '{"a" :1,\n "a"\t: 2}', want: { path: '/a', message: /repeats/ } },
    ],
    [
      'a repeated name ending in a backslash',
      { given: '{"a\\\\":1,"a\\\\":2}', want: { path: '/a\\', message: /repeats/ } },
    ],
    ['an escaped quote in a name, not repeated', { given: '{"a\\"":1,"a":2}', want: undefined }],
    [
      'a repeated name holding an escaped quote',
      { given: '{"k\\"":1,"k\\"":2}', want: { path: '/k"', message: /repeats/ } },
    ],
    [
      'a repeated __proto__',
      { given: '{"__proto__":1,"__proto__":2}', want: { path: '/__proto__', message: /repeats/ } },
    ],
    ['a string value that looks like a name', { given: '["a",":","b"]', want: undefined }],
    [
      'a repeated name deep in arrays',
      { given: '[[[{"x":[{"k":1,"k":2}]}]]]', want: { path: '/0/0/0/x/0/k', message: /repeats/ } },
    ],
  ];
  // Each case both ways: the name-by-name pass, and with the parsed value (the counting shortcut the fake takes).
  it.each(cases)('%s', (_name, { given, want }) => {
    const parsed: unknown = JSON.parse(given); // every case is JSON that JSON.parse accepts
    for (const found of [findIJsonViolation(given), findIJsonViolation(given, parsed)]) {
      if (want === undefined) expect(found).toBeUndefined();
      else {
        expect(found?.path).toBe(want.path);
        expect(found?.message).toMatch(want.message);
      }
    }
  });
});

describe('readJsonBody refuses what I-JSON forbids', () => {
  it.each([
    ['{"task":"x","task":"y"}', '/task'],
    ['{"task":"\\ud800"}', '/task'],
  ])('%s → 400 at %s', (text, path) => {
    const parsed = readJsonBody({
      method: 'POST',
      path: '/v1/agents/a/execute',
      query: '',
      headers: { 'content-type': 'application/json' },
      body: new TextEncoder().encode(text),
    });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.response.status).toBe(400);
      expect(JSON.parse(parsed.response.body)).toMatchObject({
        type: 'https://agent-registry.dev/problems/malformed-json',
        title: 'Request body is not I-JSON (RFC 7493)',
        errors: [{ path }],
      });
    }
  });
});
