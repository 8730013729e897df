// The query strings a client sends to any operation of the spec, derived from its declared query parameters (the
// spec's one resolver, operationParameters): a valid one (each required parameter with a valid value), each way to
// break one parameter (missing when required, the wrong type, an enum near-miss, one step past a bound, too long, a
// single value given twice, an array past its bounds), and the boundary values a correct server accepts.
import {
  getOperation,
  openapiDocument,
  operationParameters,
  type JsonValue,
  type OperationId,
  type ParameterLocation,
  type ParameterSpec,
} from '../../spec/index.ts';
import { nearMisses } from './near-misses.ts';
import { numericBounds, resolveSchema, type SchemaAt } from './spec-schemas.ts';

/** One query string that breaks one keyword of one parameter. */
export interface QueryBreak {
  /** Stable, kebab-case: `query-limit-maximum-step`. */
  id: string;
  title: string;
  /** The whole query string sent (without `?`): the other required parameters valid. */
  query: string;
  /** The keyword of the document it breaks (its origin decides seed or assumption). */
  keywordPointer: string;
}

/** A query string of valid values that sits on a bound of one parameter. */
export interface QueryBoundary {
  id: string;
  title: string;
  query: string;
  /** The keyword whose bound it sits on (a correct server accepts it). */
  keywordPointer: string;
}

const encode = (name: string, value: JsonValue): string =>
  `${encodeURIComponent(name)}=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`;

/**
 * The declared parameters of an operation in one location, each with its schema followed (JSON `content` ones aside).
 * @example declaredParameters(operationId, 'header').map(({ spec }) => spec.name) // ['X-Request-Id']
 */
export function declaredParameters(
  operationId: OperationId,
  location: ParameterLocation,
): Array<{ spec: ParameterSpec; at: SchemaAt }> {
  return operationParameters(getOperation(operationId).pointer, openapiDocument)
    .filter((spec) => spec.in === location && spec.shape.kind !== 'json')
    .map((spec) => ({ spec, at: resolveSchema(spec.schemaPointer) }));
}

const queryParameters = (operationId: OperationId) => declaredParameters(operationId, 'query');

/**
 * A value the schema accepts, as a parameter carries it (a list as its items).
 * @example validValue(resolveSchema(limitSchemaPointer)) // 20, its default
 */
export function validValue(at: SchemaAt): JsonValue {
  const { schema } = at;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0] ?? '';
  if (schema.type === 'integer' || schema.type === 'number') return numericBounds(schema).low ?? 1;
  if (schema.type === 'boolean') return true;
  if (schema.type === 'array') return [validValue(resolveSchema(`${at.pointer}/items`))];
  return 'x'.repeat(typeof schema.minLength === 'number' ? Math.max(1, schema.minLength) : 1);
}

/** `name=value` as the parameter's style writes it (an exploded list repeats the name; otherwise commas). */
function serialize(spec: ParameterSpec, value: JsonValue): string {
  if (!Array.isArray(value)) return encode(spec.name, value);
  if (spec.explode) return value.map((item) => encode(spec.name, item)).join('&');
  const delimiter = spec.style === 'pipeDelimited' ? '|' : spec.style === 'spaceDelimited' ? ' ' : ',';
  return `${encodeURIComponent(spec.name)}=${value.map((item) => encodeURIComponent(String(item))).join(encodeURIComponent(delimiter))}`;
}

/**
 * The query every request to the operation carries: each required query parameter with a valid value ('' when none).
 * @example validQuery(operationId) // 'status=active'
 */
export function validQuery(operationId: OperationId, except?: string): string {
  return queryParameters(operationId)
    .filter(({ spec }) => spec.required && spec.name !== except)
    .map(({ spec, at }) => serialize(spec, validValue(at)))
    .join('&');
}

const joined = (...parts: string[]): string => parts.filter((part) => part !== '').join('&');

/** One text that breaks one keyword of a parameter's (scalar) schema. */
export interface TextBreak {
  suffix: string;
  title: string;
  text: string;
  keywordPointer: string;
}

/**
 * The texts that break one keyword of a scalar parameter: its near misses (a case variant of an enum member, a step
 * past a bound), a word or a fraction for a number, one character past a length bound.
 * @example scalarBreaks(spec, at).map((b) => b.suffix) // ['maximum-step', 'type', 'type-fraction']
 */
