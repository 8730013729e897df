import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  bearerChallenge,
  createAuthenticator,
  MAX_TOKEN_LIFETIME_SECONDS,
  mintToken,
  TOKEN_CACHE_BYTES,
} from './auth.ts';

const NOW = Date.parse('2026-11-20T12:00:00.000Z');
const sign = (
  claims: Record<string, unknown>,
  secret = 'agent-registry-kit-dev-secret',
  alg = 'HS256',
): Promise<string> => new SignJWT(claims).setProtectedHeader({ alg }).sign(new TextEncoder().encode(secret));

/** A correctly signed HS256 token over a payload given as raw JSON text (claims JSON.stringify cannot write, e.g. 1e309). */
function signRaw(payloadJson: string, secret = 'agent-registry-kit-dev-secret'): string {
  const encode = (text: string): string => Buffer.from(text).toString('base64url');
  const input = `${encode('{"alg":"HS256","typ":"JWT"}')}.${encode(payloadJson)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

const nowSeconds = NOW / 1000;

describe('claim rules: exp required, lifetime bounded, iat not in the future, no claim value crashes the answer', () => {
  const cases: [string, { payload: string; want: RegExp | 'accepted' }][] = [
    ['no exp', { payload: `{"sub":"a","iat":${nowSeconds}}`, want: /exp.*missing/ }],
    [
      'an exp beyond the lifetime bound',
      { payload: `{"sub":"a","exp":${nowSeconds + MAX_TOKEN_LIFETIME_SECONDS + 60}}`, want: /more than 7 days ahead/ },
    ],
    [
      'an exp just within the bound',
      { payload: `{"sub":"a","exp":${nowSeconds + MAX_TOKEN_LIFETIME_SECONDS - 60}}`, want: 'accepted' },
    ],
    [
      'an iat an hour in the future',
      { payload: `{"sub":"a","iat":${nowSeconds + 3600},"exp":${nowSeconds + 7200}}`, want: /iat.*in the future/ },
    ],
    [
      'an iat 30 s ahead (clock skew)',
      { payload: `{"sub":"a","iat":${nowSeconds + 30},"exp":${nowSeconds + 3600}}`, want: 'accepted' },
    ],
    ['exp -1e17', { payload: '{"sub":"a","exp":-1e17}', want: /expired at -100000000000000000/ }],
    ['exp 1e309 (Infinity once parsed)', { payload: '{"sub":"a","exp":1e309}', want: /exp claim is Infinity/ }],
    ['exp 1e300', { payload: '{"sub":"a","exp":1e300}', want: /exp claim is 1e\+300/ }],
    ['exp as a string', { payload: '{"sub":"a","exp":"tomorrow"}', want: /exp claim/ }],
    ['exp as an object', { payload: '{"sub":"a","exp":{"valueOf":1}}', want: /exp claim/ }],
    ['exp as an array', { payload: '{"sub":"a","exp":[1]}', want: /exp claim/ }],
    ['exp null', { payload: '{"sub":"a","exp":null}', want: /exp claim/ }],
    ['iat -1e17', { payload: `{"sub":"a","iat":-1e17,"exp":${nowSeconds + 60}}`, want: 'accepted' }],
    ['iat 1e309', { payload: `{"sub":"a","iat":1e309,"exp":${nowSeconds + 60}}`, want: /iat claim is Infinity/ }],
    ['iat as a string', { payload: `{"sub":"a","iat":"now","exp":${nowSeconds + 60}}`, want: /iat claim/ }],
    ['nbf 1e309', { payload: `{"sub":"a","nbf":1e309,"exp":${nowSeconds + 60}}`, want: /nbf claim/ }],
    // The sub becomes `creator`: served, persisted, printed. A lone surrogate would be served and then refused as input.
    ...['\\ud800', '\\udfffa', 'a\\u0000b', '\\u001b[31mred', 'a\\u009bb', 'a\\u007f'].map(
      (sub): [string, { payload: string; want: RegExp }] => [
        `sub "${sub}"`,
        {
          payload: `{"sub":"${sub}","exp":${nowSeconds + 60}}`,
          want: /sub claim holds a control character or a lone surrogate/,
        },
      ],
    ),
    // Stored agents are loaded again only when their creator has at most 256 characters: a longer sub is refused here.
    [
      'sub of 257 characters',
      {
        payload: `{"sub":"${'s'.repeat(257)}","exp":${nowSeconds + 60}}`,
        want: /sub claim has 257 characters, more than 256/,
      },
    ],
    ['sub of 256 characters', { payload: `{"sub":"${'s'.repeat(256)}","exp":${nowSeconds + 60}}`, want: 'accepted' }],
    [
      'sub in any script',
      { payload: `{"sub":"\\u00e9l\\u00e8ve-\\ud83d\\ude00","exp":${nowSeconds + 60}}`, want: 'accepted' },
    ],
  ];
  it.each(cases)('%s', async (_name, { payload, want }) => {
    const result = await createAuthenticator(undefined, () => NOW).authenticate(`Bearer ${signRaw(payload)}`);
    if (want === 'accepted') {
      expect(result).toEqual({ ok: true, sub: JSON.parse(payload).sub });
      return;
    }
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.detail).toMatch(want);
      expect(result.error).toBe('invalid_token');
    }
  });
});

describe('createAuthenticator', () => {
  const cases: [string, { given: () => Promise<string | undefined>; want: RegExp }][] = [
    ['no header', { given: async () => undefined, want: /missing/ }],
    ['an empty header', { given: async () => '', want: /missing/ }],
    ['a Basic header', { given: async () => 'Basic dXNlcjpwYXNz', want: /not a Bearer token/ }],
    ['Bearer without a token', { given: async () => 'Bearer ', want: /not a Bearer token/ }],
    ['a malformed token', { given: async () => 'Bearer not.a.jwt', want: /not a well-formed JWT/ }],
    [
      'a wrongly signed token',
      {
        given: async () => `Bearer ${await mintToken({ secret: 'another-secret', now: NOW })}`,
        want: /not signed with the expected secret/,
      },
    ],
    [
      'an expired token',
      {
        given: async () => `Bearer ${await mintToken({ expired: true, now: NOW })}`,
        want: /expired at 2026-11-20T11:59:00.000Z/,
      },
    ],
    [
      'a token without sub',
      { given: async () => `Bearer ${await sign({ exp: NOW / 1000 + 60 })}`, want: /no `sub` claim/ },
    ],
    [
      'a token with alg none',
      {
        given: async () =>
          `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"a"}').toString('base64url')}.`,
        want: /HS256|well-formed/,
      },
    ],
    ['a huge header', { given: async () => `Bearer ${'a'.repeat(10_000)}`, want: /not a Bearer token/ }],
  ];
  it.each(cases)('rejects %s', async (_name, { given, want }) => {
    const result = await createAuthenticator(undefined, () => NOW).authenticate(await given());
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.detail).toMatch(want);
      expect(bearerChallenge(result)).toMatch(/^Bearer\b/);
    }
  });

  it('accepts a token minted by mintToken and names its sub', async () => {
    const auth = createAuthenticator(undefined, () => NOW);
    expect(await auth.authenticate(`Bearer ${await mintToken({ sub: 'alice', now: NOW })}`)).toEqual({
      ok: true,
      sub: 'alice',
    });
  });

  it('accepts the scheme in any case', async () => {
    const auth = createAuthenticator(undefined, () => NOW);
    expect((await auth.authenticate(`bearer ${await mintToken({ now: NOW })}`)).ok).toBe(true);
  });

  it('rejects a cached token once it expires', async () => {
    let now = NOW;
    const auth = createAuthenticator(undefined, () => now);
    const header = `Bearer ${await mintToken({ ttlSeconds: 60, now: NOW })}`;
    expect((await auth.authenticate(header)).ok).toBe(true);
    now += 61_000;
    const later = await auth.authenticate(header);
    expect(later.ok).toBe(false);
  });

  it('uses the configured secret', async () => {
    const auth = createAuthenticator('s3cret', () => NOW);
    expect((await auth.authenticate(`Bearer ${await mintToken({ secret: 's3cret', now: NOW })}`)).ok).toBe(true);
    expect((await auth.authenticate(`Bearer ${await mintToken({ now: NOW })}`)).ok).toBe(false);
  });
});

