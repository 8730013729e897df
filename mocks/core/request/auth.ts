// The auth decision: a bearer JWT, HS256 with the development secret, verified with jose and cached per token until it expires.
import * as errors from 'jose/errors';
import { SignJWT } from 'jose/jwt/sign';
import { jwtVerify } from 'jose/jwt/verify';
import { creatorProblem, MAX_CREATOR_LENGTH } from '../../state/agent-identity.ts';

/** The documented development secret; set MOCK_JWT_SECRET (or the `jwtSecret` option) to use another. */
export const DEFAULT_JWT_SECRET = 'agent-registry-kit-dev-secret';
/**
 * Bytes of verified tokens remembered at most: beyond it the cache starts over (a bound, not a policy). Counted in
 * bytes, not tokens: anyone can mint valid 8 KB tokens with the public default secret, so a count of tokens would let
 * a client fill the heap with a few thousand of them.
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
      // Stryker disable next-line ConditionalExpression,EqualityOperator: not pinned: token expiry is not shown; a verified token is remembered until it expires
      return last !== undefined && header === last.header && last.expiresAt > now() ? last.result : undefined;
    },
    async authenticate(header) {
      // Stryker disable next-line ConditionalExpression,StringLiteral: not pinned: an empty Authorization header is refused either way (401), only its detail differs; error bodies are not shown
      if (header === undefined || header === '') {
        return {
          ok: false,
          error: undefined,
          detail:
            // Stryker disable next-line StringLiteral: not pinned: a problem's detail text; error bodies are not shown
            'The Authorization header is missing; send `Authorization: Bearer <token>` (mint one with `npm run token`).',
        };
      }
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: not pinned: the longest Authorization header read (8 KiB); size limits are not shown
      const match = BEARER.exec(header.length > MAX_TOKEN_LENGTH ? '' : header);
      const token = match?.[1];
      if (!token) {
        return {
          ok: false,
          error: 'invalid_request',
          // Stryker disable next-line StringLiteral: not pinned: a problem's detail text; error bodies are not shown
          detail: 'The Authorization header is not a Bearer token; send `Authorization: Bearer <token>`.',
        };
      }
      const cached = verified.get(token);
      // Stryker disable next-line BlockStatement: not pinned: token expiry is not shown; a verified token is remembered until it expires
      if (cached) {
        // Stryker disable next-line ConditionalExpression,EqualityOperator: not pinned: token expiry is not shown; a verified token is remembered until it expires
        if (cached.expiresAt > now()) return accepted(header, cached.sub, cached.expiresAt);
        // Stryker disable next-line CallExpression: not pinned: token expiry is not shown; a verified token is remembered until it expires
        verified.delete(token);
        // Stryker disable next-line AssignmentOperator: not pinned: token expiry is not shown; a verified token is remembered until it expires
        bytes -= cached.bytes;
        // Stryker disable next-line ObjectLiteral: not pinned: token expiry is not shown; a verified token is remembered until it expires
        return {
          // Stryker disable next-line BooleanLiteral: not pinned: token expiry is not shown; a verified token is remembered until it expires
          ok: false,
          // Stryker disable next-line StringLiteral: not pinned: token expiry is not shown; a verified token is remembered until it expires
          error: 'invalid_token',
          // Stryker disable next-line StringLiteral: not pinned: a problem's detail text; error bodies are not shown
          detail: `The bearer token expired at ${new Date(cached.expiresAt).toISOString()}.`,
        };
      }
      try {
        key ??= hmacKey(secret);
        const { payload } = await jwtVerify(token, await key, {
          algorithms: ['HS256'],
          currentDate: new Date(now()),
          // Stryker disable next-line ArrayDeclaration: not pinned: the kit's rules on a token's claims (sub, lifetime, iat); issuance, expiry and scopes are not shown
          requiredClaims: ['exp'],
        });
        const claimProblem = claimRuleBroken(payload.exp, payload.iat, now());
        // Stryker disable next-line ObjectLiteral,BooleanLiteral,StringLiteral: not pinned: the kit's rules on a token's claims (sub, lifetime, iat); issuance, expiry and scopes are not shown
        if (claimProblem) return { ok: false, error: 'invalid_token', detail: claimProblem };
        const subject = checkedSubject(payload.sub);
        if (!subject.ok) return subject;
        const { sub } = subject;
        // Two bytes a character covers strings V8 stores as UTF-16; Latin-1 ones take half.
        // Stryker disable next-line ArithmeticOperator: equivalent: the verified-token cache's accounting; every answer is the same whether or when it starts over
        const entryBytes = 2 * (token.length + sub.length) + ENTRY_OVERHEAD_BYTES;
        // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator,BlockStatement: equivalent: the verified-token cache's accounting; every answer is the same whether or when it starts over
        if (bytes + entryBytes > cacheBytes) {
          // Stryker disable next-line CallExpression: equivalent: the verified-token cache's accounting; every answer is the same whether or when it starts over
          verified.clear();
          bytes = 0;
        }
        // Stryker disable next-line ArithmeticOperator: not pinned: token expiry is not shown; a verified token is remembered until it expires
        const expiresAt = Number(payload.exp) * 1000;
        verified.set(token, { sub: sub, expiresAt, bytes: entryBytes });
        // Stryker disable next-line AssignmentOperator: equivalent: the verified-token cache's accounting; every answer is the same whether or when it starts over
        bytes += entryBytes;
        return accepted(header, sub, expiresAt);
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
 * The token's `sub` claim accepted as the creator of deployed agents, or the refusal of a token whose `sub` is missing
 * or is no creator's name.
 */