export function scalarBreaks(spec: ParameterSpec, at: SchemaAt): TextBreak[] {
  const { schema, pointer } = at;
  const breaks: TextBreak[] = [];
  // In a parameter everything is text: a numeric string is the number itself, and an array is the repeat tested below.
  for (const miss of nearMisses(spec.name, at))
    if (miss.keyword !== 'type' && miss.value !== undefined)
      breaks.push({
        suffix: miss.suffix,
        title: miss.title,
        text: String(miss.value),
        keywordPointer: `${pointer}/${miss.keyword}`,
      });
  if (schema.type === 'integer' || schema.type === 'number' || schema.type === 'boolean')
    breaks.push({
      suffix: 'type',
      title: `${spec.name} as a word`,
      text: 'not-a-value',
      keywordPointer: `${pointer}/type`,
    });
  if (schema.type === 'integer')
    breaks.push({
      suffix: 'type-fraction',
      title: `${spec.name} as a fraction`,
      text: '1.5',
      keywordPointer: `${pointer}/type`,
    });
  if (typeof schema.maxLength === 'number')
    breaks.push({
      suffix: 'max-length',
      title: `${spec.name} longer than its maxLength (${schema.maxLength})`,
      text: 'a'.repeat(schema.maxLength + 1),
      keywordPointer: `${pointer}/maxLength`,
    });
  if (typeof schema.minLength === 'number' && schema.minLength > 0)
    breaks.push({
      suffix: 'min-length',
      title: `${spec.name} shorter than its minLength (${schema.minLength})`,
      text: 'a'.repeat(schema.minLength - 1),
      keywordPointer: `${pointer}/minLength`,
    });
  return breaks;
}

/**
 * Every named way to break one query parameter of the operation, each alone in an otherwise valid query.
 * @example queryBreaks(operationId).map((b) => b.id) // ['query-limit-maximum-step', 'query-limit-repeated', …]
 */
export function queryBreaks(operationId: OperationId): QueryBreak[] {
  const result: QueryBreak[] = [];
  for (const { spec, at } of queryParameters(operationId)) {
    const others = validQuery(operationId, spec.name);
    const id = (suffix: string): string => `query-${spec.name}-${suffix}`;
    if (spec.required)
      result.push({
        id: id('missing'),
        title: `no ${spec.name}, a required query parameter`,
        query: others,
        keywordPointer: `${spec.pointer}/required`,
      });
    const valid = validValue(at);
    if (spec.shape.kind === 'scalar') {
      for (const found of scalarBreaks(spec, at))
        result.push({
          id: id(found.suffix),
          title: found.title,
          query: joined(others, encode(spec.name, found.text)),
          keywordPointer: found.keywordPointer,
        });
      result.push({
        id: id('repeated'),
        title: `${spec.name} given twice (it takes one value)`,
        query: joined(others, encode(spec.name, valid), encode(spec.name, valid)),
        keywordPointer: `${at.pointer}/type`,
      });
    } else if (spec.shape.kind === 'array') {
      const items = resolveSchema(`${at.pointer}/items`);
      if (typeof at.schema.maxItems === 'number') {
        const many = Array.from({ length: at.schema.maxItems + 1 }, () => validValue(items));
        result.push({
          id: id('max-items'),
          title: `${spec.name} with more than its maxItems (${at.schema.maxItems}) values`,
          query: joined(others, serialize(spec, many)),
          keywordPointer: `${at.pointer}/maxItems`,
        });
      }
      for (const found of scalarBreaks(spec, items).slice(0, 2))
        result.push({
          id: id(`item-${found.suffix}`),
          title: `${spec.name} with an item that breaks: ${found.title}`,
          query: joined(others, serialize(spec, [found.text])),
          keywordPointer: found.keywordPointer,
        });
    }
  }
  return result;
}

/**
 * The valid values on each numeric bound of the operation's query parameters, which a correct server accepts.
 * @example queryBoundaries(operationId).map((b) => b.query) // ['limit=1', 'limit=100']
 */
export function queryBoundaries(operationId: OperationId): QueryBoundary[] {
  const result: QueryBoundary[] = [];
  for (const { spec, at } of queryParameters(operationId)) {
    if (spec.shape.kind !== 'scalar') continue;
    const others = validQuery(operationId, spec.name);
    for (const keyword of ['minimum', 'maximum'] as const) {
      const bound = at.schema[keyword];
      if (typeof bound !== 'number') continue;
      result.push({
        id: `query-${spec.name}-at-${keyword}`,
        title: `${spec.name} at its ${keyword} ${bound}`,
        query: joined(others, encode(spec.name, bound)),
        keywordPointer: `${at.pointer}/${keyword}`,
      });
    }
  }
  return result;
}
