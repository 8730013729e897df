// The one redactor hides the token in every form a server commonly echoes it in, and text is redacted before it is cut.
import { describe, expect, it, test } from 'vitest';
import { hostileTokens } from './requests/hostile-tokens.ts';
import { createRedactor, describeServerText, redactedMark } from './redaction.ts';

const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZXYtdXNlciJ9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';
// An opaque token with the characters escapes care about: `/` (JSON's `\/`), `+`, `=`.
const opaque = 'tok_4f/Zq+9x/Lm0pQ==';

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const base64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
/** Every character as `\u00XX`, upper-case hex, as .NET's encoder writes the ones it escapes. */
const unicodeEscaped = (text: string): string =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join('');
/** PHP's json_encode inside a string: JSON's escapes, and `/` as `\/`. */
const php = (text: string): string => JSON.stringify(text).slice(1, -1).replaceAll('/', '\\/');
/** An HTML writer: `&` as `&amp;` first, then `/` as `&#x2F;`. */
const html = (text: string): string => text.replaceAll('&', '&amp;').replaceAll('/', '&#x2F;');
/** JavaScript's code-point escapes for every non-alphanumeric character: `\u{2f}`. */
const codePointEscaped = (text: string): string =>
  text.replace(/[^A-Za-z0-9]/g, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
/** Decimal references without `;` where no digit follows (as HTML parsers read them). */
const entitiesNoSemicolon = (text: string): string =>
  text.replace(/[^A-Za-z0-9](?=(.?))/g, (c, next: string) => `&#${c.charCodeAt(0)}${/\d/.test(next) ? ';' : ''}`);
const percentAll = (text: string): string => [...text].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');

/** The base64 characters that only the token's bytes determine, in the encoding of `prefix + token + suffix`. */
function tokenPartOfBase64(prefix: string, token: string, suffix: string, url = false): string {
  const encoded = url ? base64url(prefix + token + suffix) : base64(prefix + token + suffix);
  const p = Buffer.byteLength(prefix);
  return encoded.slice(Math.ceil((8 * p) / 6), Math.floor((8 * (p + Buffer.byteLength(token))) / 6));
}

const forms: Array<[string, (token: string) => { echoed: string; secret: string }]> = [
  ['the token itself', (t) => ({ echoed: `you sent ${t}`, secret: t })],
  ['JSON-escaped slashes (PHP)', (t) => ({ echoed: php(t), secret: php(t) })],
  ['unicode escapes', (t) => ({ echoed: unicodeEscaped(t), secret: unicodeEscaped(t) })],
  [
    'JSON inside a JSON string',
    // A PHP answer (`\/`) quoted once more as a JSON string: `\\/`.
    (t) => ({ echoed: JSON.stringify(`{"t":"${php(t)}"}`), secret: JSON.stringify(php(t)).slice(1, -1) }),
  ],
  ['percent-encoded (encodeURIComponent)', (t) => ({ echoed: encodeURIComponent(t), secret: encodeURIComponent(t) })],
  ['every character percent-encoded', (t) => ({ echoed: percentAll(t), secret: percentAll(t) })],
  [
    'double percent-encoded',
    (t) => ({ echoed: encodeURIComponent(encodeURIComponent(t)), secret: encodeURIComponent(encodeURIComponent(t)) }),
  ],
  ['HTML entities', (t) => ({ echoed: html(t), secret: html(t) })],
  ['base64 of the token', (t) => ({ echoed: base64(t), secret: base64(t) })],
  ['base64 of Bearer <token>', (t) => ({ echoed: base64(`Bearer ${t}`), secret: tokenPartOfBase64('Bearer ', t, '') })],
  ...[0, 1, 2].map((aligned): [string, (token: string) => { echoed: string; secret: string }] => [
    `base64 of a JSON document holding it (alignment ${aligned})`,
    (t) => {
      const prefix = `{"k":"${'x'.repeat(aligned)}`;
      return { echoed: base64(`${prefix}${t}"}`), secret: tokenPartOfBase64(prefix, t, '"}') };
    },
  ]),
  ...[0, 1, 2].map((aligned): [string, (token: string) => { echoed: string; secret: string }] => [
    `base64url of a longer text (alignment ${aligned})`,
    (t) => {
      const prefix = `token=${'y'.repeat(aligned)}`;
      return { echoed: base64url(`${prefix}${t}&x=1`), secret: tokenPartOfBase64(prefix, t, '&x=1', true) };
    },
  ]),
  ['base64url of the token', (t) => ({ echoed: base64url(t), secret: base64url(t) })],
  ['base64 in a URL, percent-encoded', (t) => ({ echoed: encodeURIComponent(base64(t)), secret: base64(t) })],
  ['hex', (t) => ({ echoed: Buffer.from(t).toString('hex'), secret: Buffer.from(t).toString('hex') })],
  [
    'upper-case hex',
    (t) => ({
      echoed: Buffer.from(t).toString('hex').toUpperCase(),
      secret: Buffer.from(t).toString('hex').toUpperCase(),
    }),
  ],
  ['JSON.stringify', (t) => ({ echoed: JSON.stringify(t).slice(1, -1), secret: JSON.stringify(t).slice(1, -1) })],
  [
    'JSON.stringify twice',
    (t) => ({ echoed: JSON.stringify(JSON.stringify(t)), secret: JSON.stringify(JSON.stringify(t)).slice(2, -2) }),
  ],
  ['JavaScript \\u{…} escapes', (t) => ({ echoed: codePointEscaped(t), secret: codePointEscaped(t) })],
  ['HTML numeric entities without ;', (t) => ({ echoed: entitiesNoSemicolon(t), secret: entitiesNoSemicolon(t) })],
  ...(['bad-signature', 'alg-switched', 'payload-altered'] as const).map(
    (variant): [string, (token: string) => { echoed: string; secret: string }] => [
      `the token derived as ${variant}, base64-encoded`,
      (t) => {
        const derived = hostileTokens(t)[variant] ?? t;
        return { echoed: base64(`Bearer ${derived}`), secret: tokenPartOfBase64('Bearer ', derived, '') };
      },
    ],
  ),
];

/** True when some `width`-character piece of `secret` (taken every `step` characters) is in `text`. */
function leaks(text: string, secret: string, width = 8, step = 2): boolean {
  if (secret.length <= width) return text.includes(secret);
  for (let at = 0; at + width <= secret.length; at += step)
    if (text.includes(secret.slice(at, at + width))) return true;
  return false;
}

// Printable ASCII a token may hold that escapes treat specially: `\` (JSON.stringify's `\\`), `%` (`%25`), `"`, `&`.
const awkward = 'tok_\\a%2Fb"c&amp;d/e+f=%25g';

describe.each([
  ['a JWT', jwt],
  ['an opaque token with / + =', opaque],
  ['a token with \\ % " &', awkward],
])('%s', (_name, token) => {
  const redact = createRedactor(token);
  test.each(forms)('is hidden when echoed as %s', (_form, make) => {
    const { echoed, secret } = make(token);
    const text = `before ${echoed} after`;
    expect(leaks(text, secret), 'the test form really holds the token').toBe(true);
    const redacted = redact(text);
    expect(redacted).toContain('<redacted>');
    expect(leaks(redacted, secret)).toBe(false);
    expect(redacted.startsWith('before ') && redacted.endsWith(' after')).toBe(true);
  });
});

test.each([
  ['its payload alone', { given: 'payload eyJzdWIiOiJkZXYtdXNlciJ9 echoed', want: 'payload <redacted> echoed' }],
  ['its signature alone', { given: 'sig c2lnbmF0dXJlLW9mLXRoZS10b2tlbg.', want: 'sig <redacted>.' }],
  ['its signature as standard base64', { given: 'sig c2lnbmF0dXJlLW9mLXRoZS10b2tlbg==', want: 'sig <redacted>==' }],
  ['text without secrets', { given: 'nothing to hide, not even c2lnbmF0', want: 'nothing to hide, not even c2lnbmF0' }],
])('a JWT: %s', (_name, { given, want }) => {
  expect(createRedactor(jwt)(given)).toBe(want);
});

test.each([
  ['as lower-case hex', Buffer.from('c2lnbmF0dXJlLW9mLXRoZS10b2tlbg', 'base64url').toString('hex')],
  ['as upper-case hex', Buffer.from('c2lnbmF0dXJlLW9mLXRoZS10b2tlbg', 'base64url').toString('hex').toUpperCase()],
])('a JWT: its signature bytes %s', (_name, hex) => {
  expect(createRedactor(jwt)(`hmac=${hex};`)).toBe('hmac=<redacted>;');
});

test('a token shorter than any derived piece is still hidden, and nothing else is', () => {
  expect(createRedactor('x.y.z')('got x.y.z and y and x%2Ey%2Ez')).toBe('got <redacted> and y and <redacted>');
});

describe('describeServerText', () => {
  const redact = createRedactor(jwt);
  test.each([
    ['the token straddles the cut', 100],
    ['the signature straddles the cut', 140],
    ['the token ends at the cut', 80 + jwt.length],
  ])('redacts before it cuts: %s', (_name, limit) => {
    const text = `${'x'.repeat(80)}${jwt}${'y'.repeat(200)}`;
    const shown = describeServerText(redact, text, limit);
    expect(shown).toMatch(/\.\.\. \(\d+ characters\)$/);
    for (const part of jwt.split('.')) expect(leaks(shown, part)).toBe(false);
  });

  test('leaves short text whole', () => {
    expect(describeServerText(redact, `got ${jwt}`, 120)).toBe('got <redacted>');
  });
});

describe('createRedactor of many tokens (every credential of a pact, one redactor built once)', () => {
  const tokens = Array.from(
    { length: 2000 },
    (_, index) =>
      `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(`{"sub":"user-${index}"}`).toString('base64url')}.sig${index}xxxxxxxx`,
  );
  const redact = createRedactor(tokens);

  it('hides each of 2,000 tokens as written, in base64 and percent-encoded, and leaves other text alone', () => {
    for (const index of [0, 777, 1999]) {
      const token = tokens[index] ?? '';
      expect(redact(`a ${token} b`)).toBe(`a ${redactedMark} b`);
      expect(redact(Buffer.from(`Bearer ${token}`).toString('base64'))).not.toContain(
        Buffer.from(token).toString('base64').slice(4, 20),
      );
      expect(redact(encodeURIComponent(`x=${token}&y`))).not.toContain(`sig${index}xxxxxxxx`);
    }
    expect(redact('nothing secret here, eyJhbGciOiJIUzI1NiJ9 alone is a header')).toContain('nothing secret here');
  });

  it('makes one mark of overlapping secrets and two of adjacent ones', () => {
    const [first = '', second = ''] = tokens;
    expect(redact(`${first}${second}`)).toBe(`${redactedMark}${redactedMark}`);
  });
});
