// How deep the kit lets JSON from outside nest: one bound for request bodies, answers, pacts and files, checked by a
// linear scan of the text before anything parses or walks it (JSON.stringify, ajv and the kit's walkers recurse).

/** Deepest nesting of arrays and objects the kit reads; deeper JSON is refused before anything walks it. */
export const MAX_JSON_DEPTH = 64;

/** True when brackets nest deeper than `limit` outside strings: a linear scan, no recursion. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  // A body shorter than twice the limit cannot open that many brackets.
  if (text.length <= limit) return false;
  // Nor can one with at most `limit` brackets in all (inside strings or not): counted with indexOf, which skips the
  // text natively, rather than a JavaScript loop over every character; the usual body has a handful.
  let opened = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1 && opened <= limit; at = text.indexOf(bracket, at + 1)) opened += 1;
  }
  if (opened <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 92)
        index += 1; // backslash: skip the escaped character
      else if (code === 34) inString = false;
    } else if (code === 34) {
      inString = true;
    } else if (code === 123 || code === 91) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 125 || code === 93) {
      depth -= 1;
    }
  }
  return false;
}
