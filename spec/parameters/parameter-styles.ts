// OpenAPI 3.1's parameter serialization, read backwards: the text of a path segment, a query string, a header or a
// cookie turned into the value its `style`/`explode` describe (a string, a list, an object of strings), then into the
// schema's types (`limit=20` → 20). Only text handling; the reader in parameter-reader.ts validates the result.
import type { ParameterSpec, ScalarType } from './parameters.ts';

/** A parameter's text as serialized: one value, a list, or named values; or why it cannot be read. */
export type Serialized = string | string[] | Record<string, string>;
export type Deserialized = { ok: true; value: Serialized } | { ok: false; message: string } | undefined;

/** A query string's pairs by name (names decoded; values as sent, decoded only once split). */
export type QueryPairs = Map<string, string[]>;

const PLUS = /\+/g;

/** Percent-decodes form text (`+` is a space there); undefined when it is not valid percent-encoding. */
function decodeText(text: string, form: boolean): string | undefined {
  const plain = form && text.includes('+') ? text.replace(PLUS, ' ') : text;
  if (!plain.includes('%')) return plain;
  try {
    return decodeURIComponent(plain);
  } catch {
    return undefined;
  }
}

/**
 * The pairs of a query string (without `?`).
 * @example splitQuery('a=1&a=2&b').get('a') // ['1', '2']
 */
export function splitQuery(query: string): QueryPairs {
  const pairs: QueryPairs = new Map();
  for (const part of query.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const rawName = equals === -1 ? part : part.slice(0, equals);
    const name = decodeText(rawName, true) ?? rawName;
    const value = equals === -1 ? '' : part.slice(equals + 1);
    const list = pairs.get(name);
    if (list) list.push(value);
    else pairs.set(name, [value]);
  }
  return pairs;
}

/**
 * The cookies of a Cookie header by name (RFC 6265: `a=1; b=2`).
 * @example splitCookies('a=1; b=2').get('b') // ['2']
 */
export function splitCookies(header: string | undefined): QueryPairs {
  const pairs: QueryPairs = new Map();
  for (const part of (header ?? '').split(';')) {
    const equals = part.indexOf('=');
    if (equals === -1) continue;
    const name = part.slice(0, equals).trim();
    const list = pairs.get(name);
    const value = part.slice(equals + 1).trim();
    if (list) list.push(value);
    else pairs.set(name, [value]);
  }
  return pairs;
}

const invalidEncoding = { ok: false as const, message: 'is not valid percent-encoding' };
const repeated = (count: number) => ({ ok: false as const, message: `is given ${count} times; it takes one value` });

function decodeAll(items: readonly string[], form: boolean): string[] | undefined {
  const result: string[] = [];
  for (const item of items) {
    const text = decodeText(item, form);
    if (text === undefined) return undefined;
    result.push(text);
  }
  return result;
}

/** `k,v,k2,v2` (or with explode `k=v,k2=v2`) as named values. */
function pairsOf(items: readonly string[], explode: boolean): Record<string, string> {
  const result: Record<string, string> = {};
  if (explode) {
    for (const item of items) {
      const equals = item.indexOf('=');
      if (equals > 0) result[item.slice(0, equals)] = item.slice(equals + 1);
    }
    return result;
  }
  for (let index = 0; index + 1 < items.length; index += 2) result[items[index] ?? ''] = items[index + 1] ?? '';
  return result;
}

/** One delimited text as the shape wants it: whole, a list, or named values. */
function shaped(spec: ParameterSpec, items: readonly string[], whole: string): Serialized {
  if (spec.shape.kind === 'array') return [...items];
  if (spec.shape.kind === 'object') return pairsOf(items, spec.explode);
  return whole;
}

/** A path parameter's value (`simple`, `label` or `matrix`), percent-encoded unless `decoded`. */
export function fromPath(spec: ParameterSpec, raw: string, decoded: boolean): Deserialized {
  let text = raw;
  let delimiter = ',';
  if (spec.style === 'label') {
    if (!text.startsWith('.')) return { ok: false, message: 'must start with "." (label style)' };
    text = text.slice(1);
    if (spec.explode) delimiter = '.';
  } else if (spec.style === 'matrix') {
    const prefix = `;${spec.name}=`;
    if (!text.startsWith(prefix)) return { ok: false, message: `must start with "${prefix}" (matrix style)` };
    text = text.slice(prefix.length);
    if (spec.explode && spec.shape.kind === 'array') delimiter = prefix;
  }
  if (spec.shape.kind === 'scalar' || spec.shape.kind === 'json') {
    const value = decoded ? text : decodeText(text, false);
    return value === undefined ? invalidEncoding : { ok: true, value };
  }
  const items = decoded ? text.split(delimiter) : decodeAll(text.split(delimiter), false);
  return items === undefined ? invalidEncoding : { ok: true, value: shaped(spec, items, text) };
}

