// fast-check arbitraries read from the spec's own request schemas (valid bodies), and the corruptions the fuzz test
// applies to them; nothing here restates a field, a bound or an enum by hand.
import fc from 'fast-check';
import { getAtPointer, getOperation, isJsonObject, openapiDocument, type JsonObject, type JsonValue } from '../../spec/index.ts';

/** Longest string or array generated for an unbounded (or very loosely bounded) schema, to keep cases small and quick. */
const GENERATED_LENGTH_CAP = 40;

function resolve(node: JsonValue | undefined): JsonObject {
  if (isJsonObject(node) && typeof node.$ref === 'string') return resolve(getAtPointer(openapiDocument, node.$ref.replace(/^#/, '')));
  if (!isJsonObject(node)) throw new Error('schema node is not an object');
  return node;
}

/** fast-check's JSON values, typed as the spec's (the same JSON, spelled by two libraries). */
const anyJson = (maxDepth: number): fc.Arbitrary<JsonValue> => fc.jsonValue({ maxDepth }) as unknown as fc.Arbitrary<JsonValue>;

const num = (value: JsonValue | undefined): number | undefined => (typeof value === 'number' ? value : undefined);

/**
 * An arbitrary of values the schema at `node` accepts, for the keywords this document uses
 * (type, enum, pattern, min/maxLength, minimum/maximum/exclusiveMinimum, items/maxItems, properties/required).
 * @example fc.sample(arbitraryFor(requestSchema('deployAgent')), 1)[0].category // 'defi'
 */
export function arbitraryFor(schema: JsonValue | undefined): fc.Arbitrary<JsonValue> {
  const node = resolve(schema);
  if (Array.isArray(node.enum)) return fc.constantFrom(...node.enum);
  switch (node.type) {
    case 'string': {
      if (typeof node.pattern === 'string') return fc.stringMatching(new RegExp(node.pattern));
      const minLength = num(node.minLength) ?? 0;
      const maxLength = Math.max(minLength, Math.min(num(node.maxLength) ?? GENERATED_LENGTH_CAP, GENERATED_LENGTH_CAP));
      return fc.string({ minLength, maxLength, unit: 'grapheme' }).filter((text) => [...text].length >= minLength);
    }
    case 'integer':
      return fc.integer({ min: num(node.minimum) ?? -1_000_000, max: num(node.maximum) ?? 1_000_000 });
    case 'number': {
      const exclusive = num(node.exclusiveMinimum);
      const min = exclusive ?? num(node.minimum) ?? -1e12;
      return fc.double({ min, max: num(node.maximum) ?? 1e12, minExcluded: exclusive !== undefined, noNaN: true, noDefaultInfinity: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(arbitraryFor(node.items), { maxLength: Math.min(num(node.maxItems) ?? 5, 5) });
    case 'object': {
      const properties = isJsonObject(node.properties) ? node.properties : {};
      const required = Array.isArray(node.required) ? node.required.filter((key): key is string => typeof key === 'string') : [];
      if (Object.keys(properties).length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), anyJson(2), { maxKeys: 4 }) as fc.Arbitrary<JsonValue>;
      const shape: Record<string, fc.Arbitrary<JsonValue>> = {};
      for (const [key, value] of Object.entries(properties)) shape[key] = arbitraryFor(value);
      return fc.record(shape, { requiredKeys: required }) as fc.Arbitrary<JsonValue>;
    }
    default:
      return anyJson(2);
  }
}

/** The request-body schema of a body operation, as the document declares it. */
export function requestSchema(operationId: 'deployAgent' | 'executeAgentTask'): JsonObject {
  const operation = getOperation(operationId);
  return resolve(getAtPointer(openapiDocument, `${operation.pointer}/requestBody/content/application~1json/schema`));
}

/** What one corruption did to a valid body, so a failing case explains itself. */
export type Corruption =
  | 'none'
  | 'drop-required'
  | 'wrong-type'
  | 'out-of-range'
  | 'unknown-field'
  | 'random-json'
  | 'truncated-text'
  | 'invalid-utf8'
  | 'deep-nesting'
  | 'not-an-object';

const wrongValues: JsonValue[] = [null, true, 0, -1, 1e308, '', 'x', [], {}, [1, 2], { nested: { deeper: [null] } }];

/**
 * A request body for `operationId`: a valid one from the schema, then (usually) corrupted in one way.
 * @example fc.sample(bodyFor('deployAgent'), 1)[0] // { corruption: 'wrong-type', bytes: Buffer<...> }
 */
export function bodyFor(operationId: 'deployAgent' | 'executeAgentTask'): fc.Arbitrary<{ corruption: Corruption; bytes: Buffer }> {
  const schema = requestSchema(operationId);
  const properties = isJsonObject(schema.properties) ? Object.keys(schema.properties) : [];
  const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : [];
  const valid = arbitraryFor(schema) as fc.Arbitrary<JsonObject>;
  const text = (value: JsonValue): Buffer => Buffer.from(JSON.stringify(value));
  return fc.oneof(
    { weight: 3, arbitrary: valid.map((value) => ({ corruption: 'none' as const, bytes: text(value) })) },
    valid.chain((value) =>
      fc.constantFrom(...required).map((key) => {
        const copy = { ...value };
        delete copy[key];
        return { corruption: 'drop-required' as const, bytes: text(copy) };
      }),
    ),
    valid.chain((value) =>
      fc.tuple(fc.constantFrom(...properties), fc.constantFrom(...wrongValues)).map(([key, wrong]) => ({ corruption: 'wrong-type' as const, bytes: text({ ...value, [key]: wrong } as JsonObject) })),
    ),
    valid.chain((value) =>
      fc.tuple(fc.constantFrom(...properties), fc.constantFrom(-1, -1e-9, 0, 1.0000001, 2, 1e16, -1e308)).map(([key, wrong]) => ({ corruption: 'out-of-range' as const, bytes: text({ ...value, [key]: wrong } as JsonObject) })),
    ),
    valid.chain((value) =>
      fc.tuple(fc.string({ maxLength: 12 }), anyJson(2)).map(([key, extra]) => ({ corruption: 'unknown-field' as const, bytes: text({ ...value, [key]: extra } as JsonObject) })),
    ),
    anyJson(3).map((value) => ({ corruption: 'random-json' as const, bytes: text(value) })),
    fc.constantFrom<JsonValue>(null, 42, 'text', [], [{}], true).map((value) => ({ corruption: 'not-an-object' as const, bytes: text(value) })),
    valid.chain((value) => {
      const full = JSON.stringify(value);
      return fc.integer({ min: 0, max: Math.max(0, full.length - 1) }).map((cut) => ({ corruption: 'truncated-text' as const, bytes: Buffer.from(full.slice(0, cut)) }));
    }),
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((noise) => ({ corruption: 'invalid-utf8' as const, bytes: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from(noise), Buffer.from('"}')]) })),
    fc.integer({ min: 60, max: 5000 }).map((depth) => ({ corruption: 'deep-nesting' as const, bytes: Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`) })),
  );
}
