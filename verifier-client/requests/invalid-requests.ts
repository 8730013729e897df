// Derives, from the request schemas, every named invalid request of the request-validation check: each required field
// missing, each enum broken, each bound crossed, each field sent as every other JSON type, plus malformed JSON and wrong
// media types.
import {
  brokenKeywords,
  isJsonObject,
  type BodyOperationId,
  type JsonObject,
  type JsonValue,
} from '../../spec/index.ts';
import { nearMisses, type FieldBreak } from './near-misses.ts';
import { propertiesOf, requestExamples, requestSchema, requestSchemaPointer, type SchemaAt } from './spec-schemas.ts';

/** One request that a correct server rejects. */
export interface InvalidRequest {
  /** Stable, kebab-case, e.g. `revenueShare-maximum`. */
  id: string;
  title: string;
  /** The raw body sent. */
  body: string;
  /** The Content-Type header sent; undefined sends none. */
  contentType: string | undefined;
  /** The spec keyword the request breaks (its origin decides seed or assumption). */
  keywordPointer: string;
  /** The documented status a correct server answers. */
  expectedStatus: number;
}

const notInAnyEnum = 'not-a-documented-value';

/** One value of each JSON type; a numeric string and a number probe servers that coerce. */
const valuesByType = {
  object: { value: {} },
  array: { value: [] },
  string: { value: '42' },
  number: { value: 42 },
  boolean: { value: true },
  null: { value: null },
} as const satisfies Record<string, { value: JsonValue }>;

type JsonType = keyof typeof valuesByType;

/** Every JSON type other than the schema's (an integer is a number), so only the type rule breaks. */
function otherTypes(schema: JsonObject): JsonType[] {
  const own = schema.type === 'integer' ? 'number' : schema.type;
  return (Object.keys(valuesByType) as JsonType[]).filter((type) => type !== own);
}

/** How far past a bound the far value lies: half a unit, or the bound's own size when larger (2e15 past 1e15). */
function farStep(bound: number): number {
  return Math.max(0.5, Math.abs(bound));
}

function numberBounds(
  name: string,
  at: SchemaAt,
): Array<{ suffix: string; value: number; keyword: string; title: string }> {
  const { schema } = at;
  const bounds: Array<{ suffix: string; value: number; keyword: string; title: string }> = [];
  if (typeof schema.minimum === 'number')
    bounds.push({
      suffix: 'minimum',
      keyword: 'minimum',
      value: schema.minimum - farStep(schema.minimum),
      title: `${name} below its minimum ${schema.minimum}`,
    });
  if (typeof schema.exclusiveMinimum === 'number')
    bounds.push({
      suffix: 'exclusive-minimum',
      keyword: 'exclusiveMinimum',
      value: schema.exclusiveMinimum,
      title: `${name} equal to its exclusive minimum ${schema.exclusiveMinimum}`,
    });
  if (typeof schema.maximum === 'number')
    bounds.push({
      suffix: 'maximum',
      keyword: 'maximum',
      value: schema.maximum + farStep(schema.maximum),
      title: `${name} above its maximum ${schema.maximum}`,
    });
  if (typeof schema.exclusiveMaximum === 'number')
    bounds.push({
      suffix: 'exclusive-maximum',
      keyword: 'exclusiveMaximum',
      value: schema.exclusiveMaximum,
      title: `${name} equal to its exclusive maximum ${schema.exclusiveMaximum}`,
    });
  return bounds;
}

type FieldRule = (name: string, at: SchemaAt) => FieldBreak[];

/** The rules a field can break, each a small function of its schema; the order is the order of the cases. */
const fieldRules: readonly FieldRule[] = [
  (name, { schema }) =>
    Array.isArray(schema.enum)
      ? [
          {
            suffix: 'enum',
            title: `${name} outside its enum (${schema.enum.join(', ')})`,
            value: notInAnyEnum,
            keyword: 'enum',
          },
        ]
      : [],
  (name, { schema }) =>
    otherTypes(schema).map((type) => ({
      suffix: `type-${type}`,
      title: `${name} sent as ${type === 'null' ? 'null' : `a JSON ${type}`} (${String(schema.type)} expected)`,
      value: valuesByType[type].value,
      keyword: 'type',
    })),
  (name, at) =>
    numberBounds(name, at).map((bound) => ({
      suffix: bound.suffix,
      title: bound.title,
      value: bound.value,
      keyword: bound.keyword,
    })),
  (name, { schema }) =>
    typeof schema.minLength === 'number' && schema.minLength > 0
      ? [
          {
            suffix: 'min-length',
            title: `${name} shorter than ${schema.minLength} characters`,
            value: 'x'.repeat(schema.minLength - 1),
            keyword: 'minLength',
          },
        ]
      : [],
  (name, { schema }) =>
    typeof schema.maxLength === 'number'
      ? [
          {
            suffix: 'max-length',
            title: `${name} longer than ${schema.maxLength} characters`,
            value: 'x'.repeat(schema.maxLength + 1),
            keyword: 'maxLength',
          },
        ]
      : [],
  (name, { schema }) =>
    typeof schema.maxItems === 'number'
      ? [
          {
            suffix: 'max-items',
            title: `${name} with more than ${schema.maxItems} items`,
            value: Array.from({ length: schema.maxItems + 1 }, (_, i) => `item-${i}`),
            keyword: 'maxItems',
          },
        ]
      : [],
  (name, { schema }) =>
    isJsonObject(schema.items) && schema.items.type === 'string'
      ? [
          {
            suffix: 'item-type',
            title: `an item of ${name} of the wrong JSON type`,
            value: [42],
            keyword: 'items/type',
          },
        ]
      : [],
];

