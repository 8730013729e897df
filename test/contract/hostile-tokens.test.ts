// The tokens the auth checks derive from API_TOKEN each break exactly what they say, and the fake backend (a correct
// server) refuses every one of them while it accepts the token they come from.
import { describe, expect, test } from 'vitest';
import { hostileTokens } from '../../verifier-client/requests/hostile-tokens.ts';
import { createAuthenticator, DEFAULT_JWT_SECRET, mintToken } from '../../mocks/core/request/auth.ts';

const token = await mintToken({ sub: 'alice' });
const [header, payload, signature] = token.split('.');
const hostile = hostileTokens(token);
const decode = (segment: string | undefined): Record<string, unknown> =>
  JSON.parse(Buffer.from(segment ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

describe('hostileTokens', () => {
  test.each<[keyof typeof hostile, (parts: string[]) => void]>([
    ['bad-signature', ([h, p, s]) => expect([h, p, s === signature]).toEqual([header, payload, false])],
    ['signature-removed', (parts) => expect(parts).toEqual([header, payload, ''])],
    ['alg-none', ([h, p, s]) => expect([decode(h).alg, p, s]).toEqual(['none', payload, ''])],
    ['alg-switched', ([h, p, s]) => expect([decode(h).alg, p, s]).toEqual(['HS512', payload, signature])],
    [
      'payload-altered',
      ([h, p, s]) =>
        expect([h, decode(p).sub, decode(p).exp, s]).toEqual([header, 'alice-altered', decode(payload).exp, signature]),
    ],
  ])('%s', (variant, expectParts) => {
    const derived = hostile[variant];
    expect(derived).toBeDefined();
    expectParts((derived ?? '').split('.'));
  });

  test('a correct server refuses each, and accepts the token itself', async () => {
    const authenticator = createAuthenticator(DEFAULT_JWT_SECRET);
    expect((await authenticator.authenticate(`Bearer ${token}`)).ok).toBe(true);
    for (const [variant, derived] of Object.entries(hostile))
      expect((await authenticator.authenticate(`Bearer ${derived}`)).ok, variant).toBe(false);
  });

  test('a token that is not a JWT yields only the altered signature', () => {
    expect(hostileTokens('opaque-token-value')).toEqual({
      'bad-signature': 'Apaque-token-value',
      'signature-removed': undefined,
      'alg-none': undefined,
      'alg-switched': undefined,
      'payload-altered': undefined,
    });
  });
});
