// Keeps the bearer token (and what is derived from it, in the encodings servers echo it in) out of every output of a run.
import { hostileTokens } from './requests/hostile-tokens.ts';

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
      // …or as the hex of its bytes (a debugging answer printing the HMAC), in either case.
      const signatureHex = Buffer.from(signature, 'base64url').toString('hex');
      secrets.add(signatureHex);
      secrets.add(signatureHex.toUpperCase());
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

/** `\u{2F}` (JavaScript), `\u002F` (JSON), `\x2F` (JavaScript): the escapes that name a code unit. */
const codedEscape = /^\\(?:u\{0*([0-9a-fA-F]{1,4})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2}))/;
/** `&#x2F;`, `&#47;` (the `;` optional, as HTML parsers allow for numeric references), `&sol;`. */
const entity = /^&(?:#[xX]0*([0-9a-fA-F]{1,4});?|#0*([0-9]{1,5});?|([a-z]{2,6});)/;

/** The three escaping schemes, each undone on its own: one level of one scheme is how one producer writes. */
type Scheme = '\\' | '%' | '&';
const schemes: readonly Scheme[] = ['\\', '%', '&'];

/**
 * The character written at `at` with one level of `scheme`, the way its producer writes it, and how long that writing
 * is: a backslash escape (`\\` is `\`, `\/` is `/`, `\u002F`, `\u{2F}`, `\x2f`), percent-encoding (`%2F`, `%25` is
 * `%`), an HTML/XML entity (`&#x2F;`, `&#47`, `&sol;`, `&amp;` is `&`). Nested escapes (JSON inside JSON, `%252F`, a
 * percent-encoded URL in HTML) are undone by decoding again: see redactEscaped.
 */
function decodeAt(text: string, at: number, scheme: Scheme): { character: string; length: number } | undefined {
  if (scheme === '\\') {
    const coded = codedEscape.exec(text.slice(at, at + 12));
    const hex = coded?.[1] ?? coded?.[2] ?? coded?.[3];
    if (coded && hex !== undefined)
      return { character: String.fromCharCode(Number.parseInt(hex, 16)), length: coded[0].length };
    const escaped = text[at + 1];
    return escaped === undefined ? undefined : { character: escaped, length: 2 };
  }
  if (scheme === '%') {
    const coded = /^%([0-9a-fA-F]{2})/.exec(text.slice(at, at + 3));
    return coded?.[1] === undefined
      ? undefined
      : { character: String.fromCharCode(Number.parseInt(coded[1], 16)), length: coded[0].length };
  }
  const found = entity.exec(text.slice(at, at + 12));
  const code =
    found?.[1] !== undefined
      ? Number.parseInt(found[1], 16)
      : found?.[2] !== undefined
        ? Number.parseInt(found[2], 10)
        : undefined;
  const named = found?.[3] === undefined ? undefined : htmlNames[found[3]];
  const character = code === undefined || code > 0xffff ? named : String.fromCharCode(code);
  return found && character !== undefined ? { character, length: found[0].length } : undefined;
}

/** A text with one level of escapes undone, each character mapped to the span of the original text it came from. */
interface Decoded {
  text: string;
  /** Where character i of `text` starts in the original text. */
  starts: Int32Array;
  /** Where character i of `text` ends (exclusive) in the original text. */
  ends: Int32Array;
}

/** Undoes one level of `scheme` in `from`, composing the map back to the original text. */
function decodeOnce(from: Decoded, scheme: Scheme): Decoded {
  const text = from.text;
  const chunks: string[] = [];
  const starts = new Int32Array(text.length + 1);
  const ends = new Int32Array(text.length + 1);
  let size = 0;
  for (let at = 0; at < text.length; ) {
    // Copy the run up to the next escape as it is, then decode one character.
    const found = text.indexOf(scheme, at);
    const next = found === -1 ? text.length : found;
    for (let i = at; i < next; i += 1, size += 1) {
      starts[size] = from.starts[i] ?? 0;
      ends[size] = from.ends[i] ?? 0;
    }
    chunks.push(text.slice(at, next));
    if (next >= text.length) break;
    const decoded = decodeAt(text, next, scheme);
    const length = decoded?.length ?? 1;
    starts[size] = from.starts[next] ?? 0;
    ends[size] = from.ends[next + length - 1] ?? 0;
    size += 1;
    chunks.push(decoded?.character ?? text[next] ?? '');
    at = next + length;
  }
  return { text: chunks.join(''), starts, ends };
}

/** One scheme nested in itself deeper than this (JSON in JSON in JSON, `%25252F`) is not undone. */
const maxSameScheme = 3;
/** Two different schemes nested deeper than this (a percent-encoded URL in JSON in HTML) are not undone. */
const maxMixedLevels = 2;

function occurrences(text: string, character: string): number {
  let count = 0;
  for (let at = text.indexOf(character); at !== -1; at = text.indexOf(character, at + 1)) count += 1;
  return count;
}

interface Level extends Decoded {
  /** The scheme undone last, and how many times in a row; how many different schemes were undone. */
  scheme: Scheme | undefined;
  same: number;
  mixed: number;
}

/** Whether to undo `next` after `level`: schemes commute unless one wrote the other's escapes, so one order suffices. */
function worthUndoing(level: Level, parent: Level | undefined, next: Scheme): boolean {
  if (level.scheme === undefined || parent === undefined) return true;
  if (next === level.scheme) return level.same < maxSameScheme;
  if (level.mixed >= maxMixedLevels) return false;
  return (
    schemes.indexOf(next) > schemes.indexOf(level.scheme) ||
    occurrences(level.text, next) > occurrences(parent.text, next)
  );
}

/**
 * Where each secret occurs in the decodings of `level`, as spans of the original text: one scheme undone at a time,
 * the same one again (nesting in itself), a different one in the order backslash, percent, entity, or one whose
 * escapes the last decoding uncovered.
 */
function findEscaped(
  level: Level,
  parent: Level | undefined,
  secrets: SecretMatcher,
  spans: Array<[number, number]>,
): void {
  for (const scheme of schemes) {
    if (!worthUndoing(level, parent, scheme) || !level.text.includes(scheme)) continue;
    const decoded = decodeOnce(level, scheme);
    if (decoded.text === level.text) continue;
    for (const [start, end] of secrets.spans(decoded.text))
      spans.push([decoded.starts[start] ?? 0, decoded.ends[end - 1] ?? 0]);
    const same = scheme === level.scheme;
    const next: Level = { ...decoded, scheme, same: same ? level.same + 1 : 1, mixed: level.mixed + (same ? 0 : 1) };
    findEscaped(next, level, secrets, spans);
  }
}

/**
 * Hides every secret written with escapes: undoes one level of one scheme at a time (backslash, percent, entity; up to
 * maxEscapeLevels deep, in every order), each character mapped back to where it was written, finds the secrets in each
 * decoded text, and replaces the written spans they cover. A scheme is undone alone because a token may itself hold
 * `%2F` or `&amp;` that the producer did not write as escapes. Linear in the text per decoding, with no regular
 * expression built from the secrets (those took seconds to compile for the six tokens of a run).
 */
function redactEscaped(text: string, secrets: SecretMatcher): string {
  const starts = new Int32Array(text.length + 1);
  const ends = new Int32Array(text.length + 1);
  for (let i = 0; i <= text.length; i += 1) {
    starts[i] = i;
    ends[i] = i + 1;
  }
  const spans: Array<[number, number]> = [];
  findEscaped({ text, starts, ends, scheme: undefined, same: 0, mixed: 0 }, undefined, secrets, spans);
  return replaceSpans(text, spans);
}

/** `text` with each span (start, end exclusive) replaced by the mark; overlapping spans make one mark. */
function replaceSpans(text: string, spans: Array<[number, number]>): string {
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
 * entities; `extra` secrets (at least 8 characters) are hidden as written and escaped. Given several tokens (every
 * credential of a pact), it hides each the same way, in one pass over a text whatever their number. Each place a secret
 * covers is replaced, overlapping ones by one mark, so a segment never leaves part of the whole token behind.
 * @example createRedactor('aaaaaaaa.bbbbbbbb.cccccccc')('got aaaaaaaa.bbbbbbbb.cccccccc') // 'got <redacted>'
 */
export function createRedactor(token: string | readonly string[], extra: readonly string[] = []): Redact {
  const tokens = (typeof token === 'string' ? [token] : token).filter((one) => one.length > 0);
  if (tokens.length === 0) return (text) => text;
  const all = new Set<string>();
  for (const one of tokens) for (const secret of secretsOf(one, extra)) all.add(secret);
  const secrets = new SecretMatcher(all);
  return (text) => {
    const result = replaceSpans(text, secrets.spans(text));
    // Every escaped writing starts with `\`, `%` or `&`; most text has none and is done.
    return /[\\%&]/.test(result) ? redactEscaped(result, secrets) : result;
  };
}

/** Characters of a secret's end the matcher indexes by; every secret but a short token itself has at least these. */
const TAIL = minSecretLength;
const HASH_BASE = 0x01000193;
/** HASH_BASE ** TAIL, modulo 2^32: what the character leaving the window weighs. */
const HASH_OUT = Array.from({ length: TAIL - 1 }).reduce<number>((power) => Math.imul(power, HASH_BASE), 1);

/**
 * Where any of many secrets occurs in a text, in one pass: each secret is indexed by a hash of its last TAIL
 * characters, a rolling hash of the text's window at each position finds the few that may end there, and the longest
 * one that does is taken. Linear in the text for any number of secrets (one redactor for every credential of a pact),
 * where a replaceAll per secret made the texts × secrets of a run quadratic.
 */
class SecretMatcher {
  readonly #byTail = new Map<number, { lengths: number[]; secrets: Set<string> }>();
  /** Secrets shorter than TAIL (a short token itself): looked for one by one, as they are few. */
  readonly #short: string[] = [];

  constructor(secrets: Iterable<string>) {
    for (const secret of secrets) {
      if (secret.length < TAIL) {
        if (secret.length > 0) this.#short.push(secret);
        continue;
      }
      const key = windowHash(secret, secret.length - TAIL);
      const bucket = this.#byTail.get(key) ?? { lengths: [], secrets: new Set<string>() };
      if (!bucket.secrets.has(secret)) {
        bucket.secrets.add(secret);
        if (!bucket.lengths.includes(secret.length)) bucket.lengths.push(secret.length);
        bucket.lengths.sort((a, b) => b - a);
      }
      this.#byTail.set(key, bucket);
    }
  }

  /** Each occurrence of a secret in `text` as [start, end): the longest one ending at each position. */
  spans(text: string): Array<[number, number]> {
    const spans: Array<[number, number]> = [];
    for (const secret of this.#short)
      for (let found = text.indexOf(secret); found !== -1; found = text.indexOf(secret, found + 1))
        spans.push([found, found + secret.length]);
    if (this.#byTail.size === 0 || text.length < TAIL) return spans;
    let hash = windowHash(text, 0);
    for (let end = TAIL; ; end += 1) {
      const bucket = this.#byTail.get(hash);
      if (bucket !== undefined)
        for (const length of bucket.lengths)
          if (length <= end && bucket.secrets.has(text.slice(end - length, end))) {
            spans.push([end - length, end]);
            break;
          }
      if (end >= text.length) return spans;
      const out = Math.imul(text.charCodeAt(end - TAIL), HASH_OUT);
      hash = (Math.imul(hash - out, HASH_BASE) + text.charCodeAt(end)) | 0;
    }
  }
}

/** The hash of the TAIL characters of `text` from `start`, as SecretMatcher rolls it. */
function windowHash(text: string, start: number): number {
  let hash = 0;
  for (let at = start; at < start + TAIL; at += 1) hash = (Math.imul(hash, HASH_BASE) + text.charCodeAt(at)) | 0;
  return hash;
}

/**
 * Server (or request) text as reports show it: redacted first, then cut to `limit` characters, so a cut can never
 * leave the first part of a secret behind. The only way text from the wire is shortened in a contract run.
 * @example describeServerText(redact, response.body, 120) // '{"detail":"you sent <redacted>"}'
 */
export function describeServerText(redact: Redact, text: string, limit: number): string {
  const redacted = redact(text);
  // `... (N characters)` is how records mark a cut; spec-change/report-evidence.ts reads it to skip partial bodies.
  return redacted.length > limit ? `${redacted.slice(0, limit)}... (${text.length} characters)` : redacted;
}
