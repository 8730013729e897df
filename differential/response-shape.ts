// What two answers to the same request must share (the set and JSON types of their fields) and which of their values
// must agree, read from the response schemas: a value is compared only where the spec pins it.
import {
  getOperation,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  type OperationId,
  takesJsonBody,
} from '../spec/index.ts';
import { requestSchema, resolveSchema, type SchemaAt } from '../verifier-client/requests/spec-schemas.ts';

/** A JSON type as `typeof` would name it, with arrays and null told apart. */
type JsonType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

/**
 * Every place in a body with the JSON types found there. Array items are folded into one `/*` entry, so two arrays of
 * different lengths have the same shape; an empty array contributes no `/*` entry.
 */
export type Shape = Map<string, Set<JsonType>>;

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' ? type : 'object';
}

/**
 * The shape of a parsed JSON body.
 * @example [...shapeOf({ a: [1, 'x'] }).keys()] // ['', '/a', '/a/*']
 */
export function shapeOf(value: unknown, pointer = '', shape: Shape = new Map()): Shape {
  const types = shape.get(pointer) ?? new Set<JsonType>();
  types.add(typeOf(value));
  shape.set(pointer, types);
  if (Array.isArray(value)) for (const item of value) shapeOf(item, `${pointer}/*`, shape);
  else if (isJsonObject(value))
    for (const [key, child] of Object.entries(value))
      shapeOf(child, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, shape);
  return shape;
}

/** One place where two shapes differ. */
export interface ShapeDifference {
  pointer: string;
  /** The types on each side; empty when the field is absent there. */
  left: JsonType[];
  right: JsonType[];
}

function parentArrayIsEmpty(shape: Shape, pointer: string): boolean {
  // `/capabilities/*` is absent when the array is empty: that is a value (length) difference, not a shape one.
  const star = pointer.lastIndexOf('/*');
  if (star < 0) return false;
  const arrayPointer = pointer.slice(0, star);
  return shape.get(arrayPointer)?.has('array') === true && !shape.has(`${arrayPointer}/*`);
}

/**
 * Where two shapes differ: a field on one side only, or a field of another JSON type. Fields below a field that is
 * already reported are left out.
 * @example compareShapes(shapeOf({ a: 1 }), shapeOf({ a: '1' })) // [{ pointer: '/a', left: ['number'], right: ['string'] }]
 */
export function compareShapes(left: Shape, right: Shape): ShapeDifference[] {
  const differences: ShapeDifference[] = [];
  const pointers = [...new Set([...left.keys(), ...right.keys()])].sort();
  for (const pointer of pointers) {
    if (differences.some((d) => pointer.startsWith(`${d.pointer}/`))) continue;
    const l = [...(left.get(pointer) ?? [])].sort();
    const r = [...(right.get(pointer) ?? [])].sort();
    if (l.join() === r.join()) continue;
    if ((l.length === 0 && parentArrayIsEmpty(left, pointer)) || (r.length === 0 && parentArrayIsEmpty(right, pointer)))
      continue;
    differences.push({ pointer, left: l, right: r });
  }
  return differences;
}

/** Why a field's value is compared across the two servers, or why it is not. */
export interface ValueRule {
  /** Pointer into the body (array items as `/*`). */
  pointer: string;
  compared: boolean;
  /** e.g. `enum of /components/schemas/AgentStatus`, `echoes the request's name`, `format date-time`. */
  reason: string;
  /** The schema node the reason comes from. */
  specPointer: string;
  /** For an echo, the request field it repeats. */
  echoes?: string;
}

function responseSchemaAt(operationId: OperationId, status: number): SchemaAt | undefined {
  const documented = getOperation(operationId).responses.get(status);
  const mediaType = documented?.mediaTypes[0];
  if (!documented || !mediaType) return undefined;
  try {
    return resolveSchema(`${documented.pointer}/content/${mediaType.replace('/', '~1')}/schema`);
  } catch {
    return undefined;
  }
}

function requestPropertyNames(operationId: OperationId): Set<string> {
  if (!takesJsonBody(operationId)) return new Set();
  const { schema } = requestSchema(operationId);
  return new Set(Object.keys(isJsonObject(schema.properties) ? schema.properties : {}));
}

