// The credentials a client sends: the user's bearer token, or one of the variants a correct server must refuse (none,
// another scheme, not a JWT, and each token derived from the user's own). One switch for the contract suite, diff and
// the proxy, so every tool sends the same bytes and labels them the same way in reports.
import type { OutgoingRequest } from '../http-exchange.ts';
import { hostileTokens, type HostileTokens } from './hostile-tokens.ts';

/** Credentials a correct server refuses: none, another scheme, not a JWT, and each token derived from the real one. */
export type AuthVariant =
  | 'missing'
  | 'not-bearer'
  | 'scheme-missing'
  | 'scheme-doubled'
  | 'malformed'
  | keyof HostileTokens;

/** The refused variants diff and the proxy send, in order (the contract suite adds the scheme's near misses). */
export const authVariants: readonly AuthVariant[] = [
  'missing',
  'not-bearer',
  'malformed',
  'bad-signature',
  'signature-removed',
  'alg-none',
  'alg-switched',
  'payload-altered',
];

const hostileLabels: Record<keyof HostileTokens, string> = {
  'bad-signature': 'with its signature altered',
  'signature-removed': 'with its signature removed',
  'alg-none': 'with alg none and no signature',
  'alg-switched': 'with its alg switched',
  'payload-altered': 'with its payload altered',
};

/** What a client holds to build Authorization headers: the token and what reports show in its place. */
export interface Credentials {
  /** The normalized bearer token; never printed. */
  token: string;
  /** What reports show instead of the token, e.g. `<API_TOKEN>`. */
  tokenLabel: string;
  /** The tokens derived from `token` (computed once). */
  hostile: HostileTokens;
}

/**
 * Credentials for a token; the derived tokens are computed once here.
 * @example const credentials = credentialsFor(token, '<API_TOKEN>');
 */
export function credentialsFor(token: string, tokenLabel: string): Credentials {
  return { token, tokenLabel, hostile: hostileTokens(token) };
}

/**
 * The Authorization header of one variant, with the label reports print instead of its value.
 * @example authorization(credentials, 'not-bearer') // { value: 'Basic eyJ…', label: 'Basic <API_TOKEN>' }
 */
export function authorization(
  credentials: Credentials,
  variant: AuthVariant | 'token',
): OutgoingRequest['authorization'] {
  const { token, tokenLabel, hostile } = credentials;
  switch (variant) {
    case 'token':
      return { value: `Bearer ${token}`, label: `Bearer ${tokenLabel}` };
    case 'missing':
      return undefined;
    case 'not-bearer':
      return { value: `Basic ${token}`, label: `Basic ${tokenLabel}` };
    // The valid token one step from its form `Bearer <token>` (section 5): without the scheme, and with it twice. The
    // scheme's letter case is not a near miss: HTTP auth schemes are case-insensitive (RFC 9110, 11.1).
    case 'scheme-missing':
      return { value: token, label: tokenLabel };
    case 'scheme-doubled':
      return { value: `Bearer Bearer ${token}`, label: `Bearer Bearer ${tokenLabel}` };
    case 'malformed':
      return { value: 'Bearer not-a-jwt', label: 'Bearer not-a-jwt' };
    default:
      // A token that is not a JWT has no derived forms (the contract plan skips those checks); an empty bearer token
      // is refused all the same.
      return { value: `Bearer ${hostile[variant] ?? ''}`, label: `Bearer ${tokenLabel} ${hostileLabels[variant]}` };
  }
}
