// fast-check arbitraries built from the document's schemas (walked, never restated): valid request bodies, and invalid
// ones made by breaking one rule of a valid body, kept only when the spec's own validator rejects them.
import fc from 'fast-check';
import {
  isJsonObject,
  validateRequestBody,
  type BodyOperationId,
  type JsonObject,
  type JsonValue,
} from '../../spec/index.ts';
import { nearMisses } from './near-misses.ts';
import { numericBounds, propertiesOf, requestSchema, resolveSchema, type SchemaAt } from './spec-schemas.ts';

const jsonValue: fc.Arbitrary<JsonValue> = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>;

/**
 * An arbitrary of values the schema at `at` accepts (the subset of JSON Schema the document uses).
 * @example fc.sample(arbitraryFor(resolveSchema('/components/schemas/TaskPriority')), 1) // ['high']
 */
export function arbitraryFor(at: SchemaAt): fc.Arbitrary<JsonValue> {
  const { schema, pointer } = at;
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  // A union is one of its members (validBodies filters out a value that `oneOf` finds in two).
  for (const combinator of ['oneOf', 'anyOf'] as const) {
    const members = schema[combinator];
    if (Array.isArray(members) && members.length > 0)
      return fc.oneof(...members.map((_, index) => arbitraryFor(resolveSchema(`${pointer}/${combinator}/${index}`))));
  }
  switch (schema.type) {
    case 'string': {
      if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
      const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
      // Mostly printable ASCII, sometimes any grapheme: servers break on unicode more often than on letters.
      return fc
        .oneof(
          { weight: 3, arbitrary: fc.string({ minLength, ...(maxLength === undefined ? {} : { maxLength }) }) },
          {
            weight: 1,
            arbitrary: fc.string({ unit: 'grapheme', minLength, ...(maxLength === undefined ? {} : { maxLength }) }),
          },
        )
        .filter((text) => [...text].length >= minLength && (maxLength === undefined || text.length <= maxLength));
    }
    case 'number':
    case 'integer': {
      const { low: min, high: max } = numericBounds(schema);
      if (schema.type === 'integer')
        return fc.integer({
          ...(min === undefined ? {} : { min: Math.ceil(min) }),
          ...(max === undefined ? {} : { max: Math.floor(max) }),
        });
      return fc
        .double({
          noNaN: true,
          noDefaultInfinity: true,
          ...(min === undefined ? {} : { min, minExcluded: typeof schema.exclusiveMinimum === 'number' }),
          ...(max === undefined ? {} : { max, maxExcluded: typeof schema.exclusiveMaximum === 'number' }),
        })
        .map((value) => (Object.is(value, -0) ? 0 : value));
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = isJsonObject(schema.items) ? arbitraryFor(resolveSchema(`${pointer}/items`)) : jsonValue;
      return fc.array(items, {
        ...(typeof schema.minItems === 'number' ? { minLength: schema.minItems } : {}),
        ...(typeof schema.maxItems === 'number' ? { maxLength: schema.maxItems } : {}),
      });
    }
    case 'object': {
      const properties = isJsonObject(schema.properties) ? schema.properties : {};
      const names = Object.keys(properties);
      if (names.length === 0)
        return fc.dictionary(fc.string({ maxLength: 12 }), jsonValue, { maxKeys: 4 }) as fc.Arbitrary<JsonValue>;
      const model: Record<string, fc.Arbitrary<JsonValue>> = {};
      for (const name of names) model[name] = arbitraryFor(resolveSchema(`${pointer}/properties/${name}`));
      const required = Array.isArray(schema.required)
        ? schema.required.filter((name): name is string => typeof name === 'string')
        : [];
      return fc.record(model, { requiredKeys: required }) as fc.Arbitrary<JsonValue>;
    }
    default:
      return jsonValue;
  }
}

/**
 * Valid request bodies of an operation, per its schema.
 * @example fc.sample(validBodies(operationId), 1)[0] // { name: '…', category: 'defi', model: 'claude-3', initialSupply: 3.5 }
 */
export function validBodies(operationId: BodyOperationId): fc.Arbitrary<JsonObject> {
  return (arbitraryFor(requestSchema(operationId)) as fc.Arbitrary<JsonObject>).filter(
    (body) => validateRequestBody(operationId, body).ok,
  );
}

/** Values of any JSON type, used to break a field's type or enum. */
const anyJson: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.constant({}),
);

/**
 * The properties of a body schema and of each of its `oneOf`, `anyOf` and `allOf` branches, the first of a name kept:
 * a union's branches name their fields there, not at the top.
 * @example bodyPropertiesOf(requestSchema('labelFixtureAgent')).map((property) => property.name) // ['kind', 'tag', 'note']
 */
function bodyPropertiesOf(at: SchemaAt): ReturnType<typeof propertiesOf> {
  const found = new Map(propertiesOf(at).map((property) => [property.name, property]));
  for (const combinator of ['oneOf', 'anyOf', 'allOf'] as const) {
    const branches = at.schema[combinator];
    if (!Array.isArray(branches)) continue;
    branches.forEach((_, index) => {
      for (const property of bodyPropertiesOf(resolveSchema(`${at.pointer}/${combinator}/${index}`))) {
        if (!found.has(property.name)) found.set(property.name, property);
      }
    });
  }
  return [...found.values()];
}

/**
 * Invalid request bodies: a valid body with one field removed or replaced by any JSON value, or a body that is not an
 * object; only those the spec's validator rejects are kept, so the oracle is the document itself.
 * @example fc.sample(invalidBodies(operationId), 1)[0] // { name: 'x', category: 7, model: 'gpt-4', initialSupply: 1 }
 */
export function invalidBodies(operationId: BodyOperationId): fc.Arbitrary<JsonValue> {
  const at = requestSchema(operationId);
  const properties = bodyPropertiesOf(at);
  const names = properties.map((property) => property.name);
  const notAnObject = fc.oneof(
    fc.constant(null),
    fc.array(jsonValue, { maxLength: 2 }),
    fc.string({ maxLength: 8 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
  );
  // A schema naming no field anywhere is broken by its type alone.
  if (names.length === 0) return notAnObject.filter((body) => !validateRequestBody(operationId, body).ok);
  const replaced = fc
    .tuple(validBodies(operationId), fc.constantFrom(...names), fc.option(anyJson, { nil: undefined }))
    .map(([body, name, value]) => {
      const copy: JsonObject = { ...body };
      if (value === undefined) delete copy[name];
      else copy[name] = value;
      return copy as JsonValue;
    });
  // A field replaced by one of its near misses, derived from the body's own valid value (its numeric string, the
  // smallest step past its bound, a case variant of its enum): a server that checks loosely passes only the far values.
  const nearMiss = fc
    .tuple(validBodies(operationId), fc.constantFrom(...properties), fc.nat())
    .map(([body, property, pick]) => {
      const misses = nearMisses(property.name, property.at, body[property.name]);
      const copy: JsonObject = { ...body };
      const miss = misses[pick % Math.max(1, misses.length)];
      if (miss?.value === undefined) delete copy[property.name];
      else copy[property.name] = miss.value;
      return copy as JsonValue;
    });
  return fc
    .oneof(
      { weight: 6, arbitrary: replaced },
      { weight: 3, arbitrary: nearMiss },
      { weight: 1, arbitrary: notAnObject },
    )
    .filter((body) => !validateRequestBody(operationId, body).ok);
}
