// Derives, from the request schemas, every named invalid request of the request-validation check: each required field
// missing, each enum broken, each bound crossed, each field sent as every other JSON type, plus malformed JSON and wrong
// media types.
import { isJsonObject, type BodyOperationId, type JsonObject, type JsonValue } from '../spec/index.ts';
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
      value: schema.minimum - 0.5,
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
      value: schema.maximum + 0.5,
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

/**
 * Every named invalid request of an operation, derived from its schema and its richest example.
 * @example invalidRequests(operationId).some((c) => c.id === 'revenueShare-maximum') // true
 */
export function invalidRequests(operationId: BodyOperationId): InvalidRequest[] {
  const at = requestSchema(operationId);
  const example = requestExamples(operationId)[0];
  if (!example) throw new Error(`${operationId} has no request example to derive invalid requests from`);
  const cases: InvalidRequest[] = [];
  const withField = (name: string, value: JsonValue | undefined): string => {
    const body: JsonObject = structuredClone(example);
    if (value === undefined) delete body[name];
    else body[name] = value;
    return JSON.stringify(body);
  };
  const json = 'application/json';
  for (const property of propertiesOf(at)) {
    const { name, schema } = { name: property.name, schema: property.at.schema };
    const where = property.at.pointer;
    if (property.required) {
      cases.push({
        id: `${name}-missing`,
        title: `required field ${name} missing`,
        body: withField(name, undefined),
        contentType: json,
        keywordPointer: `${at.pointer}/required`,
        expectedStatus: 400,
      });
    }
    if (Array.isArray(schema.enum)) {
      cases.push({
        id: `${name}-enum`,
        title: `${name} outside its enum (${schema.enum.join(', ')})`,
        body: withField(name, notInAnyEnum),
        contentType: json,
        keywordPointer: `${where}/enum`,
        expectedStatus: 400,
      });
    }
    for (const type of otherTypes(schema)) {
      cases.push({
        id: `${name}-type-${type}`,
        title: `${name} sent as ${type === 'null' ? 'null' : `a JSON ${type}`} (${String(schema.type)} expected)`,
        body: withField(name, valuesByType[type].value),
        contentType: json,
        keywordPointer: `${where}/type`,
        expectedStatus: 400,
      });
    }
    for (const bound of numberBounds(name, property.at)) {
      cases.push({
        id: `${name}-${bound.suffix}`,
        title: bound.title,
        body: withField(name, bound.value),
        contentType: json,
        keywordPointer: `${where}/${bound.keyword}`,
        expectedStatus: 400,
      });
    }
    if (typeof schema.minLength === 'number' && schema.minLength > 0) {
      cases.push({
        id: `${name}-min-length`,
        title: `${name} shorter than ${schema.minLength} characters`,
        body: withField(name, 'x'.repeat(schema.minLength - 1)),
        contentType: json,
        keywordPointer: `${where}/minLength`,
        expectedStatus: 400,
      });
    }
    if (typeof schema.maxLength === 'number') {
      cases.push({
        id: `${name}-max-length`,
        title: `${name} longer than ${schema.maxLength} characters`,
        body: withField(name, 'x'.repeat(schema.maxLength + 1)),
        contentType: json,
        keywordPointer: `${where}/maxLength`,
        expectedStatus: 400,
      });
    }
    if (typeof schema.maxItems === 'number') {
      cases.push({
        id: `${name}-max-items`,
        title: `${name} with more than ${schema.maxItems} items`,
        body: withField(
          name,
          Array.from({ length: schema.maxItems + 1 }, (_, i) => `item-${i}`),
        ),
        contentType: json,
        keywordPointer: `${where}/maxItems`,
        expectedStatus: 400,
      });
    }
    if (isJsonObject(schema.items) && schema.items.type === 'string') {
      cases.push({
        id: `${name}-item-type`,
        title: `an item of ${name} of the wrong JSON type`,
        body: withField(name, [42]),
        contentType: json,
        keywordPointer: `${where}/items/type`,
        expectedStatus: 400,
      });
    }
  }
  cases.push(
    {
      id: 'body-not-object',
      title: 'a JSON array instead of an object',
      body: '[]',
      contentType: json,
      keywordPointer: `${at.pointer}/type`,
      expectedStatus: 400,
    },
    {
      id: 'malformed-json',
      title: 'malformed JSON',
      body: JSON.stringify(example).slice(0, -3),
      contentType: json,
      keywordPointer: `${at.pointer}/type`,
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
  );
  return cases;
}

function requestContentPointer(operationId: BodyOperationId): string {
  // The media type map of the request body: where the seed fixes application/json.
  return requestSchemaPointer(operationId).replace(/\/[^/]+\/schema$/, '');
}
