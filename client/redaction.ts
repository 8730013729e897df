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

function secretsOf(token: string, extra: readonly string[]): string[] {
  const secrets = new Set<string>(extra);
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

const htmlNames: Record<string, string> = {
  amp: '&',
  quot: '"',
  apos: "'",
  lt: '<',
  gt: '>',
  sol: '/',
  plus: '+',
  equals: '=',
  period: '.',
};

/**
 * The character written at `at` in one of the ways echoes commonly escape it, and how long that writing is: a
 * backslash escape however deeply nested (JSON's `\/`, `\u002F`, JavaScript's `\x2f`, `\\\/` in JSON inside JSON),
 * percent-encoding once or twice (`%2F`, `%252F`), an HTML/XML entity (`&#x2F;`, `&#47;`, `&sol;`).
 */
function decodeAt(text: string, at: number): { character: string; length: number } | undefined {
  const first = text[at];
  if (first === '\\') {
    let end = at;
    while (text[end] === '\\' && end - at < 8) end += 1;
    const coded = /^(?:u00|x)([0-9a-fA-F]{2})/.exec(text.slice(end, end + 5));
    if (coded?.[1] !== undefined)
      return { character: String.fromCharCode(Number.parseInt(coded[1], 16)), length: end - at + coded[0].length };
    const escaped = text[end];
    return escaped === undefined ? undefined : { character: escaped, length: end - at + 1 };
  }
  if (first === '%') {
    const coded = /^%(?:25){0,2}([0-9a-fA-F]{2})/.exec(text.slice(at, at + 7));
    if (coded?.[1] !== undefined)
      return { character: String.fromCharCode(Number.parseInt(coded[1], 16)), length: coded[0].length };
  }
  if (first === '&') {
    const entity = /^&(?:#[xX]0*([0-9a-fA-F]{1,4})|#0*([0-9]{1,5})|([a-z]{2,6}));/.exec(text.slice(at, at + 12));
    const code =
      entity?.[1] !== undefined
        ? Number.parseInt(entity[1], 16)
        : entity?.[2] !== undefined
          ? Number.parseInt(entity[2], 10)
          : undefined;
    const named = entity?.[3] === undefined ? undefined : htmlNames[entity[3]];
    const character = code === undefined ? named : String.fromCharCode(code);
    if (entity && character !== undefined) return { character, length: entity[0].length };
  }
  return undefined;
}

/**
 * Hides every secret written with escapes: decodes the text into plain characters, each mapped back to where it was
 * written, finds the secrets in the plain text, and replaces the written spans they cover. Linear in the text, with
 * no regular expression built from the secrets (those took seconds to compile for the six tokens of a run).
 */
function redactEscaped(text: string, secrets: readonly string[]): string {
  const chunks: string[] = [];
  const starts = new Int32Array(text.length + 1);
  const ends = new Int32Array(text.length + 1);
  const escapes = /[\\%&]/g;
  let size = 0;
  for (let at = 0; at < text.length; ) {
    // Copy the run up to the next escape as it is, then decode one character.
    escapes.lastIndex = at;
    const next = escapes.exec(text)?.index ?? text.length;
    for (let i = at; i < next; i += 1, size += 1) {
      starts[size] = i;
      ends[size] = i + 1;
    }
    chunks.push(text.slice(at, next));
    if (next >= text.length) break;
    const decoded = decodeAt(text, next);
    const length = decoded?.length ?? 1;
    starts[size] = next;
    ends[size] = next + length;
    size += 1;
    chunks.push(decoded?.character ?? text[next] ?? '');
    at = next + length;
  }
  const decodedText = chunks.join('');
  const spans: Array<[number, number]> = [];
  for (const secret of secrets) {
    for (let found = decodedText.indexOf(secret); found !== -1; found = decodedText.indexOf(secret, found + 1))
      spans.push([starts[found] ?? 0, ends[found + secret.length - 1] ?? 0]);
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let result = '';
  let copied = 0;
  for (const [start, end] of spans) {
    if (end <= copied) continue;
    result += start >= copied ? `${text.slice(copied, start)}${redactedMark}` : '';
    copied = end;
  }
  return result + text.slice(copied);
}

/**
 * Builds the one redactor of a run from the normalized token (run-options.ts `normalizeToken`): it hides the token, the
 * tokens the auth checks derive from it (hostile-tokens.ts), each JWT segment (a signature alone is the secret part,
 * also as standard base64), base64 and base64url of each at every byte alignment (so of `Bearer <token>` or of any
 * longer text holding it), hex, and each of these written with JSON/JavaScript escapes, percent-encoding or HTML
 * entities; `extra` secrets (at least 8 characters) are hidden as written and escaped. Longest secrets are replaced
 * first, so a segment never leaves part of the whole token behind.
 * @example createRedactor('aaaaaaaa.bbbbbbbb.cccccccc')('got aaaaaaaa.bbbbbbbb.cccccccc') // 'got <redacted>'
 */
export function createRedactor(token: string, extra: readonly string[] = []): Redact {
  if (token.length === 0) return (text) => text;
  const secrets = secretsOf(token, extra).sort((a, b) => b.length - a.length);
  return (text) => {
    let result = text;
    for (const secret of secrets) result = result.replaceAll(secret, redactedMark);
    // Every escaped writing starts with `\`, `%` or `&`; most text has none and is done.
    return /[\\%&]/.test(result) ? redactEscaped(result, secrets) : result;
  };
}

/**
 * Server (or request) text as reports show it: redacted first, then cut to `limit` characters, so a cut can never
 * leave the first part of a secret behind. The only way text from the wire is shortened in a contract run.
 * @example describeServerText(redact, response.body, 120) // '{"detail":"you sent <redacted>"}'
 */
export function describeServerText(redact: Redact, text: string, limit: number): string {
  const redacted = redact(text);
  // `... (N characters)` is how records mark a cut; spec-change/traffic-replay.ts reads it to skip partial bodies.
  return redacted.length > limit ? `${redacted.slice(0, limit)}... (${text.length} characters)` : redacted;
}
