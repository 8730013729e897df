// The auth decision: a bearer JWT, HS256 with the development secret, verified with jose and cached per token until it expires.
import * as errors from 'jose/errors';
import { SignJWT } from 'jose/jwt/sign';
import { jwtVerify } from 'jose/jwt/verify';
import { creatorProblem, MAX_CREATOR_LENGTH } from '../../state/agent-identity.ts';

/** The documented development secret; set MOCK_JWT_SECRET (or the `jwtSecret` option) to use another. */
export const DEFAULT_JWT_SECRET = 'agent-registry-kit-dev-secret';
/**
 * Bytes of verified tokens remembered at most: beyond it the cache starts over (a bound, not a policy). Counted in
 * bytes, not tokens: anyone can mint valid 8 KB tokens with the public default secret, and 10,000 of them took 540 MB.
 */
export const TOKEN_CACHE_BYTES = 8 * 1024 * 1024;
/** What one cache entry costs beside its strings: the map slot, the record, the string headers (an estimate). */
const ENTRY_OVERHEAD_BYTES = 160;
/** Longest Authorization header looked at; longer ones are rejected before jose sees them. */
const MAX_TOKEN_LENGTH = 8192;
const BEARER = /^Bearer +(\S+) *$/i;
/**
 * Longest lifetime accepted: a token must expire within 7 days of now (a decision of this kit: a development token
 * that leaks stops working within a week, and the verified-token cache never holds one longer).
 */
export const MAX_TOKEN_LIFETIME_SECONDS = 7 * 24 * 3600;
/** How far in the future a token's `iat` may lie: clocks of two machines disagree by a little, never by more. */
const TOKEN_CLOCK_SKEW_SECONDS = 60;

export type AuthResult =
  | { ok: true; sub: string }
  | { ok: false; detail: string; error: 'invalid_request' | 'invalid_token' | undefined };

/** Decides whether an Authorization header is accepted. */
export interface Authenticator {
  authenticate(header: string | undefined): Promise<AuthResult>;
  /**
   * The answer for the last Authorization header accepted, while its token is still valid; undefined for any other
   * header (then `authenticate` decides). Synchronous, and without the regex or a hash of the token: a client sends
   * the same header on every request, and on the hot path a GET spent about a sixth of its CPU in `authenticate`.
   */
  remembered(header: string | undefined): AuthResult | undefined;
}

/**
 * An authenticator for HS256 tokens signed with `secret`. `now` is wall time (tokens carry real expiry times).
 * @example const auth = createAuthenticator(); (await auth.authenticate(`Bearer ${token}`)).ok
 */
export function createAuthenticator(
  secret: string = DEFAULT_JWT_SECRET,
  now: () => number = Date.now,
  cacheBytes: number = TOKEN_CACHE_BYTES,
): Authenticator & { cachedBytes(): number } {
  let key: Promise<CryptoKey> | undefined;
  const verified = new Map<string, { sub: string; expiresAt: number; bytes: number }>();
  let bytes = 0;
  // One entry: the header as the client sent it, so the next identical header is recognised by one string compare.
  let last: { header: string; expiresAt: number; result: AuthResult } | undefined;
  const accepted = (header: string, sub: string, expiresAt: number): AuthResult => {
    const result: AuthResult = { ok: true, sub };
    last = { header, expiresAt, result };
    return result;
  };
  return {
    cachedBytes: () => bytes,
    remembered(header) {
      return last !== undefined && header === last.header && last.expiresAt > now() ? last.result : undefined;
    },
    async authenticate(header) {
      if (header === undefined || header === '') {
        return {
          ok: false,
          error: undefined,
          detail:
            'The Authorization header is missing; send `Authorization: Bearer <token>` (mint one with `npm run token`).',
        };
      }
      const match = BEARER.exec(header.length > MAX_TOKEN_LENGTH ? '' : header);
      const token = match?.[1];
      if (!token) {
        return {
          ok: false,
          error: 'invalid_request',
          detail: 'The Authorization header is not a Bearer token; send `Authorization: Bearer <token>`.',
        };
      }
      const cached = verified.get(token);
      if (cached) {
        if (cached.expiresAt > now()) return accepted(header, cached.sub, cached.expiresAt);
        verified.delete(token);
        bytes -= cached.bytes;
        return {
          ok: false,
          error: 'invalid_token',
          detail: `The bearer token expired at ${new Date(cached.expiresAt).toISOString()}.`,
        };
      }
      try {
        key ??= hmacKey(secret);
        const { payload } = await jwtVerify(token, await key, {
          algorithms: ['HS256'],
          currentDate: new Date(now()),
          requiredClaims: ['exp'],
        });
        const claimProblem = claimRuleBroken(payload.exp, payload.iat, now());
        if (claimProblem) return { ok: false, error: 'invalid_token', detail: claimProblem };
        if (typeof payload.sub !== 'string' || payload.sub === '') {
          return {
            ok: false,
            error: 'invalid_token',
            detail: 'The bearer token has no `sub` claim; the caller must be named.',
          };
        }
        // It becomes the `creator` of deployed agents: served, persisted and printed, so it is checked as one.
        const subProblem = creatorProblem(payload.sub);
        if (subProblem !== undefined) {
          return {
            ok: false,
            error: 'invalid_token',
            detail: `The bearer token's sub claim ${subProblem}; name the caller in plain text of at most ${MAX_CREATOR_LENGTH} characters.`,
          };
        }
        // Two bytes a character covers strings V8 stores as UTF-16; Latin-1 ones take half.
        const entryBytes = 2 * (token.length + payload.sub.length) + ENTRY_OVERHEAD_BYTES;
        if (bytes + entryBytes > cacheBytes) {
          verified.clear();
          bytes = 0;
        }
        const expiresAt = Number(payload.exp) * 1000;
        verified.set(token, { sub: payload.sub, expiresAt, bytes: entryBytes });
        bytes += entryBytes;
        return accepted(header, payload.sub, expiresAt);
      } catch (error) {
        // jose reports every fault of the token as a JOSEError; anything else is a fault of the fake or its environment,
        // which the core answers as a 500 with the cause in its log, rather than blaming the caller's token.
        if (!(error instanceof errors.JOSEError)) throw error;
        return { ok: false, error: 'invalid_token', detail: describeJoseError(error) };
      }
    },
  };
}

