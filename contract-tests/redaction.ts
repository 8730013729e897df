// Keeps the bearer token (and what is derived from it, in the encodings servers echo it in) out of every output of a run.
import { hostileTokens } from './hostile-tokens.ts';

/** A function that replaces every secret in a text with a placeholder. */
export type Redact = (text: string) => string;

/** What a secret is replaced with. */
export const redactedMark = '<redacted>';

/** Shorter pieces (a JWT segment, a base64 core) are not secret enough to hide, and would hide ordinary text. */
const minSecretLength = 8;

/**
 * The base64 characters that only the bytes of `text` determine when it sits at each of the three byte alignments
 * inside a longer encoded text (so `base64("Bearer " + token)` or of a JSON document holding the token is caught).
 */
function base64Cores(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const cores: string[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    // Character i carries bits [6i, 6i + 6); keep those that lie wholly inside the text's bits.
    const start = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    cores.push(encoded.slice(start, end));
  }
  return cores;
}

/** base64url is base64 with `-` and `_`; no padding, which the cores never hold anyway. */
function toBase64Url(base64: string): string {
  return base64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function secretsOf(token: string): string[] {
  const secrets = new Set<string>();
  const derived = Object.values(hostileTokens(token)).filter((whole): whole is string => whole !== undefined);
  for (const whole of [token, ...derived]) {
    secrets.add(whole);
    const segments = whole.split('.');
    for (const segment of segments) secrets.add(segment);
    if (segments.length === 3) {
      // A JWT's signature is its secret part; a server that decodes it may print it back as standard base64.
      const signature = segments[2] ?? '';
      secrets.add(signature.replaceAll('-', '+').replaceAll('_', '/'));
    }
    for (const core of base64Cores(whole)) {
      secrets.add(core);
      secrets.add(toBase64Url(core));
    }
    const exact = Buffer.from(whole, 'utf8').toString('base64');
    secrets.add(exact);
    secrets.add(Buffer.from(`Bearer ${whole}`, 'utf8').toString('base64'));
    const hex = Buffer.from(whole, 'utf8').toString('hex');
    secrets.add(hex);
    secrets.add(hex.toUpperCase());
  }
  // The token itself is hidden however short; only the pieces derived from it need the minimum length.
  return [...secrets].filter((secret) => secret.length >= minSecretLength || secret === token);
}

const htmlNames: Record<string, string[]> = {
  '&': ['amp'],
  '"': ['quot'],
  "'": ['apos'],
  '<': ['lt'],
  '>': ['gt'],
  '/': ['sol'],
  '+': ['plus'],
  '=': ['equals'],
  '.': ['period'],
};

function anyCaseHex(hex: string): string {
  return [...hex].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('');
}

/**
 * Every way one character is commonly written in an echo: itself; backslash-escaped however deeply nested (JSON's
 * `\/`, `\u002F`, JavaScript's `\x2f`); percent-encoded, once or twice (`%2F`, `%252F`); an HTML/XML entity.
 */
function characterPattern(character: string): string {
  const code = character.charCodeAt(0);
  const literal = character.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
  const hex = anyCaseHex(code.toString(16).padStart(2, '0'));
  const names = (htmlNames[character] ?? []).map((name) => `|${name}`).join('');
  return `(?:${literal}|\\\\{1,8}(?:${literal}|u00${hex}|x${hex})|%(?:25){0,2}${hex}|&(?:#[xX]0*${hex}|#0*${code}${names});)`;
}

/**
 * Builds the one redactor of a run from the normalized token (run-options.ts `normalizeToken`): it hides the token, the
 * tokens the auth checks derive from it (hostile-tokens.ts), each JWT segment (a signature alone is the secret part, also as standard base64),
 * base64 and base64url of the token at every byte alignment (so of `Bearer <token>` or of any longer text holding it),
 * hex, and each of these written with JSON/JavaScript escapes, percent-encoding or HTML entities, character by character.
 * Longest secrets are replaced first, so a segment never leaves part of the whole token behind.
 * @example createRedactor('aaaaaaaa.bbbbbbbb.cccccccc')('got aaaaaaaa.bbbbbbbb.cccccccc') // 'got <redacted>'
 */
export function createRedactor(token: string): Redact {
  if (token.length === 0) return (text) => text;
  const secrets = secretsOf(token).sort((a, b) => b.length - a.length);
  // Every written form but the plain one starts with `\`, `%` or `&`; text without them (most of it) needs no regex,
  // and the regexes, whose compilation costs a few hundred milliseconds, are built the first time one is needed.
  let patterns: RegExp[] | undefined;
  return (text) => {
    let result = text;
    if (!/[\\%&]/.test(text)) {
      for (const secret of secrets) result = result.replaceAll(secret, redactedMark);
      return result;
    }
    patterns ??= secrets.map((secret) => new RegExp([...secret].map(characterPattern).join(''), 'g'));
    for (const pattern of patterns) result = result.replace(pattern, redactedMark);
    return result;
  };
}

/**
 * Server (or request) text as reports show it: redacted first, then cut to `limit` characters, so a cut can never
 * leave the first part of a secret behind. The only way text from the wire is shortened in a contract run.
 * @example describeServerText(redact, response.body, 120) // '{"detail":"you sent <redacted>"}'
 */
export function describeServerText(redact: Redact, text: string, limit: number): string {
  const redacted = redact(text);
  return redacted.length > limit ? `${redacted.slice(0, limit)}… (${text.length} characters)` : redacted;
}
