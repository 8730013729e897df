// The rules that compare one schema of the base version with the same schema of the head version: one small function per
// keyword family, in the order the classifier applies them. Each reports through a SchemaFindings, so it runs alone in tests.
import { escapePointerToken, isJsonObject, type JsonObject, type JsonValue } from '../spec/index.ts';
import type { Direction, Impact, SpecChange } from './change-impact.ts';
import { narrowed, widened } from './change-impact.ts';

/** The two versions of one schema (references resolved), where each is, and which way data flows through it. */
interface SchemaPair {
  base: JsonObject;
  head: JsonObject;
  basePointer: string;
  headPointer: string;
  direction: Direction;
  /** The operation part it reaches, e.g. `POST /things request body`. */
  use: string;
}

/** What a rule reports: a change at one of the pair's keywords, a change anywhere, or a pair of subschemas to compare. */
export interface SchemaFindings {
  /** A change at `keyword` (pointed at in the head when it is there, else in the base). */
  add(kind: string, keyword: string, impact: Impact, message: string): void;
  /** A change at a pointer of the rule's choosing. */
  record(change: SpecChange): void;
  /** Compares two subschemas (e.g. a property's) with every rule. */
  compare(base: JsonValue | undefined, head: JsonValue | undefined, basePointer: string, headPointer: string): void;
}

export type SchemaRule = (pair: SchemaPair, findings: SchemaFindings) => void;

/** Keywords that only document: a change to them is compatible. */
const annotations = new Set([
  'description',
  'summary',
  'title',
  'examples',
  'example',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
  'externalDocs',
  'tags',
  'x-assumption',
  'x-assumed-keywords',
]);
const lowerBounds = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const upperBounds = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);
/** Keywords the rules below understand; any other that changes is reported as breaking for both, to be safe. */
const structural = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'default',
  'pattern',
  'format',
  'multipleOf',
  'uniqueItems',
  '$ref',
  ...lowerBounds,
  ...upperBounds,
]);

/** `request` or `response`, as messages say it. */
const partOf = (pair: SchemaPair): string => pair.direction;

export function show(value: JsonValue | undefined): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

