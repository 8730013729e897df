// The part of a value a checker looks at and the part it shows. It checks a parsed body up to a budget of values, so
// that a body of millions of wrong items (8 MiB of `1,` where strings belong) costs a bounded number of errors, not one
// object per item; and it quotes a value in a finding cut to a line, never inside a word a credential could be.

/** Values (array items and object members, at every depth) the checkers validate of one body at most. */
export const MAX_CHECKED_VALUES = 100_000;

/**
 * `value`, or a copy of it holding its first `budget` values in breadth-first order (arrays cut, objects with fewer
 * members), and whether anything was left out. Iterative: the value's depth was bounded before it was parsed.
 * @example checkedPart(JSON.parse(text)).cut // true when the body holds more than 100,000 values
 */
export function checkedPart(value: unknown, budget = MAX_CHECKED_VALUES): { value: unknown; cut: boolean } {
  if (typeof value !== 'object' || value === null || countValues(value, budget) <= budget) return { value, cut: false };
  let left = budget;
  const root: unknown = Array.isArray(value) ? [] : {};
  const queue: Array<[source: object, target: unknown]> = [[value, root]];
  for (let index = 0; index < queue.length; index += 1) {
    const [source, target] = queue[index] as [object, unknown];
    const entries = Array.isArray(source) ? source.entries() : Object.entries(source).values();
    for (const [key, child] of entries) {
      if (left <= 0) break;
      left -= 1;
      const copy = typeof child === 'object' && child !== null ? (Array.isArray(child) ? [] : {}) : child;
      if (Array.isArray(target)) target.push(copy);
      else (target as Record<string, unknown>)[key as string] = copy;
      if (copy !== child) queue.push([child as object, copy]);
    }
  }
  return { value: root, cut: true };
}

/**
 * What a checker says of a body `checkedPart` cut: the fields its finding shares on either side of the exchange.
 * @example violations.push({ ...base, rule, specPointer, ...uncheckedRest('the request body') });
 */
export function uncheckedRest(subject: string): {
  pointer: '';
  expected: string;
  found: string;
  origin: 'assumption';
  message: string;
} {
  return {
    pointer: '',
    expected: `a body of at most ${MAX_CHECKED_VALUES} values, all checked`,
    found: `more than ${MAX_CHECKED_VALUES} values`,
    origin: 'assumption',
    message: `${subject} holds more than ${MAX_CHECKED_VALUES} values; only the first ${MAX_CHECKED_VALUES} were checked`,
  };
}

/** How many values `value` holds, counting stopped once past `limit`. */
function countValues(value: object, limit: number): number {
  let count = 0;
  const stack: object[] = [value];
  while (stack.length > 0 && count <= limit) {
    const node = stack.pop() as object;
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    count += children.length;
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push(child);
  }
  return count;
}

/**
 * A value as a finding shows it: its JSON, cut to `most` characters (120 unless a report's line asks fewer). A cut never falls inside a word (a run of characters
 * other than spaces and JSON's `,:{}[]`): a word the cut would split is left out whole, so that a credential the value
 * holds is either shown whole, for the caller's redactor to hide, or not at all, never as a prefix no redactor knows.
 * @example foundText('short'); // '"short"'
 * @example foundText({ name: 'x'.repeat(300) }); // '{"name":... (311 characters)'
 */
export function foundText(value: unknown, most = 120): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  if (text.length <= most) return text;
  let end = most - 3;
  if (isWordCharacter(text.charAt(end)) && isWordCharacter(text.charAt(end - 1)))
    while (end > 0 && isWordCharacter(text.charAt(end - 1))) end -= 1;
  return `${text.slice(0, end)}... (${text.length} characters)`;
}

/** What ends a word in a value's JSON: a space or one of JSON's `,:{}[]`. */
const WORD_END = /[\s,:{}[\]]/;

/** Whether a character of a value's JSON belongs to a word that could be a credential. */
const isWordCharacter = (character: string): boolean => !WORD_END.test(character);