function checkedSubject(sub: unknown): AuthResult {
  // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator,StringLiteral: not pinned: the kit's rules on a token's claims (sub, lifetime, iat); issuance, expiry and scopes are not shown
  if (typeof sub !== 'string' || sub === '') {
    // Stryker disable next-line ObjectLiteral: not pinned: the kit's rules on a token's claims (sub, lifetime, iat); issuance, expiry and scopes are not shown
    return {
      // Stryker disable next-line BooleanLiteral: not pinned: the kit's rules on a token's claims (sub, lifetime, iat); issuance, expiry and scopes are not shown
      ok: false,
      // Stryker disable next-line StringLiteral: not pinned: the kit's rules on a token's claims (sub, lifetime, iat); issuance, expiry and scopes are not shown
      error: 'invalid_token',
      // Stryker disable next-line StringLiteral: not pinned: a problem's detail text; error bodies are not shown
      detail: 'The bearer token has no `sub` claim; the caller must be named.',
    };
  }
  // It becomes the `creator` of deployed agents: served, persisted and printed, so it is checked as one.
  const subProblem = creatorProblem(sub);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: not pinned: the kit's rules on a token's claims (sub, lifetime, iat); issuance, expiry and scopes are not shown
  if (subProblem !== undefined) {
    // Stryker disable next-line ObjectLiteral: not pinned: the kit's rules on a token's claims (sub, lifetime, iat); issuance, expiry and scopes are not shown
    return {
      // Stryker disable next-line BooleanLiteral: not pinned: the kit's rules on a token's claims (sub, lifetime, iat); issuance, expiry and scopes are not shown
      ok: false,
      // Stryker disable next-line StringLiteral: not pinned: the kit's rules on a token's claims (sub, lifetime, iat); issuance, expiry and scopes are not shown
      error: 'invalid_token',
      // Stryker disable next-line StringLiteral: not pinned: a problem's detail text; error bodies are not shown
      detail: `The bearer token's sub claim ${subProblem}; name the caller in plain text of at most ${MAX_CREATOR_LENGTH} characters.`,
    };
  }
  return { ok: true, sub };
}

/**
 * The HMAC key as a CryptoKey, which jose recognises by its tag whatever realm made it. Raw bytes would not do: in a
 * jsdom test environment the global Uint8Array is jsdom's, so jose's `instanceof Uint8Array` rejects the bytes Node's
 * TextEncoder returns ("must be … Uint8Array. Received an instance of Uint8Array"; jose issue 671, vitest issue 5685).
 */
function hmacKey(secret: string): Promise<CryptoKey> {
  // Stryker disable next-line BooleanLiteral: equivalent: an extractable key signs and verifies exactly as one that is not
  return crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
}

