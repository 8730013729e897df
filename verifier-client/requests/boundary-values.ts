// Valid requests at the edges the schemas document, derived from them: each bound reached exactly (revenueShare 0 and 1,
// the shortest and longest strings, empty and full arrays), every enum value, deeply nested free-form objects.
import {
  isJsonObject,
  ruleOrigin,
  type BodyOperationId,
  type JsonObject,
  type JsonValue,
  type RuleOrigin,
} from '../../spec/index.ts';
import { propertiesOf, requestExamples, requestSchema, type SchemaAt } from './spec-schemas.ts';

/** One valid body with one field at one of its documented edges. */
export interface BoundaryBody {
  /** e.g. `revenueShare maximum (1)`. */
  label: string;
  body: JsonObject;
  /** Whether the seed or an assumption of the spec makes the edge valid. */
  validBy: RuleOrigin;
}

interface Edge {
  label: string;
  value: JsonValue;
  keywordPointer: string | undefined;
}

/** The smallest step past an exclusive bound that still reads back as a different number. */
function inside(bound: number, direction: 1 | -1): number {
  return bound + direction * Math.max(1e-9, Math.abs(bound) * 1e-9);
}

function stringOf(length: number): string {
  return 'x'.repeat(length);
}

/**
 * Free-form JSON nested `depth` levels deep, with every JSON type and keys a naive server might mishandle.
 * @example nestedValue(2) // { list: [{ leaf: true, none: null, … }, 1, null] }
 */
function nestedValue(depth: number): JsonObject {
  let value: JsonObject = { leaf: true, none: null, number: -1.5e-7, text: 'ünïcødé ✓', empty: {}, list: [] };
  for (let level = depth - 1; level > 0; level -= 1)
    value = level % 2 === 0 ? { [`level ${level}`]: value, 'key.with.dots': level } : { list: [value, level, null] };
  return value;
}

function edgesOf(name: string, at: SchemaAt): Edge[] {
  const { schema, pointer } = at;
  const edges: Edge[] = [];
  const kw = (keyword: string): string => `${pointer}/${keyword}`;
  if (schema.type === 'number' || schema.type === 'integer') {
    if (typeof schema.minimum === 'number')
      edges.push({
        label: `${name} minimum (${schema.minimum})`,
        value: schema.minimum,
        keywordPointer: kw('minimum'),
      });
    if (typeof schema.exclusiveMinimum === 'number')
      edges.push({
        label: `${name} just above its exclusive minimum ${schema.exclusiveMinimum}`,
        value: inside(schema.exclusiveMinimum, 1),
        keywordPointer: kw('exclusiveMinimum'),
      });
    if (typeof schema.maximum === 'number')
      edges.push({
        label: `${name} maximum (${schema.maximum})`,
        value: schema.maximum,
        keywordPointer: kw('maximum'),
      });
    if (typeof schema.exclusiveMaximum === 'number')
      edges.push({
        label: `${name} just below its exclusive maximum ${schema.exclusiveMaximum}`,
        value: inside(schema.exclusiveMaximum, -1),
        keywordPointer: kw('exclusiveMaximum'),
      });
  }
  if (schema.type === 'string' && schema.enum === undefined && schema.pattern === undefined) {
    const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
    edges.push({
      label: `${name} of ${min} characters (shortest)`,
      value: stringOf(min),
      keywordPointer: typeof schema.minLength === 'number' ? kw('minLength') : undefined,
    });
    if (typeof schema.maxLength === 'number')
      edges.push({
        label: `${name} of ${schema.maxLength} characters (longest)`,
        value: stringOf(schema.maxLength),
        keywordPointer: kw('maxLength'),
      });
  }
  if (schema.type === 'array') {
    const items = isJsonObject(schema.items) ? schema.items : {};
    const itemMin = typeof items.minLength === 'number' ? items.minLength : 1;
    const itemMax = typeof items.maxLength === 'number' ? items.maxLength : Number.POSITIVE_INFINITY;
    const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
    // Distinct items within the items' own length bounds.
    const item = (i: number): string => `cap-${i}`.padEnd(itemMin, 'x').slice(0, itemMax);
    edges.push({
      label: `${name} with ${min} items (fewest)`,
      value: Array.from({ length: min }, (_, i) => item(i)),
      keywordPointer: typeof schema.minItems === 'number' ? kw('minItems') : undefined,
    });
    if (typeof schema.maxItems === 'number')
      edges.push({
        label: `${name} with ${schema.maxItems} items (most)`,
        value: Array.from({ length: schema.maxItems }, (_, i) => item(i)),
        keywordPointer: kw('maxItems'),
      });
    if (items.type === 'string') {
      edges.push({
        label: `an item of ${name} of ${itemMin} characters`,
        value: [stringOf(itemMin)],
        keywordPointer: typeof items.minLength === 'number' ? `${pointer}/items/minLength` : undefined,
      });
      if (typeof items.maxLength === 'number')
        edges.push({
          label: `an item of ${name} of ${items.maxLength} characters`,
          value: [stringOf(items.maxLength)],
          keywordPointer: `${pointer}/items/maxLength`,
        });
    }
  }
  if (schema.type === 'object' && !isJsonObject(schema.properties))
    edges.push({ label: `${name} nested 16 levels deep`, value: nestedValue(16), keywordPointer: undefined });
  return edges;
}

/**
 * Valid bodies of an operation, each with one field at a documented edge, starting from its richest example (every
 * field present); enum fields cycle through all their values across the bodies, and a `name` field is set to the
 * label (unless it is the field at its edge), so no two deploys look alike.
 * @example boundaryBodies(deploy).find((b) => b.label.startsWith('revenueShare maximum'))?.body.revenueShare // 1
 */
export function boundaryBodies(operationId: BodyOperationId): BoundaryBody[] {
  const at = requestSchema(operationId);
  const base = requestExamples(operationId)[0] ?? {};
  const properties = propertiesOf(at);
  const enums = properties.filter((p) => Array.isArray(p.at.schema.enum));
  const named = properties.some((p) => p.name === 'name' && p.at.schema.type === 'string');
  const bodies: BoundaryBody[] = [];
  for (const property of properties) {
    for (const edge of edgesOf(property.name, property.at)) {
      const body: JsonObject = { ...structuredClone(base), [property.name]: edge.value };
      if (named && property.name !== 'name') body.name = `contract edge: ${edge.label}`.slice(0, 100);
      bodies.push({
        label: edge.label,
        body,
        validBy: edge.keywordPointer === undefined ? 'seed' : ruleOrigin(edge.keywordPointer),
      });
    }
  }
  bodies.forEach(({ body }, index) => {
    for (const property of enums) {
      const values = property.at.schema.enum as JsonValue[];
      body[property.name] = values[index % values.length] ?? null;
    }
  });
  return bodies;
}