describe('the verified-token cache is bounded in bytes, not tokens', () => {
  it('2,000 distinct 7.9 KB tokens keep it under TOKEN_CACHE_BYTES, and each is still accepted', async () => {
    const auth = createAuthenticator(undefined, () => NOW);
    for (let i = 0; i < 2000; i += 1) {
      const token = signRaw(`{"sub":"u${i}","exp":${nowSeconds + 600},"pad":"${'x'.repeat(5800)}"}`);
      expect(token.length).toBeGreaterThan(7800);
      expect((await auth.authenticate(`Bearer ${token}`)).ok).toBe(true);
      expect(auth.cachedBytes()).toBeLessThanOrEqual(TOKEN_CACHE_BYTES);
    }
    expect(auth.cachedBytes()).toBeGreaterThan(0);
  });
});

describe('remembered: the synchronous answer for the last accepted header, never for another or an expired one', () => {
  it('answers the header just accepted, nothing else, and stops at the token expiry', async () => {
    let now = NOW;
    const auth = createAuthenticator(undefined, () => now);
    const token = await mintToken({ sub: 'alice', now: NOW, ttlSeconds: 60 });
    const other = await mintToken({ sub: 'bob', now: NOW, ttlSeconds: 60 });
    expect(auth.remembered(`Bearer ${token}`)).toBeUndefined();
    expect(await auth.authenticate(`Bearer ${token}`)).toEqual({ ok: true, sub: 'alice' });
    expect(auth.remembered(`Bearer ${token}`)).toEqual({ ok: true, sub: 'alice' });
    expect(auth.remembered(`Bearer ${other}`)).toBeUndefined();
    expect(auth.remembered(`bearer ${token}`)).toBeUndefined();
    expect(auth.remembered(undefined)).toBeUndefined();
    // A refused header does not replace the remembered one, and is never remembered itself.
    expect((await auth.authenticate('Bearer not.a.jwt')).ok).toBe(false);
    expect(auth.remembered('Bearer not.a.jwt')).toBeUndefined();
    expect(auth.remembered(`Bearer ${token}`)).toEqual({ ok: true, sub: 'alice' });
    now = NOW + 61_000;
    expect(auth.remembered(`Bearer ${token}`)).toBeUndefined();
    expect(await auth.authenticate(`Bearer ${token}`)).toMatchObject({ ok: false, detail: /expired/ });
  });
});
