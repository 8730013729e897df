// The redactor removes the token, each of its segments and derived secrets, whatever surrounds them.
import { expect, test } from 'vitest';
import { createRedactor } from '../../contract-tests/redaction.ts';

const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZXYtdXNlciJ9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';

test.each([
  ['the whole token', { given: `Bearer ${token}`, want: 'Bearer <redacted>' }],
  ['its payload alone', { given: 'payload eyJzdWIiOiJkZXYtdXNlciJ9 echoed', want: 'payload <redacted> echoed' }],
  ['a derived secret', { given: 'Bearer Ac2lnbmF0dXJl', want: 'Bearer <redacted>' }],
  ['text without secrets', { given: 'nothing to hide', want: 'nothing to hide' }],
])('%s', (_name, { given, want }) => {
  expect(createRedactor(token, ['Ac2lnbmF0dXJl'])(given)).toBe(want);
});