export function same(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function typesOf(schema: JsonObject): Set<string> | undefined {
  if (typeof schema.type === 'string') return new Set([schema.type]);
  if (Array.isArray(schema.type)) return new Set(schema.type.filter((t): t is string => typeof t === 'string'));
  return undefined;
}

/** integer is a subset of number. */
function covers(types: Set<string> | undefined, type: string): boolean {
  return types === undefined || types.has(type) || (type === 'integer' && types.has('number'));
}

/** `type`: narrowed, widened or changed (both); `type: string` and `type: [string]` say the same. */
export const typeRule: SchemaRule = (pair, findings) => {
  const baseTypes = typesOf(pair.base);
  const headTypes = typesOf(pair.head);
  if (same(baseTypes && [...baseTypes].sort(), headTypes && [...headTypes].sort())) return;
  const lost = baseTypes === undefined ? headTypes !== undefined : [...baseTypes].some((t) => !covers(headTypes, t));
  const gained = headTypes === undefined ? baseTypes !== undefined : [...headTypes].some((t) => !covers(baseTypes, t));
  const kind = lost && gained ? 'type-changed' : lost ? 'type-narrowed' : 'type-widened';
  const impact = lost && gained ? 'breaking-for-both' : lost ? narrowed(pair.direction) : widened(pair.direction);
  findings.add(kind, 'type', impact, `${partOf(pair)} type ${show(pair.base.type)} became ${show(pair.head.type)}`);
};

/** `enum` and `const`: values limited, no longer limited, or values removed (narrowed) and added (widened). */
export const valuesRule: SchemaRule = (pair, findings) => {
  const part = partOf(pair);
  for (const keyword of ['enum', 'const'] as const) {
    const before = pair.base[keyword];
    const after = pair.head[keyword];
    if (same(before, after)) continue;
    const list = (value: JsonValue | undefined): JsonValue[] | undefined =>
      value === undefined ? undefined : keyword === 'const' ? [value] : Array.isArray(value) ? value : undefined;
    const beforeList = list(before);
    const afterList = list(after);
    const name = keyword === 'enum' ? 'enum-value' : 'const';
    if (beforeList === undefined) {
      findings.add(
        `${keyword}-added`,
        keyword,
        narrowed(pair.direction),
        `${part} values now limited to ${show(after)}`,
      );
      continue;
    }
    if (afterList === undefined) {
      findings.add(
        `${keyword}-removed`,
        keyword,
        widened(pair.direction),
        `${part} values no longer limited to ${show(before)}`,
      );
      continue;
    }
    const removed = beforeList.filter((v) => !afterList.some((w) => same(v, w)));
    const added = afterList.filter((v) => !beforeList.some((w) => same(v, w)));
    const values = (list: JsonValue[]): string => list.map((v) => show(v)).join(', ');
    if (removed.length > 0)
      findings.add(`${name}-removed`, keyword, narrowed(pair.direction), `${part} value(s) ${values(removed)} removed`);
    if (added.length > 0)
      findings.add(`${name}-added`, keyword, widened(pair.direction), `${part} value(s) ${values(added)} added`);
  }
};

/** minimum, maxLength and the like: a new or stricter bound is tightened, anything else loosened. */
export const boundsRule: SchemaRule = (pair, findings) => {
  for (const keyword of [...lowerBounds, ...upperBounds]) {
    const before = pair.base[keyword];
    const after = pair.head[keyword];
    if (same(before, after)) continue;
    const lower = lowerBounds.has(keyword);
    const tightened =
      after !== undefined &&
      (before === undefined ||
        (typeof before === 'number' && typeof after === 'number' && (lower ? after > before : after < before)));
    findings.add(
      tightened ? 'bound-tightened' : 'bound-loosened',
      keyword,
      tightened ? narrowed(pair.direction) : widened(pair.direction),
      `${partOf(pair)} ${keyword} ${show(before)} became ${show(after)}`,
    );
  }
};

/** pattern, format, multipleOf: added narrows, removed widens, changed breaks both. */
export const constraintRule: SchemaRule = (pair, findings) => {
  const part = partOf(pair);
  for (const keyword of ['pattern', 'format', 'multipleOf'] as const) {
    const before = pair.base[keyword];
    const after = pair.head[keyword];
    if (same(before, after)) continue;
    if (before === undefined)
      findings.add(`${keyword}-added`, keyword, narrowed(pair.direction), `${part} ${keyword} ${show(after)} added`);
    else if (after === undefined)
      findings.add(
        `${keyword}-removed`,
        keyword,
        widened(pair.direction),
        `${part} ${keyword} ${show(before)} removed`,
      );
    else
      findings.add(
        `${keyword}-changed`,
        keyword,
        'breaking-for-both',
        `${part} ${keyword} ${show(before)} became ${show(after)}`,
      );
  }
};

export const uniqueItemsRule: SchemaRule = (pair, findings) => {
  if (same(pair.base.uniqueItems, pair.head.uniqueItems)) return;
  const now = pair.head.uniqueItems === true;
  findings.add(
    now ? 'unique-items-added' : 'unique-items-removed',
    'uniqueItems',
    now ? narrowed(pair.direction) : widened(pair.direction),
    `${partOf(pair)} uniqueItems ${show(pair.base.uniqueItems)} became ${show(pair.head.uniqueItems)}`,
  );
};

const requiredOf = (schema: JsonObject): string[] =>
  Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];

/** A field made required narrows (clients must send it, servers must always send it); made optional widens. */
export const requiredRule: SchemaRule = (pair, findings) => {
  const part = partOf(pair);
  const request = pair.direction === 'request';
  const before = requiredOf(pair.base);
  const after = requiredOf(pair.head);
  for (const name of after.filter((n) => !before.includes(n)))
    findings.add(
      'field-made-required',
      'required',
      narrowed(pair.direction),
      `${part} field ${name} is now required${request ? ': clients that omit it are rejected' : ': servers must always send it'}`,
    );
  for (const name of before.filter((n) => !after.includes(n)))
    findings.add(
      'field-made-optional',
      'required',
      widened(pair.direction),
      `${part} field ${name} is no longer required${request ? ': servers must accept it missing' : ': clients may not get it'}`,
    );
};

