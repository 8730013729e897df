// What I-JSON (RFC 7493) forbids and JSON.parse accepts: repeated member names and lone surrogate escapes.
// Stryker disable all: not pinned: I-JSON's rules (no repeated member names, no lone surrogate escapes) are the spec's decision; the description says only that bodies are JSON

/** Where a body breaks I-JSON and how, as the problem's `errors[]` entry shows it. */
export interface IJsonViolation {
  /** JSON Pointer of the repeated member, or of the member holding the lone surrogate. */
  path: string;
  message: string;
}

const pointerSegment = (name: string | number): string =>
  typeof name === 'number' ? String(name) : name.replaceAll('~', '~0').replaceAll('/', '~1');

const isHex = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);

function hexAt(text: string, index: number): number {
  for (let offset = 0; offset < 4; offset += 1) if (!isHex(text.charCodeAt(index + offset))) return -1;
  return Number.parseInt(text.slice(index, index + 4), 16);
}

/**
 * Walks a string from its first backslash to its closing quote; answers the quote's index, or why a surrogate escape
 * is alone.
 */
function scanEscapedString(text: string, from: number): number | { message: string } {
  for (let index = from; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 34) return index;
    if (code !== 92) continue;
    if (text.charCodeAt(index + 1) !== 117) {
      index += 1;
      continue;
    }
    const unit = hexAt(text, index + 2);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const low = text.charCodeAt(index + 6) === 92 && text.charCodeAt(index + 7) === 117 ? hexAt(text, index + 8) : -1;
      if (low < 0xdc00 || low > 0xdfff)
        return { message: `holds a lone surrogate escape (\\u${text.slice(index + 2, index + 6)})` };
      index += 11;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return { message: `holds a lone surrogate escape (\\u${text.slice(index + 2, index + 6)})` };
    } else {
      index += 5;
    }
  }
  return text.length;
}

/** Whether the quote at `index` is escaped: preceded by an odd number of backslashes. */
function escapedQuote(text: string, index: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(index - 1 - backslashes) === 92) backslashes += 1;
  return backslashes % 2 === 1;
}

/**
 * Member names written in a JSON text JSON.parse accepted: the strings followed by a colon. Found by hopping from quote
 * to quote with indexOf, so nothing is allocated and most characters are never looked at by JavaScript.
 */
function memberNamesIn(text: string): number {
  let names = 0;
  for (let open = text.indexOf('"'); open !== -1; ) {
    let close = text.indexOf('"', open + 1);
    while (close !== -1 && escapedQuote(text, close)) close = text.indexOf('"', close + 1);
    if (close === -1) return -1;
    let next = close + 1;
    for (let code = text.charCodeAt(next); code === 32 || code === 9 || code === 10 || code === 13; )
      code = text.charCodeAt(++next);
    if (text.charCodeAt(next) === 58) names += 1;
    open = text.indexOf('"', next);
  }
  return names;
}

/** Own keys of every object in a parsed JSON value (its depth was bounded before it was parsed). */
function keysIn(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) count += keysIn(item);
    return count;
  }
  for (const key in value) {
    if (Object.hasOwn(value, key)) count += 1 + keysIn((value as Record<string, unknown>)[key]);
  }
  return count;
}

/**
 * The first I-JSON violation of a text that JSON.parse accepted, or undefined. A single linear pass with no recursion:
 * member names are compared after unescaping (`"a"` and `"\u0061"` are the same name), and a `\uD800`-`\uDFFF` escape
 * must be half of a pair. Raw lone surrogates cannot occur: bodies are decoded from UTF-8 strictly.
 *
 * Given `parsed` (what JSON.parse made of `text`), the usual body is cleared without that pass: with no `\u` escape
 * there can be no lone surrogate, and JSON.parse keeps one key per repeated name, so names in the text outnumber the
 * parsed keys exactly when a name repeats. Only a body failing that test is walked name by name.
 * @example findIJsonViolation('{"a":1,"a":2}') // { path: '/a', message: 'repeats the member name "a"' }
 */
export function findIJsonViolation(text: string, parsed?: unknown): IJsonViolation | undefined {
  if (parsed !== undefined && !text.includes('\\u') && memberNamesIn(text) === keysIn(parsed)) return undefined;
  return walkForViolation(text);
}

/** The name-by-name pass of findIJsonViolation. */
function walkForViolation(text: string): IJsonViolation | undefined {
  // Per open container: the member names seen so far (objects) or null (arrays), and the current member's name/index.
  const seen: (Set<string> | null)[] = [];
  const names: (string | number)[] = [];
  let expectName = false;
  // The pointer of the member being read; inside a member name, of its object (plus `name` when given).
  const pointer = (name?: string): string => {
    const path = expectName ? names.slice(0, -1) : names;
    return (
      path.map((segment) => `/${pointerSegment(segment)}`).join('') +
      (name === undefined ? '' : `/${pointerSegment(name)}`)
    );
  };
  // Where the next backslash is: strings without one (nearly all) are skipped with indexOf, not walked.
  let nextBackslash = text.indexOf('\\');
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 34) {
      const start = index + 1;
      let end = text.indexOf('"', start);
      let escaped = false;
      if (nextBackslash !== -1 && nextBackslash < start) nextBackslash = text.indexOf('\\', start);
      if (nextBackslash !== -1 && nextBackslash < end) {
        escaped = true;
        const found = scanEscapedString(text, nextBackslash);
        if (typeof found !== 'number') return { path: pointer(), message: found.message };
        end = found;
        nextBackslash = text.indexOf('\\', end);
      }
      index = end;
      if (expectName) {
        const raw = text.slice(start, index);
        const name = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
        const members = seen[seen.length - 1];
        if (members?.has(name))
          return { path: pointer(name), message: `repeats the member name ${JSON.stringify(name)}` };
        members?.add(name);
        names[names.length - 1] = name;
        expectName = false;
      }
    } else if (code === 123) {
      seen.push(new Set());
      names.push('');
      expectName = true;
    } else if (code === 91) {
      seen.push(null);
      names.push(0);
      expectName = false;
    } else if (code === 125 || code === 93) {
      seen.pop();
      names.pop();
      expectName = false;
    } else if (code === 44) {
      const last = names.length - 1;
      const current = names[last];
      if (typeof current === 'number') names[last] = current + 1;
      else expectName = true;
    }
  }
  return undefined;
}
