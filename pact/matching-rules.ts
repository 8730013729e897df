// The matching rules of a Pact request or response (specification 2's flat `$.body.x` keys, 3's and 4's categories),
// read into one list, and the body rule that governs one place of a body. A value under a matcher is an example: the
// provider may answer another value the matcher accepts.
import { isJsonObject, type JsonValue } from '../spec/index.ts';

/** One matcher as Pact states it: `type`, `regex` (with its pattern), `integer`, `date`…; min and max for arrays. */
export interface Matcher {
  match: string;
  regex?: string;
  min?: number;
  max?: number;
}

/** Where a rule applies: a body place (tokens of its JSON path, `*` for any), a header or query name, the path. */
export interface MatchingRule {
  category: 'body' | 'header' | 'query' | 'path' | 'status';
  /** For a body rule, the place's tokens (`$.items[*].id` → ['items', '*', 'id']); for a header or query, its name. */
  place: Array<string | number>;
  matchers: Matcher[];
}

const categories: Record<string, MatchingRule['category']> = {
  body: 'body',
  header: 'header',
  headers: 'header',
  query: 'query',
  path: 'path',
  status: 'status',
};

/**
 * The tokens of a Pact JSON path: `$.a.b[0]['c d'][*].*` → ['a', 'b', 0, 'c d', '*', '*']; undefined when it is not one.
 * @example jsonPathTokens("$.tokenomics['price']") // ['tokenomics', 'price']
 */
export function jsonPathTokens(path: string): Array<string | number> | undefined {
  if (!path.startsWith('$')) return undefined;
  const tokens: Array<string | number> = [];
  const pattern = /\.([^.[\]]+)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]|\[\*\]/gy;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (!match) return undefined;
    const [whole, name, index, single, double] = match;
    if (name !== undefined) tokens.push(name);
    else if (index !== undefined) tokens.push(Number(index));
    else if (single !== undefined) tokens.push(single);
    else if (double !== undefined) tokens.push(double);
    else if (whole === '[*]') tokens.push('*');
  }
  return tokens;
}

function matchersOf(raw: JsonValue | undefined): Matcher[] {
  if (!isJsonObject(raw)) return [];
  const list = Array.isArray(raw.matchers) ? raw.matchers : [raw];
  return list.flatMap((one): Matcher[] => {
    if (!isJsonObject(one)) return [];
    const regex = typeof one.regex === 'string' ? one.regex : undefined;
    const match = typeof one.match === 'string' ? one.match : regex !== undefined ? 'regex' : 'type';
    const matcher: Matcher = { match };
    if (regex !== undefined) matcher.regex = regex;
    if (typeof one.min === 'number') matcher.min = one.min;
    if (typeof one.max === 'number') matcher.max = one.max;
    return [matcher];
  });
}

/** Pact 2: `{ "$.body.status": { match, regex }, "$.headers.Authorization": … , "$.path": … }`. */
function flatRules(raw: Record<string, JsonValue>): MatchingRule[] {
  return Object.entries(raw).flatMap(([key, value]): MatchingRule[] => {
    const tokens = jsonPathTokens(key);
    const [first, ...rest] = tokens ?? [];
    const category = typeof first === 'string' ? categories[first] : undefined;
    if (category === undefined) return [];
    return [{ category, place: category === 'body' ? rest : rest.slice(0, 1), matchers: matchersOf(value) }];
  });
}

/** Pact 3 and 4: `{ body: { "$.status": { matchers: […] } }, header: { Authorization: … }, path: { matchers } }`. */
function groupedRules(raw: Record<string, JsonValue>): MatchingRule[] {
  return Object.entries(raw).flatMap(([key, group]): MatchingRule[] => {
    const category = categories[key];
    if (category === undefined || !isJsonObject(group)) return [];
    if (category === 'path' || category === 'status') return [{ category, place: [], matchers: matchersOf(group) }];
    return Object.entries(group).map(([place, value]) => ({
      category,
      place: category === 'body' ? (jsonPathTokens(place) ?? [place]) : [place],
      matchers: matchersOf(value),
    }));
  });
}

/** Matching rules one request or response may state (pact-js writes a handful; each finding's lookup reads them all). */
export const MAX_MATCHING_RULES = 10_000;

/** A request or response stating more than MAX_MATCHING_RULES rules: pact-file.ts makes it a PactFileError. */
export class TooManyRules extends Error {
  constructor(count: number) {
    super(`states ${count} matching rules, more than the ${MAX_MATCHING_RULES} a pact verify reads`);
  }
}

/**
 * The matching rules of one request or response; anything unreadable in them is left out (it constrains nothing).
 * @example readMatchingRules({ body: { '$.status': { matchers: [{ match: 'type' }] } } }, 3)[0].place // ['status']
 */
export function readMatchingRules(raw: JsonValue | undefined, version: number): MatchingRule[] {
  if (!isJsonObject(raw)) return [];
  const count = Object.values(raw).reduce<number>(
    (sum, group) => sum + (isJsonObject(group) ? Math.max(1, Object.keys(group).length) : 1),
    0,
  );
  if (count > MAX_MATCHING_RULES) throw new TooManyRules(count);
  const flat = version === 2 || Object.keys(raw).some((key) => key.startsWith('$'));
  return flat ? flatRules(raw) : groupedRules(raw);
}

/**
 * The body rule whose place is the JSON Pointer tokens `at` (a `*` of the rule matches any token), the most specific
 * one (fewest wildcards) when several are.
 * @example bodyRuleAt(rules, ['items', '0', 'id']) // the rule of $.items[*].id
 */
export function bodyRuleAt(rules: readonly MatchingRule[], at: readonly string[]): MatchingRule | undefined {
  let best: { rule: MatchingRule; wildcards: number } | undefined;
  for (const rule of rules) {
    if (rule.category !== 'body' || rule.place.length !== at.length) continue;
    let wildcards = 0;
    const fits = rule.place.every((token, index) => {
      if (token === '*') {
        wildcards += 1;
        return true;
      }
      return String(token) === at[index];
    });
    if (fits && (best === undefined || wildcards < best.wildcards)) best = { rule, wildcards };
  }
  return best?.rule;
}

/**
 * How a finding names the matcher over a value: `regex ^(active|paused)$`, `type`; undefined when none is.
 * @example matcherText({ match: 'regex', regex: '^a$' }) // 'regex ^a$'
 */
export function matcherText(matcher: Matcher): string {
  return matcher.regex === undefined ? matcher.match : `${matcher.match} ${matcher.regex}`;
}