function generatedReason(schema: JsonObject, pointer: string): string {
  // A number's format (int64) is its width, not a time: only a string's format is.
  if (typeof schema.format === 'string' && schema.type === 'string')
    return `format ${schema.format}: a time each server takes itself`;
  if (typeof schema.pattern === 'string') return 'a generated value (pattern)';
  if (/\/components\/schemas\/[A-Za-z]*Id$/.test(pointer)) return 'an identifier the server assigns';
  if (schema.type === 'number' || schema.type === 'integer') return 'a figure the server computes';
  return 'a value the server chooses';
}

function walk(at: SchemaAt, pointer: string, echoes: Set<string>, rules: ValueRule[], depth: number): void {
  const { schema } = at;
  if (depth > 8) return;
  if (Array.isArray(schema.enum) || schema.const !== undefined) {
    rules.push({
      pointer,
      compared: true,
      reason: `pinned by the spec (${Array.isArray(schema.enum) ? 'enum' : 'const'})`,
      specPointer: `${at.pointer}/${Array.isArray(schema.enum) ? 'enum' : 'const'}`,
    });
    return;
  }
  if (schema.type === 'object' && isJsonObject(schema.properties)) {
    for (const name of Object.keys(schema.properties)) {
      const child = resolveSchema(`${at.pointer}/properties/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`);
      const childPointer = `${pointer}/${name}`;
      // A top-level field named like a request field echoes what the client sent; both servers must echo it alike.
      if (depth === 0 && echoes.has(name) && child.schema.enum === undefined) {
        rules.push({
          pointer: childPointer,
          compared: true,
          reason: `echoes the request's ${name}`,
          specPointer: child.pointer,
          echoes: name,
        });
        continue;
      }
      walk(child, childPointer, echoes, rules, depth + 1);
    }
    return;
  }
  if (schema.type === 'array' && isJsonObject(schema.items)) {
    walk(resolveSchema(`${at.pointer}/items`), `${pointer}/*`, echoes, rules, depth + 1);
    return;
  }
  rules.push({ pointer, compared: false, reason: generatedReason(schema, at.pointer), specPointer: at.pointer });
}

const rulesCache = new Map<string, ValueRule[]>();

/**
 * For one documented response, which values both servers must agree on: those the spec pins (an `enum` or `const`) and
 * top-level fields that echo a request field of the same name. Every other value (ids, timestamps with a `format`,
 * addresses with a `pattern`, computed figures) is each server's own and only its JSON type is compared.
 * @example valueRules(creator, 201).find((r) => r.pointer === '/deployedAt')?.compared // false for the deploy
 */
export function valueRules(operationId: OperationId, status: number): ValueRule[] {
  const key = `${operationId} ${status}`;
  const cached = rulesCache.get(key);
  if (cached) return cached;
  const at = responseSchemaAt(operationId, status);
  const rules: ValueRule[] = [];
  if (at) walk(at, '', requestPropertyNames(operationId), rules, 0);
  rulesCache.set(key, rules);
  return rules;
}

/**
 * The value at a body pointer (no `/*` segments), or undefined.
 * @example valueAt({ a: { b: 1 } }, '/a/b') // 1
 */
export function valueAt(body: unknown, pointer: string): JsonValue | undefined {
  let node: unknown = body;
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isJsonObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node as JsonValue | undefined;
}

/**
 * The schema of the field at a body pointer of a documented response, with the pointer of its parent object schema.
 * @example fieldSchema(reader, 200, '/tokenomics/price')?.at.pointer // '/components/schemas/Tokenomics/properties/price'
 */
export function fieldSchema(
  operationId: OperationId,
  status: number,
  pointer: string,
): { at: SchemaAt; parent: SchemaAt; name: string } | undefined {
  let at = responseSchemaAt(operationId, status);
  let parent: SchemaAt | undefined;
  let name = '';
  if (!at) return undefined;
  for (const token of pointer.split('/').slice(1)) {
    if (token === '*') {
      if (!isJsonObject(at.schema.items)) return undefined;
      at = resolveSchema(`${at.pointer}/items`);
      continue;
    }
    const properties = isJsonObject(at.schema.properties) ? at.schema.properties : undefined;
    if (!properties || !Object.hasOwn(properties, token.replaceAll('~1', '/').replaceAll('~0', '~'))) return undefined;
    parent = at;
    name = token;
    at = resolveSchema(`${at.pointer}/properties/${token}`);
  }
  return parent ? { at, parent, name } : undefined;
}
