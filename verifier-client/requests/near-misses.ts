// Near-miss values, derived from a field's schema: values that break one rule by the least a server can get wrong (a
// case variant or a padded copy of an enum member, the smallest step past a bound, the right value of the wrong type).
// A server that checks a rule loosely (case-insensitive, rounded, coercing) passes the far values and fails these.
import { isJsonObject, type JsonObject, type JsonValue } from '../../spec/index.ts';
import { numericBounds, resolveSchema, type SchemaAt } from './spec-schemas.ts';

/** One way to break one field: its id suffix, title, the value sent (undefined: left out) and the keyword it breaks. */
export interface FieldBreak {
  suffix: string;
  title: string;
  value: JsonValue | undefined;
  /** The keyword's pointer relative to the field's schema; `required` is the parent's. */
  keyword: string;
}

/**
 * A value the schema accepts: `preferred` when it is of the schema's kind (the example's or a generated body's own
 * value), else one derived from the schema. Whether it passes every rule is checked where it is used.
 * @example validValue(resolveSchema('/components/schemas/TaskPriority')) // 'low'
 */
function validValue(at: SchemaAt, preferred?: JsonValue): JsonValue {
  const { schema } = at;
  if (Array.isArray(schema.enum))
    return preferred !== undefined && schema.enum.includes(preferred) ? preferred : (schema.enum[0] ?? null);
  switch (schema.type) {
    case 'number':
    case 'integer': {
      if (typeof preferred === 'number') return preferred;
      const { low, high } = numericBounds(schema);
      const middle =
        low !== undefined && high !== undefined
          ? (low + high) / 2
          : low !== undefined
            ? low + 1
            : high !== undefined
              ? high - 1
              : 1;
      return schema.type === 'integer' ? Math.round(middle) : middle;
    }
    case 'string':
      return typeof preferred === 'string'
        ? preferred
        : 'x'.repeat(Math.max(1, typeof schema.minLength === 'number' ? schema.minLength : 1));
    case 'array':
      return Array.isArray(preferred) ? preferred : [];
    case 'object':
      return isJsonObject(preferred) ? preferred : {};
    case 'boolean':
      return typeof preferred === 'boolean' ? preferred : true;
    default:
      return preferred ?? null;
  }
}

/** The smallest step past a bound: 1 for an integer, the schema's multipleOf, else 1e-9 of the bound's scale. */
function stepAt(schema: JsonObject, bound: number): number {
  if (schema.type === 'integer') return 1;
  if (typeof schema.multipleOf === 'number') return schema.multipleOf;
  return 1e-9 * Math.max(1, Math.abs(bound));
}

/** A member of an enum with another letter case (the first whose variant is not itself a member). */
function caseVariant(members: readonly JsonValue[]): { member: string; variant: string } | undefined {
  for (const member of members) {
    if (typeof member !== 'string') continue;
    for (const variant of [
      member.charAt(0).toUpperCase() + member.slice(1),
      member.toUpperCase(),
      member.toLowerCase(),
    ])
      if (variant !== member && !members.includes(variant)) return { member, variant };
  }
  return undefined;
}

/**
 * The near misses of one field, each breaking one keyword of its schema; `preferred` is a valid value to start from.
 * @example nearMisses('revenueShare', at, 0.5).map((m) => m.value) // [-1e-9, 1.000000001, '0.5', [0.5]]
 */
export function nearMisses(name: string, at: SchemaAt, preferred?: JsonValue): FieldBreak[] {
  const { schema, pointer } = at;
  const misses: FieldBreak[] = [];
  if (Array.isArray(schema.enum)) {
    const found = caseVariant(schema.enum);
    if (found)
      misses.push({
        suffix: 'enum-case',
        title: `${name} ${JSON.stringify(found.variant)}, a case variant of ${JSON.stringify(found.member)}`,
        value: found.variant,
        keyword: 'enum',
      });
    const first = schema.enum.find((member): member is string => typeof member === 'string');
    if (first !== undefined && !schema.enum.includes(`${first} `))
      misses.push({
        suffix: 'enum-space',
        title: `${name} ${JSON.stringify(`${first} `)}, ${JSON.stringify(first)} with a trailing space`,
        value: `${first} `,
        keyword: 'enum',
      });
  }
  if (typeof schema.minimum === 'number') {
    const value = schema.minimum - stepAt(schema, schema.minimum);
    if (value < schema.minimum)
      misses.push({
        suffix: 'minimum-step',
        title: `${name} ${value}, the smallest step below its minimum ${schema.minimum}`,
        value,
        keyword: 'minimum',
      });
  }
  if (typeof schema.maximum === 'number') {
    const value = schema.maximum + stepAt(schema, schema.maximum);
    if (value > schema.maximum)
      misses.push({
        suffix: 'maximum-step',
        title: `${name} ${value}, the smallest step above its maximum ${schema.maximum}`,
        value,
        keyword: 'maximum',
      });
  }
  const valid = validValue(at, preferred);
  if (typeof valid === 'number')
    misses.push({
      suffix: 'type-numeric-string',
      title: `${name} as the numeric string ${JSON.stringify(String(valid))} (a valid number, as a string)`,
      value: String(valid),
      keyword: 'type',
    });
  if (schema.type === 'array' && isJsonObject(schema.items)) {
    const item = validValue(resolveSchema(`${pointer}/items`), Array.isArray(valid) ? valid[0] : undefined);
    misses.push({
      suffix: 'type-bare-item',
      title: `${name} as one valid item ${JSON.stringify(item)} instead of an array of it`,
      value: item,
      keyword: 'type',
    });
  } else if (schema.type !== 'array') {
    misses.push({
      suffix: 'type-in-array',
      title: `${name} as a one-element array of a valid value ${JSON.stringify(valid).slice(0, 40)}`,
      value: [valid],
      keyword: 'type',
    });
  }
  return misses;
}