/** Fields removed and added; fields in both are compared with every rule. */
export const propertiesRule: SchemaRule = (pair, findings) => {
  const part = partOf(pair);
  const before = isJsonObject(pair.base.properties) ? pair.base.properties : {};
  const after = isJsonObject(pair.head.properties) ? pair.head.properties : {};
  for (const name of Object.keys(before)) {
    const token = escapePointerToken(name);
    if (Object.hasOwn(after, name)) {
      findings.compare(
        before[name],
        after[name],
        `${pair.basePointer}/properties/${token}`,
        `${pair.headPointer}/properties/${token}`,
      );
      continue;
    }
    findings.record({
      kind: `${part}-field-removed`,
      // A field clients read disappears; a field clients send is no longer understood.
      impact: 'breaking-for-clients',
      pointer: `${pair.basePointer}/properties/${token}`,
      in: 'base',
      message: `${part} field ${name} removed`,
      usedBy: [pair.use],
    });
  }
  for (const name of Object.keys(after)) {
    if (Object.hasOwn(before, name)) continue;
    findings.record({
      kind: `${part}-field-added`,
      // A new request field is something servers must now honour; a new response field is ignored by clients.
      impact: pair.direction === 'request' ? 'breaking-for-servers' : 'compatible',
      pointer: `${pair.headPointer}/properties/${escapePointerToken(name)}`,
      in: 'head',
      message: `${part} field ${name} added`,
      usedBy: [pair.use],
    });
  }
};

/** Closed (false) narrows, opened widens, two schemas are compared, anything else breaks both. */
export const additionalPropertiesRule: SchemaRule = (pair, findings) => {
  const before = pair.base.additionalProperties;
  const after = pair.head.additionalProperties;
  if (same(before, after)) return;
  const part = partOf(pair);
  const keyword = 'additionalProperties';
  if (before !== false && after === false)
    findings.add(
      'additional-properties-closed',
      keyword,
      narrowed(pair.direction),
      `${part} objects may no longer carry undocumented fields`,
    );
  else if (before === false && after !== false)
    findings.add(
      'additional-properties-opened',
      keyword,
      widened(pair.direction),
      `${part} objects may now carry undocumented fields`,
    );
  else if (isJsonObject(before) && isJsonObject(after))
    findings.compare(before, after, `${pair.basePointer}/${keyword}`, `${pair.headPointer}/${keyword}`);
  else
    findings.add(
      'additional-properties-changed',
      keyword,
      'breaking-for-both',
      `${part} additionalProperties ${show(before)} became ${show(after)}`,
    );
};

/** Two item schemas are compared; any other change of `items` breaks both. */
export const itemsRule: SchemaRule = (pair, findings) => {
  const { items: before } = pair.base;
  const { items: after } = pair.head;
  if (isJsonObject(before) && isJsonObject(after))
    findings.compare(before, after, `${pair.basePointer}/items`, `${pair.headPointer}/items`);
  else if (!same(before, after))
    findings.add(
      'items-changed',
      'items',
      'breaking-for-both',
      `${partOf(pair)} array items ${show(before)} became ${show(after)}`,
    );
};

export const defaultRule: SchemaRule = (pair, findings) => {
  if (same(pair.base.default, pair.head.default)) return;
  findings.add(
    'default-changed',
    'default',
    // A client that omits the field gets another behaviour, and servers must apply the new default.
    pair.direction === 'request' ? 'breaking-for-both' : 'compatible',
    `${partOf(pair)} default ${show(pair.base.default)} became ${show(pair.head.default)}`,
  );
};

/** Every other keyword: documentation (compatible, one change per schema), or not analysed (breaking for both). */
export const otherKeywordsRule: SchemaRule = (pair, findings) => {
  const { base, head } = pair;
  const documentation: string[] = [];
  for (const keyword of new Set([...Object.keys(base), ...Object.keys(head)])) {
    if (structural.has(keyword) || same(base[keyword], head[keyword])) continue;
    if (annotations.has(keyword) || keyword.startsWith('x-')) documentation.push(keyword);
    else
      findings.add(
        'keyword-changed',
        keyword,
        'breaking-for-both',
        `${partOf(pair)} ${keyword} ${show(base[keyword])} became ${show(head[keyword])} (not analysed: treated as breaking)`,
      );
  }
  if (documentation.length > 0)
    findings.record({
      kind: 'documentation-changed',
      impact: 'compatible',
      pointer: pair.headPointer,
      in: 'head',
      message: `${documentation.join(', ')} changed`,
      usedBy: [pair.use],
    });
};

/** Every schema rule, in the order their changes are reported. */
export const schemaRules: readonly SchemaRule[] = [
  typeRule,
  valuesRule,
  boundsRule,
  constraintRule,
  uniqueItemsRule,
  requiredRule,
  propertiesRule,
  additionalPropertiesRule,
  itemsRule,
  defaultRule,
  otherKeywordsRule,
];
