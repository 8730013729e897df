// Classifies every difference between two versions of the OpenAPI document as breaking for clients, breaking for
// servers, or compatible, with the JSON Pointer of each. Requests and responses are told apart: what narrows a request
// breaks the clients that write it, what widens a response breaks the clients that read it, and the other way round.
// The comparisons are tables of small rules: operation-rules.ts (one per part of an operation) and schema-rules.ts (one
// per keyword family); this module walks the documents and hands each pair to the rules.
import { escapePointerToken, isJsonObject, type JsonObject, type JsonValue } from '../spec/index.ts';
import { ChangeList, type Direction, type SpecChange } from './change-impact.ts';
import { type OperationAt, operationsIn, resolve } from './operations-in.ts';
import { type OperationFindings, operationRules, type Place } from './operation-rules.ts';
import { type SchemaFindings, same, schemaRules } from './schema-rules.ts';

export type { Impact, SpecChange } from './change-impact.ts';

interface Context {
  base: JsonObject;
  head: JsonObject;
  changes: ChangeList;
}

/** Applies every schema rule to one pair of schemas (references resolved); a cycle is compared once per use. */
function compareSchemas(
  context: Context,
  baseValue: JsonValue | undefined,
  headValue: JsonValue | undefined,
  where: Place,
  direction: Direction,
  visiting: Set<string>,
): void {
  const base = resolve(context.base, baseValue, where.base);
  const head = resolve(context.head, headValue, where.head);
  if (!base || !head) return;
  const guard = `${base.pointer}|${head.pointer}|${direction}|${where.use}`;
  if (visiting.has(guard)) return;
  visiting.add(guard);
  const findings: SchemaFindings = {
    add(kind, keyword, impact, message) {
      const token = escapePointerToken(keyword);
      const at =
        head.node[keyword] !== undefined
          ? { pointer: `${head.pointer}/${token}`, in: 'head' as const }
          : { pointer: `${base.pointer}/${token}`, in: 'base' as const };
      context.changes.record({ kind, impact, ...at, message, usedBy: [where.use] });
    },
    record: (change) => context.changes.record(change),
    compare: (baseSchema, headSchema, basePointer, headPointer) =>
      compareSchemas(
        context,
        baseSchema,
        headSchema,
        { base: basePointer, head: headPointer, use: where.use },
        direction,
        visiting,
      ),
  };
  const pair = {
    base: base.node,
    head: head.node,
    basePointer: base.pointer,
    headPointer: head.pointer,
    direction,
    use: where.use,
  };
  for (const rule of schemaRules) rule(pair, findings);
  visiting.delete(guard);
}

/** Media types removed and added; the schemas of those in both are compared, and changed examples noted. */
function compareContent(
  context: Context,
  baseContent: JsonValue | undefined,
  headContent: JsonValue | undefined,
  where: Place,
  direction: Direction,
): void {
  const b = isJsonObject(baseContent) ? baseContent : {};
  const h = isJsonObject(headContent) ? headContent : {};
  const record = context.changes.record.bind(context.changes);
  for (const mediaType of Object.keys(b)) {
    const token = escapePointerToken(mediaType);
    if (!Object.hasOwn(h, mediaType)) {
      record({
        kind: `${direction}-media-type-removed`,
        impact: direction === 'request' ? 'breaking-for-clients' : 'breaking-for-both',
        pointer: `${where.base}/${token}`,
        in: 'base',
        message: `${direction} media type ${mediaType} removed`,
        usedBy: [where.use],
      });
      continue;
    }
    const before = resolve(context.base, b[mediaType], `${where.base}/${token}`);
    const after = resolve(context.head, h[mediaType], `${where.head}/${token}`);
    if (!before || !after) continue;
    const schemas = { base: `${before.pointer}/schema`, head: `${after.pointer}/schema`, use: where.use };
    compareSchemas(context, before.node.schema, after.node.schema, schemas, direction, new Set());
    if (!same(before.node.examples, after.node.examples) || !same(before.node.example, after.node.example))
      record({
        kind: 'examples-changed',
        impact: 'compatible',
        pointer: after.pointer,
        in: 'head',
        message: `${direction} examples of ${mediaType} changed (the base version's are replayed against the new one)`,
        usedBy: [where.use],
      });
  }
  for (const mediaType of Object.keys(h)) {
    if (Object.hasOwn(b, mediaType)) continue;
    record({
      kind: `${direction}-media-type-added`,
      impact: direction === 'request' ? 'breaking-for-servers' : 'breaking-for-clients',
      pointer: `${where.head}/${escapePointerToken(mediaType)}`,
      in: 'head',
      message: `${direction} media type ${mediaType} added`,
      usedBy: [where.use],
    });
  }
}

function compareOperation(context: Context, key: string, base: OperationAt, head: OperationAt): void {
  const findings: OperationFindings = {
    record: (change) => context.changes.record(change),
    compareSchemas: (b, h, where, direction) => compareSchemas(context, b, h, where, direction, new Set()),
    compareContent: (b, h, where, direction) => compareContent(context, b, h, where, direction),
  };
  const pair = { key, base, head, baseDocument: context.base, headDocument: context.head };
  for (const rule of operationRules) rule(pair, findings);
}

/**
 * Every change from `base` to `head`, classified, sorted breaking first then by pointer.
 * @example classifyChanges(baseDocument, headDocument).filter((c) => c.impact !== 'compatible')
 */
export function classifyChanges(base: JsonObject, head: JsonObject): SpecChange[] {
  const context: Context = { base, head, changes: new ChangeList() };
  const baseOperations = operationsIn(base);
  const headOperations = operationsIn(head);
  for (const [key, operation] of baseOperations) {
    const after = headOperations.get(key);
    if (after) compareOperation(context, key, operation, after);
    else
      context.changes.record({
        kind: 'operation-removed',
        impact: 'breaking-for-clients',
        pointer: operation.pointer,
        in: 'base',
        message: `${operation.method} ${operation.path} removed`,
        usedBy: [key],
      });
  }
  for (const [key, operation] of headOperations) {
    if (baseOperations.has(key)) continue;
    context.changes.record({
      kind: 'operation-added',
      // Servers written against the base version do not implement it.
      impact: 'breaking-for-servers',
      pointer: operation.pointer,
      in: 'head',
      message: `${operation.method} ${operation.path} added`,
      usedBy: [key],
    });
  }
  return context.changes.sorted();
}