/**
 * The HMAC key as a CryptoKey, which jose recognises by its tag whatever realm made it. Raw bytes would not do: in a
 * jsdom test environment the global Uint8Array is jsdom's, so jose's `instanceof Uint8Array` rejects the bytes Node's
 * TextEncoder returns ("must be … Uint8Array. Received an instance of Uint8Array"; jose issue 671, vitest issue 5685).
 */
function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
}

/** Why verified `exp` and `iat` claims break this kit's rules (lifetime bound, `iat` not in the future), if they do. */
function claimRuleBroken(exp: unknown, iat: unknown, nowMs: number): string | undefined {
  const nowSeconds = nowMs / 1000;
  if (typeof exp === 'number' && exp > nowSeconds + MAX_TOKEN_LIFETIME_SECONDS)
    return `The bearer token's exp claim is ${secondsAsTime(exp)}, more than ${MAX_TOKEN_LIFETIME_SECONDS / 86_400} days ahead; mint one with a shorter lifetime.`;
  if (typeof iat === 'number' && iat > nowSeconds + TOKEN_CLOCK_SKEW_SECONDS)
    return `The bearer token's iat claim is ${secondsAsTime(iat)}, in the future; it cannot have been issued yet.`;
  return undefined;
}

/** A claim's seconds as an ISO time when a Date can hold them, else as the number itself: never throws. */
function secondsAsTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? String(seconds).slice(0, 40) : date.toISOString();
}

function describeJoseError(error: errors.JOSEError): string {
  if (error instanceof errors.JWTExpired) {
    const exp = error.payload.exp;
    return typeof exp === 'number'
      ? `The bearer token expired at ${secondsAsTime(exp)}.`
      : 'The bearer token has expired.';
  }
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return 'The bearer token is not signed with the expected secret (HS256).';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'The bearer token must be signed with HS256.';
  if (error instanceof errors.JWTClaimValidationFailed)
    return `The bearer token's ${error.claim} claim is not acceptable: ${error.reason}.`;
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid)
    return 'The bearer token is not a well-formed JWT.';
  return `The bearer token is not acceptable: ${error.message}`;
}

/** The `WWW-Authenticate` challenge of a rejection (RFC 6750). */
export function bearerChallenge(result: Extract<AuthResult, { ok: false }>): string {
  const description = result.detail.replaceAll('"', "'").replaceAll('\\', '');
  return result.error
    ? `Bearer realm="agent-registry", error="${result.error}", error_description="${description}"`
    : 'Bearer realm="agent-registry"';
}

export interface MintOptions {
  /** The caller; becomes `creator` of the agents it deploys. Default `dev-user`. */
  sub?: string;
  /** Lifetime in seconds (default 3600; the fake refuses more than MAX_TOKEN_LIFETIME_SECONDS). */
  ttlSeconds?: number;
  /** Mint a token that expired a minute ago, to test 401s. */
  expired?: boolean;
  secret?: string;
  /** Wall time in ms (default Date.now()). */
  now?: number;
}

/**
 * Mints an HS256 token the fake accepts.
 * @example const token = await mintToken({ sub: 'alice' }); fetch(url, { headers: { authorization: `Bearer ${token}` } });
 */
export async function mintToken(options: MintOptions = {}): Promise<string> {
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  const ttl = options.ttlSeconds ?? 3600;
  const issuedAt = options.expired ? nowSeconds - ttl - 60 : nowSeconds;
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(options.sub ?? 'dev-user')
    .setIssuedAt(issuedAt)
    .setExpirationTime(options.expired ? nowSeconds - 60 : nowSeconds + ttl)
    .sign(await hmacKey(options.secret ?? DEFAULT_JWT_SECRET));
}