const QUERY_DELIMITER: Partial<Record<ParameterSpec['style'], string>> = { spaceDelimited: ' ', pipeDelimited: '|' };

function deepObject(spec: ParameterSpec, pairs: QueryPairs): Deserialized {
  const prefix = `${spec.name}[`;
  const value: Record<string, string> = {};
  let found = false;
  for (const [name, values] of pairs) {
    if (!name.startsWith(prefix) || !name.endsWith(']')) continue;
    if (values.length > 1) return { ok: false, message: `${name} ${repeated(values.length).message}` };
    const text = decodeText(values[0] ?? '', true);
    if (text === undefined) return invalidEncoding;
    value[name.slice(prefix.length, -1)] = text;
    found = true;
  }
  return found ? { ok: true, value } : undefined;
}

/** An exploded form object: each of the schema's properties is a query parameter of its own. */
function explodedObject(spec: ParameterSpec, pairs: QueryPairs): Deserialized {
  if (spec.shape.kind !== 'object') return undefined;
  const value: Record<string, string> = {};
  let found = false;
  for (const property of Object.keys(spec.shape.properties)) {
    const values = pairs.get(property);
    if (values === undefined) continue;
    if (values.length > 1) return { ok: false, message: `${property} ${repeated(values.length).message}` };
    const text = decodeText(values[0] ?? '', true);
    if (text === undefined) return invalidEncoding;
    value[property] = text;
    found = true;
  }
  return found ? { ok: true, value } : undefined;
}

/**
 * A query (or cookie) parameter's value from the request's pairs; undefined when the request does not carry it. A
 * parameter that takes one value and is given several is an error, never one of them.
 */
export function fromPairs(spec: ParameterSpec, pairs: QueryPairs, form: boolean): Deserialized {
  if (spec.style === 'deepObject') return deepObject(spec, pairs);
  if (spec.shape.kind === 'object' && spec.explode && spec.style === 'form') return explodedObject(spec, pairs);
  const values = pairs.get(spec.name);
  if (values === undefined) return undefined;
  if (spec.shape.kind === 'array' && spec.explode && spec.style === 'form') {
    const items = decodeAll(values, form);
    return items === undefined ? invalidEncoding : { ok: true, value: items };
  }
  if (values.length > 1) return repeated(values.length);
  const whole = values[0] ?? '';
  if (spec.shape.kind === 'scalar' || spec.shape.kind === 'json') {
    const value = decodeText(whole, form);
    return value === undefined ? invalidEncoding : { ok: true, value };
  }
  const delimiter = QUERY_DELIMITER[spec.style];
  // A delimiter is split before decoding, so an encoded one (`%2C`) stays inside its item.
  const items = delimiter === undefined ? decodeAll(whole.split(','), form) : decodeText(whole, form)?.split(delimiter);
  return items === undefined ? invalidEncoding : { ok: true, value: shaped(spec, items, whole) };
}

/** A header parameter's value (`simple`): lists and objects are comma-separated, items trimmed. */
export function fromHeader(spec: ParameterSpec, raw: string | readonly string[]): Deserialized {
  const whole = typeof raw === 'string' ? raw : raw.join(', ');
  if (spec.shape.kind === 'scalar' || spec.shape.kind === 'json') return { ok: true, value: whole.trim() };
  const items = whole.split(',').map((item) => item.trim());
  return { ok: true, value: shaped(spec, items, whole) };
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A text as the schema's type; left as text when it is not one, so the validator names what it should have been. */
function coerce(text: string, type: ScalarType): unknown {
  switch (type) {
    case 'integer':
    case 'number':
      return NUMBER.test(text) ? Number(text) : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'null':
      return text === '' || text === 'null' ? null : text;
    default:
      return text;
  }
}

/** A deserialized value in the schema's types: what the validator is given. */
export function typed(
  spec: ParameterSpec,
  value: Serialized,
): { ok: true; value: unknown } | { ok: false; message: string } {
  const shape = spec.shape;
  if (shape.kind === 'json') {
    try {
      return { ok: true, value: JSON.parse(String(value)) as unknown };
    } catch {
      return { ok: false, message: 'is not valid JSON' };
    }
  }
  if (shape.kind === 'scalar')
    return { ok: true, value: typeof value === 'string' ? coerce(value, shape.type) : value };
  if (shape.kind === 'array')
    return {
      ok: true,
      value: (Array.isArray(value) ? value : [String(value)]).map((item) => coerce(item, shape.items)),
    };
  if (typeof value === 'string' || Array.isArray(value)) return { ok: true, value };
  const result: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(value))
    result[name] = coerce(text, shape.properties[name] ?? shape.additional);
  return { ok: true, value: result };
}
