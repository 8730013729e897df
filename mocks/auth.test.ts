import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { bearerChallenge, createAuthenticator, mintToken } from './auth.ts';

const NOW = Date.parse('2026-11-20T12:00:00.000Z');
const sign = (
  claims: Record<string, unknown>,
  secret = 'agent-registry-kit-dev-secret',
  alg = 'HS256',
): Promise<string> => new SignJWT(claims).setProtectedHeader({ alg }).sign(new TextEncoder().encode(secret));

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
