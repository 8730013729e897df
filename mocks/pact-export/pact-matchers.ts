// Pact matching rules derived from spec/openapi.yaml: a value the server makes (an id, a timestamp, an address, a
// figure) is matched by its schema (pattern → regex, date-time → a timestamp regex, enum → a regex of its values,
// integer, number, else type), so a pact does not pin the fake's generated values; what the app can rely on (a value the
// spec pins with `const`, a field echoing the request or the provider state) is left to exact equality.
import {
  getAtPointer,
  isJsonObject,
  openapiDocument,
  resolveRef,
  type JsonObject,
  type JsonValue,
} from '../../spec/index.ts';

/** One Pact matcher (V3 and V4 write them alike). */
export type PactMatcher =
  | { match: 'type'; min?: number }
  | { match: 'regex'; regex: string }
  | { match: 'integer' }
  | { match: 'number' };

/** Matchers by Pact path (`$.tokenomics.price`), as `matchingRules.body` or `.header` holds them. */
export type PactRules = Record<string, { combine: 'AND'; matchers: PactMatcher[] }>;

/** An RFC 3339 timestamp, what `format: date-time` allows. */
const TIMESTAMP = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$';
/** What a pact shows for a timestamp under the timestamp matcher: one value, so the clock does not change the file. */
export const EXAMPLE_TIMESTAMP = '2000-01-01T00:00:00.000Z';

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A Pact path step for an object key: `.name`, or `['odd key']`.
 * @example pactKey('deployedAt') // '.deployedAt'
 */
function pactKey(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `['${key.replaceAll("'", "\\'")}']`;
}

function resolved(node: JsonValue | undefined): JsonObject | undefined {
  return isJsonObject(node) ? resolveRef(node, '').node : undefined;
}

/** The matcher of a string value by its schema. */
function stringMatcher(schema: JsonObject | undefined): PactMatcher {
  if (Array.isArray(schema?.enum) && schema.enum.every((value) => typeof value === 'string'))
    return { match: 'regex', regex: `^(${(schema.enum as string[]).map(escapeRegex).join('|')})$` };
  if (typeof schema?.pattern === 'string') return { match: 'regex', regex: schema.pattern };
  if (schema?.format === 'date-time') return { match: 'regex', regex: TIMESTAMP };
  return { match: 'type' };
}

/** Whether a schema pins the value: a `const`, or an enum of one value. */
function pinned(schema: JsonObject | undefined): boolean {
  return schema !== undefined && ('const' in schema || (Array.isArray(schema.enum) && schema.enum.length === 1));
}

/**
 * Walks a value beside its schema, adding a matcher for every leaf the schema does not pin; rules go on leaves only
 * (Pact hands a parent's `type` rule down to its children, which would loosen a pinned child). Arrays get a `type` rule
 * with `min: 0` and their items' rules under `[*]`.
 */
function walk(value: JsonValue, schema: JsonObject | undefined, path: string, rules: PactRules): void {
  if (pinned(schema)) return;
  if (Array.isArray(value)) {
    rules[path] = { combine: 'AND', matchers: [{ match: 'type', min: 0 }] };
    const first = value[0];
    if (first !== undefined) walk(first, resolved(schema?.items), `${path}[*]`, rules);
    return;
  }
  if (isJsonObject(value)) {
    const properties = isJsonObject(schema?.properties) ? schema.properties : {};
    for (const [key, child] of Object.entries(value)) {
      const childSchema = resolved(properties[key]) ?? resolved(schema?.additionalProperties);
      walk(child, childSchema, `${path}${pactKey(key)}`, rules);
    }
    return;
  }
  const matcher: PactMatcher =
    typeof value === 'string'
      ? stringMatcher(schema)
      : typeof value === 'number'
        ? schema?.type === 'integer'
          ? { match: 'integer' }
          : { match: 'number' }
        : { match: 'type' };
  rules[path] = { combine: 'AND', matchers: [matcher] };
}

/**
 * The body's matching rules from the schema at `schemaPointer` of spec/openapi.yaml; a top-level field for which
 * `exact(key, value)` holds (it echoes the request or the provider state) keeps no rule, so it is matched exactly.
 * @example bodyRules({ agentId: 'agt_1', status: 'paused' }, pointer, (key) => key === 'agentId')
 * // { '$.status': { combine: 'AND', matchers: [{ match: 'regex', regex: '^(active|paused|deprecated)$' }] } }
 */
