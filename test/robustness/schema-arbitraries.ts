// Request bodies for the fuzz test: valid and rule-breaking ones from the contract suite's schema-driven arbitraries (read
// from the spec, never restated), plus the byte-level damage a schema cannot describe (cut text, bad UTF-8, deep nesting).
import fc from 'fast-check';
import { invalidBodies, validBodies } from '../../verifier-client/requests/schema-arbitraries.ts';
import { requestSchema } from '../../verifier-client/requests/spec-schemas.ts';
import { isJsonObject, type BodyOperationId, type JsonObject, type JsonValue } from '../../spec/index.ts';

/** What was done to a valid body, so a failing case explains itself. */
export type Corruption =
  | 'none'
  | 'schema-break'
  | 'out-of-range'
  | 'unknown-field'
  | 'random-json'
  | 'truncated-text'
  | 'invalid-utf8'
  | 'deep-nesting';

const anyJson = (maxDepth: number): fc.Arbitrary<JsonValue> =>
  fc.jsonValue({ maxDepth }) as unknown as fc.Arbitrary<JsonValue>;
const text = (value: JsonValue): Buffer => Buffer.from(JSON.stringify(value));

/**
 * A request body for `operationId`: a valid one from the schema, often damaged in one way.
 * @example fc.sample(bodyFor('deployAgent'), 1)[0] // { corruption: 'truncated-text', bytes: <Buffer 7b 22 6e ...> }
 */
export function bodyFor(operationId: BodyOperationId): fc.Arbitrary<{ corruption: Corruption; bytes: Buffer }> {
  const { schema } = requestSchema(operationId);
  const properties = isJsonObject(schema.properties) ? Object.keys(schema.properties) : [];
  const valid = validBodies(operationId);
  return fc.oneof(
    { weight: 3, arbitrary: valid.map((value) => ({ corruption: 'none' as const, bytes: text(value) })) },
    {
      weight: 3,
      arbitrary: invalidBodies(operationId).map((value) => ({
        corruption: 'schema-break' as const,
        bytes: text(value),
      })),
    },
    valid.chain((value) =>
      fc
        .tuple(fc.constantFrom(...properties), fc.constantFrom(-1, -1e-9, 0, 1.0000001, 2, 1e16, -1e308, 1e308))
        .map(([key, wrong]) => ({
          corruption: 'out-of-range' as const,
          bytes: text({ ...value, [key]: wrong } as JsonObject),
        })),
    ),
    valid.chain((value) =>
      fc.tuple(fc.string({ maxLength: 12 }), anyJson(2)).map(([key, extra]) => ({
        corruption: 'unknown-field' as const,
        bytes: text({ ...value, [key]: extra } as JsonObject),
      })),
    ),
    anyJson(3).map((value) => ({ corruption: 'random-json' as const, bytes: text(value) })),
    valid.chain((value) => {
      const full = JSON.stringify(value);
      return fc
        .integer({ min: 0, max: Math.max(0, full.length - 1) })
        .map((cut) => ({ corruption: 'truncated-text' as const, bytes: Buffer.from(full.slice(0, cut)) }));
    }),
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((noise) => ({
      corruption: 'invalid-utf8' as const,
      bytes: Buffer.concat([
        Buffer.from('{"name":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(noise),
        Buffer.from('"}'),
      ]),
    })),
    fc.integer({ min: 60, max: 5000 }).map((depth) => ({
      corruption: 'deep-nesting' as const,
      bytes: Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`),
    })),
  );
}
