// Tokens derived from the user's own JWT that a server must refuse: alg none, a switched alg, the signature removed or
// altered, the payload altered under the old signature. Pure string work; nothing here is ever printed.

/** The derived tokens, by auth variant; undefined when API_TOKEN is not a three-segment JWT. */
export interface HostileTokens {
  'bad-signature': string;
  'signature-removed': string | undefined;
  'alg-none': string | undefined;
  'alg-switched': string | undefined;
  'payload-altered': string | undefined;
}

function toBase64Url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function decodeJson(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Another algorithm than the header's: HMAC ↔ HMAC, and any public-key alg to HS256 (the classic confusion). */
function switchedAlg(alg: unknown): string {
  const next: Record<string, string> = { HS256: 'HS512', HS384: 'HS256', HS512: 'HS256' };
  return typeof alg === 'string' && next[alg] !== undefined ? next[alg] : 'HS256';
}

/**
 * Derives the hostile tokens from `token`.
 * @example hostileTokens('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.sig')['alg-none'] // 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJhIn0.'
 */
export function hostileTokens(token: string): HostileTokens {
  const segments = token.split('.');
  const signature = segments.at(-1) ?? '';
  // The first character of the signature changed: every decoder notices.
  const altered = [...segments.slice(0, -1), (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1)].join('.');
  const [header, payload] = segments;
  const headerJson = header === undefined ? undefined : decodeJson(header);
  const payloadJson = payload === undefined ? undefined : decodeJson(payload);
  if (segments.length !== 3 || !headerJson || !payloadJson || header === undefined || payload === undefined) {
    return {
      'bad-signature': altered,
      'signature-removed': undefined,
      'alg-none': undefined,
      'alg-switched': undefined,
      'payload-altered': undefined,
    };
  }
  const sub = typeof payloadJson.sub === 'string' ? `${payloadJson.sub}-altered` : 'contract-altered';
  return {
    'bad-signature': altered,
    'signature-removed': `${header}.${payload}.`,
    'alg-none': `${toBase64Url(JSON.stringify({ ...headerJson, alg: 'none' }))}.${payload}.`,
    'alg-switched': `${toBase64Url(JSON.stringify({ ...headerJson, alg: switchedAlg(headerJson.alg) }))}.${payload}.${signature}`,
    'payload-altered': `${header}.${toBase64Url(JSON.stringify({ ...payloadJson, sub }))}.${signature}`,
  };
}