export function bodyRules(
  body: JsonValue,
  schemaPointer: string | undefined,
  exact: (key: string, value: JsonValue) => boolean,
): PactRules {
  const rules: PactRules = {};
  const schema = schemaPointer === undefined ? undefined : resolved(getAtPointer(openapiDocument, schemaPointer));
  if (!isJsonObject(body)) {
    walk(body, schema, '$', rules);
    return rules;
  }
  const properties = isJsonObject(schema?.properties) ? schema.properties : {};
  for (const [key, value] of Object.entries(body)) {
    if (exact(key, value)) continue;
    walk(value, resolved(properties[key]), `$${pactKey(key)}`, rules);
  }
  return rules;
}

/** A timestamp inside a longer text (`The bearer token expired at 2026-01-02T03:04:05.000Z.`). */
const EMBEDDED_TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g;

/**
 * A text a `type` matcher covers with each timestamp in it pinned to EXAMPLE_TIMESTAMP: the expiry a 401's `detail`
 * and `WWW-Authenticate` name depends on when the test ran, and the matcher accepts any text in its place.
 * @example stableText('The bearer token expired at 2026-01-02T03:04:05.000Z.') // '… expired at 2000-01-01T00:00:00.000Z.'
 */
export function stableText(text: string): string {
  return text.replace(EMBEDDED_TIMESTAMP, EXAMPLE_TIMESTAMP);
}

/**
 * The body with every value that depends on when it was answered pinned, so the same test run on another day writes
 * the same pact: a timestamp under the timestamp matcher becomes EXAMPLE_TIMESTAMP, and so does a timestamp inside a
 * text under a `type` matcher (a problem's `detail`). Values matched exactly (echoes of the request) stay as they are.
 * @example stableExample({ deployedAt: '2026-01-02T03:04:05.000Z' }, rules) // { deployedAt: '2000-01-01T00:00:00.000Z' }
 */
export function stableExample(body: JsonValue, rules: PactRules): JsonValue {
  const pathsMatching = (match: (matcher: PactMatcher) => boolean) =>
    new Set(
      Object.entries(rules)
        .filter(([, rule]) => rule.matchers.some(match))
        .map(([path]) => path),
    );
  const timestampPaths = pathsMatching((matcher) => matcher.match === 'regex' && matcher.regex === TIMESTAMP);
  const textPaths = pathsMatching((matcher) => matcher.match === 'type');
  if (timestampPaths.size === 0 && textPaths.size === 0) return body;
  const replace = (value: JsonValue, path: string): JsonValue => {
    if (typeof value === 'string' && timestampPaths.has(path)) return EXAMPLE_TIMESTAMP;
    if (typeof value === 'string' && textPaths.has(path)) return stableText(value);
    if (Array.isArray(value)) return value.map((item) => replace(item, `${path}[*]`));
    if (isJsonObject(value))
      return Object.fromEntries(
        Object.entries(value).map(([key, child]) => [key, replace(child, `${path}${pactKey(key)}`)]),
      );
    return value;
  };
  return replace(body, '$');
}

/**
 * The matcher of a documented header's value from its schema: an integer's digits, else its type. Not its pattern:
 * Pact's verifier splits a header such as `WWW-Authenticate: Bearer realm="x"` into parts and matches a regex against
 * those, so `^Bearer\\b` would fail on the very value it describes.
 * @example headerMatcher({ type: 'integer' }) // { match: 'regex', regex: '^\\d+$' }
 */
export function headerMatcher(schema: JsonValue | undefined): PactMatcher {
  return resolved(schema)?.type === 'integer' ? { match: 'regex', regex: '^\\d+$' } : { match: 'type' };
}

/**
 * A regex matching a media type with any parameters after it (`application/json; charset=utf-8`).
 * @example mediaTypeRegex('application/problem+json') // '^application/problem\\+json(\\s*;.*)?$'
 */
export function mediaTypeRegex(mediaType: string): string {
  return `^${escapeRegex(mediaType)}(\\s*;.*)?$`;
}