/**
 * Every named invalid request of an operation, derived from its schema and its richest example.
 * @example invalidRequests(operationId).some((c) => c.id === 'revenueShare-maximum') // true
 */
export function invalidRequests(operationId: BodyOperationId): InvalidRequest[] {
  const at = requestSchema(operationId);
  const example = requestExamples(operationId)[0];
  if (!example) throw new Error(`${operationId} has no request example to derive invalid requests from`);
  const withField = (name: string, value: JsonValue | undefined): string => {
    const body: JsonObject = structuredClone(example);
    if (value === undefined) delete body[name];
    else body[name] = value;
    return JSON.stringify(body);
  };
  const cases: InvalidRequest[] = [];
  for (const property of propertiesOf(at)) {
    const { name } = property;
    const missing: FieldBreak[] = property.required
      ? [{ suffix: 'missing', title: `required field ${name} missing`, value: undefined, keyword: '' }]
      : [];
    // Near misses are kept only when they break the keyword they name and no rule outside the field's own schema, so
    // each probes one field at its edge ('0.5' for revenueShare breaks its type only; ['high'] for priority its type,
    // and its enum, which no array can be in).
    const near = nearMisses(name, property.at, example[name]).filter((miss) => {
      const broken = brokenKeywords(operationId, JSON.parse(withField(name, miss.value)) as JsonValue);
      return (
        broken.some((keyword) => keyword.keywordPointer === `${property.at.pointer}/${miss.keyword}`) &&
        broken.every((keyword) => keyword.keywordPointer.startsWith(`${property.at.pointer}/`))
      );
    });
    for (const broken of [...missing, ...fieldRules.flatMap((rule) => rule(name, property.at)), ...near]) {
      cases.push({
        id: `${name}-${broken.suffix}`,
        title: broken.title,
        body: withField(name, broken.value),
        contentType: 'application/json',
        // A missing field breaks its parent's `required`; every other break, a keyword of the field's own schema.
        keywordPointer: broken.keyword === '' ? `${at.pointer}/required` : `${property.at.pointer}/${broken.keyword}`,
        expectedStatus: 400,
      });
    }
  }
  return [...cases, ...wholeBodyCases(operationId, at.pointer, example)];
}

/** What breaks the body as a whole: not an object, not JSON, not sent as JSON. */
function wholeBodyCases(operationId: BodyOperationId, schemaPointer: string, example: JsonObject): InvalidRequest[] {
  const json = 'application/json';
  return [
    {
      id: 'body-not-object',
      title: 'a JSON array instead of an object',
      body: '[]',
      contentType: json,
      keywordPointer: `${schemaPointer}/type`,
      expectedStatus: 400,
    },
    {
      id: 'malformed-json',
      title: 'malformed JSON',
      body: JSON.stringify(example).slice(0, -3),
      contentType: json,
      keywordPointer: `${schemaPointer}/type`,
      expectedStatus: 400,
    },
    {
      id: 'content-type-text',
      title: 'a JSON body sent as text/plain',
      body: JSON.stringify(example),
      contentType: 'text/plain',
      keywordPointer: requestContentPointer(operationId),
      expectedStatus: 415,
    },
    {
      id: 'content-type-missing',
      title: 'a JSON body sent without Content-Type',
      body: JSON.stringify(example),
      contentType: undefined,
      keywordPointer: requestContentPointer(operationId),
      expectedStatus: 415,
    },
  ];
}

function requestContentPointer(operationId: BodyOperationId): string {
  // The media type map of the request body: where the seed fixes application/json.
  return requestSchemaPointer(operationId).replace(/\/[^/]+\/schema$/, '');
}