/** Why verified `exp` and `iat` claims break this kit's rules (lifetime bound, `iat` not in the future), if they do. */
function claimRuleBroken(exp: unknown, iat: unknown, nowMs: number): string | undefined {
  // Stryker disable next-line ArithmeticOperator: not pinned: the kit's rules on a token's claims (sub, lifetime, iat); issuance, expiry and scopes are not shown
  const nowSeconds = nowMs / 1000;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: not pinned: the kit's rules on a token's claims (sub, lifetime, iat); issuance, expiry and scopes are not shown
  if (typeof exp === 'number' && exp > nowSeconds + MAX_TOKEN_LIFETIME_SECONDS)
    // Stryker disable next-line StringLiteral,ArithmeticOperator: not pinned: a problem's detail text; error bodies are not shown
    return `The bearer token's exp claim is ${secondsAsTime(exp)}, more than ${MAX_TOKEN_LIFETIME_SECONDS / 86_400} days ahead; mint one with a shorter lifetime.`;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: not pinned: the kit's rules on a token's claims (sub, lifetime, iat); issuance, expiry and scopes are not shown
  if (typeof iat === 'number' && iat > nowSeconds + TOKEN_CLOCK_SKEW_SECONDS)
    // Stryker disable next-line StringLiteral: not pinned: a problem's detail text; error bodies are not shown
    return `The bearer token's iat claim is ${secondsAsTime(iat)}, in the future; it cannot have been issued yet.`;
  return undefined;
}

/** A claim's seconds as an ISO time when a Date can hold them, else as the number itself: never throws. */
// Stryker disable next-line BlockStatement: not pinned: a problem's detail text; error bodies are not shown
function secondsAsTime(seconds: number): string {
  // Stryker disable next-line ArithmeticOperator: not pinned: a problem's detail text; error bodies are not shown
  const date = new Date(seconds * 1000);
  // Stryker disable next-line MethodExpression: not pinned: a problem's detail text; error bodies are not shown
  return Number.isNaN(date.getTime()) ? String(seconds).slice(0, 40) : date.toISOString();
}

function describeJoseError(error: errors.JOSEError): string {
  // Stryker disable next-line BlockStatement: not pinned: a problem's detail text; error bodies are not shown
  if (error instanceof errors.JWTExpired) {
    const exp = error.payload.exp;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: not pinned: a problem's detail text; error bodies are not shown
    return typeof exp === 'number'
      ? // Stryker disable next-line StringLiteral: not pinned: a problem's detail text; error bodies are not shown
        `The bearer token expired at ${secondsAsTime(exp)}.`
      : // Stryker disable next-line StringLiteral: not pinned: a problem's detail text; error bodies are not shown
        'The bearer token has expired.';
  }
  // Stryker disable next-line ConditionalExpression: not pinned: a problem's detail text; error bodies are not shown
  if (error instanceof errors.JWSSignatureVerificationFailed)
    // Stryker disable next-line StringLiteral: not pinned: a problem's detail text; error bodies are not shown
    return 'The bearer token is not signed with the expected secret (HS256).';
  // Stryker disable next-line ConditionalExpression,StringLiteral: not pinned: a problem's detail text; error bodies are not shown
  if (error instanceof errors.JOSEAlgNotAllowed) return 'The bearer token must be signed with HS256.';
  if (error instanceof errors.JWTClaimValidationFailed)
    // Stryker disable next-line StringLiteral: not pinned: a problem's detail text; error bodies are not shown
    return `The bearer token's ${error.claim} claim is not acceptable: ${error.reason}.`;
  // Stryker disable next-line ConditionalExpression,LogicalOperator: not pinned: a problem's detail text; error bodies are not shown
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid)
    // Stryker disable next-line StringLiteral: not pinned: a problem's detail text; error bodies are not shown
    return 'The bearer token is not a well-formed JWT.';
  // Stryker disable next-line StringLiteral: not pinned: a problem's detail text; error bodies are not shown
  return `The bearer token is not acceptable: ${error.message}`;
}

/** The `WWW-Authenticate` challenge of a rejection (RFC 6750). */
export function bearerChallenge(result: Extract<AuthResult, { ok: false }>): string {
  // Stryker disable next-line StringLiteral: not pinned: the challenge's error_description text (RFC 6750); the description requires only a Bearer token
  const description = result.detail.replaceAll('"', "'").replaceAll('\\', '');
  return result.error
    ? // Stryker disable next-line StringLiteral: not pinned: the challenge's error_description text (RFC 6750); the description requires only a Bearer token
      `Bearer realm="agent-registry", error="${result.error}", error_description="${description}"`
    : // Stryker disable next-line StringLiteral: not pinned: the challenge's realm text (RFC 6750); the description requires only a Bearer token
      'Bearer realm="agent-registry"';
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
// Stryker disable all: not reached: mints tokens (npm run token, the test API) in the suite's own process, before any request; the fake only verifies
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
// Stryker restore all
