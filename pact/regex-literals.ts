// The values a regular expression accepts when it is only a list of literals (`^(active|paused)$`, `queued|failed`),
// which is how Pact's regex matchers over an enum are written: then it can be compared with the enum, cheaply and
// exactly. Any other regex (classes, repetition, lookaround) is not judged.

/** Characters that are literal in a regex as they are. */
const plain = /^[A-Za-z0-9 _,:;'"=<>@#%&~`/-]$/;

function unescaped(text: string): string | undefined {
  let result = '';
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index] ?? '';
    if (character === '\\') {
      const next = text[index + 1] ?? '';
      // An escaped punctuation character is itself; an escaped letter or digit is a class (\d, \w) or a back-reference.
      if (!/^[^A-Za-z0-9]$/.test(next)) return undefined;
      result += next;
      index += 1;
    } else if (plain.test(character)) result += character;
    else return undefined;
  }
  return result;
}

/**
 * The whole strings `regex` accepts when it is anchored (or meant whole, as Pact matches) and a group of literal
 * alternatives; undefined when it is anything else.
 * @example literalAlternatives('^(active|paused)$') // ['active', 'paused']
 * @example literalAlternatives('^[a-z]+$') // undefined
 */
export function literalAlternatives(regex: string): string[] | undefined {
  let body = regex.replace(/^\^/, '').replace(/(?<!\\)\$$/, '');
  const group = /^\((?:\?:)?(.*)\)$/.exec(body);
  if (group?.[1] !== undefined && !/[()]/.test(group[1])) body = group[1];
  const values: string[] = [];
  for (const piece of body.split('|')) {
    const value = unescaped(piece);
    if (value === undefined) return undefined;
    values.push(value);
  }
  return values;
}
