// The parameters an operation declares, resolved once: the path item's and the operation's own (the operation's win for
// the same name and location, as OpenAPI says), each `$ref` followed, with the serialization OpenAPI 3.1 gives it
// (`style`/`explode` and their documented defaults) and the shape of value its schema takes. The one resolver of
// parameters: the parameter reader, the generated validators, the contract suite and the tools all read them here.
import { resolveRef } from '../document-refs.ts';
import { escapePointerToken, getAtPointer, isJsonObject, type JsonObject, type JsonValue } from '../json-pointer.ts';

/** Where a parameter travels. */
export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';
/** The locations in the order a request is read. */
export const parameterLocations: readonly ParameterLocation[] = ['path', 'query', 'header', 'cookie'];

/** OpenAPI 3.1's serialization styles. */
export type ParameterStyle = 'matrix' | 'label' | 'simple' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';

/** The type a text from the request is turned into before validation. */
export type ScalarType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'unknown';

/** What a parameter's schema takes, read once so a request never walks the schema. */
export type ValueShape =
  | { kind: 'scalar'; type: ScalarType }
  | { kind: 'array'; items: ScalarType }
  | { kind: 'object'; properties: Readonly<Record<string, ScalarType>>; additional: ScalarType }
  /** A parameter declared with `content` (application/json): its text is JSON. */
  | { kind: 'json' };

export interface ParameterSpec {
  name: string;
  in: ParameterLocation;
  required: boolean;
  style: ParameterStyle;
  explode: boolean;
  /** Pointer of the parameter object in the document (after following its $ref). */
  pointer: string;
  /** Pointer of its schema (`${pointer}/schema`, or the schema of its `content`). */
  schemaPointer: string;
  shape: ValueShape;
  /** The schema's `default` (on it or where its $ref leads), filled in when the request omits the parameter. */
  default: JsonValue | undefined;
  /** Where a problem with it points in a request: `/query/limit`, `/header/X-Request-Id`, `/path/agentId`. */
  errorPointer: string;
}

/** OpenAPI ignores header parameters of these names: the media types and the credentials are described elsewhere. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

const DEFAULT_STYLE: Record<ParameterLocation, ParameterStyle> = {
  path: 'simple',
  query: 'form',
  header: 'simple',
  cookie: 'form',
};

function resolved(node: JsonValue | undefined, pointer: string, document: JsonObject): JsonObject | undefined {
  return isJsonObject(node) ? resolveRef(node, pointer, document).node : undefined;
}

/** The type a schema's value has (following `$ref`, the first non-null of a type list, a combinator's first typed member). */
function scalarType(schema: JsonObject | undefined, document: JsonObject, depth = 0): ScalarType {
  if (schema === undefined || depth > 16) return 'unknown';
  const type = Array.isArray(schema.type) ? schema.type.find((one) => one !== 'null') : schema.type;
  if (typeof type === 'string')
    return (['string', 'integer', 'number', 'boolean', 'null'] as const).find((one) => one === type) ?? 'unknown';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    if (schema.enum.every((value) => typeof value === 'string')) return 'string';
    if (schema.enum.every((value) => typeof value === 'number')) return 'number';
    if (schema.enum.every((value) => typeof value === 'boolean')) return 'boolean';
  }
  for (const combinator of ['allOf', 'oneOf', 'anyOf'] as const) {
    const members = schema[combinator];
    for (const member of Array.isArray(members) ? members : []) {
      const found = scalarType(resolved(member, '', document), document, depth + 1);
      if (found !== 'unknown') return found;
    }
  }
  return 'unknown';
}

function shapeOf(schema: JsonObject | undefined, document: JsonObject): ValueShape {
  const type = schema && (Array.isArray(schema.type) ? schema.type.find((one) => one !== 'null') : schema.type);
  if (schema !== undefined && type === 'array')
    return { kind: 'array', items: scalarType(resolved(schema.items, '', document), document) };
  if (schema !== undefined && (type === 'object' || (type === undefined && isJsonObject(schema.properties)))) {
    const properties: Record<string, ScalarType> = {};
    for (const [name, property] of Object.entries(isJsonObject(schema.properties) ? schema.properties : {}))
      properties[name] = scalarType(resolved(property, '', document), document);
    const additional = isJsonObject(schema.additionalProperties)
      ? scalarType(resolved(schema.additionalProperties, '', document), document)
      : 'string';
    return { kind: 'object', properties, additional };
  }
  return { kind: 'scalar', type: scalarType(schema, document) };
}

function schemaDefault(schema: JsonValue | undefined, document: JsonObject): JsonValue | undefined {
  if (!isJsonObject(schema)) return undefined;
  if (schema.default !== undefined) return schema.default;
  return typeof schema.$ref === 'string' ? resolved(schema, '', document)?.default : undefined;
}

function parameterSpec(raw: JsonObject, at: string, document: JsonObject): ParameterSpec | undefined {
  const { node, pointer } = resolveRef(raw, at, document);
  const location = node.in;
  if (location !== 'path' && location !== 'query' && location !== 'header' && location !== 'cookie') return undefined;
  if (typeof node.name !== 'string') return undefined;
  if (location === 'header' && IGNORED_HEADERS.has(node.name.toLowerCase())) return undefined;
  const content = isJsonObject(node.content) ? node.content : undefined;
  const mediaType = content ? Object.keys(content)[0] : undefined;
  const schemaPointer =
    mediaType === undefined ? `${pointer}/schema` : `${pointer}/content/${escapePointerToken(mediaType)}/schema`;
  const schema = getAtPointer(document, schemaPointer);
  const style = typeof node.style === 'string' ? (node.style as ParameterStyle) : DEFAULT_STYLE[location];
  return {
    name: node.name,
    in: location,
    required: location === 'path' || node.required === true,
    style,
    // OpenAPI: explode defaults to true for form, false for every other style.
    explode: typeof node.explode === 'boolean' ? node.explode : style === 'form',
    pointer,
    schemaPointer,
    shape: mediaType === undefined ? shapeOf(resolved(schema, schemaPointer, document), document) : { kind: 'json' },
    default: schemaDefault(schema, document),
    errorPointer: `/${location}/${escapePointerToken(node.name)}`,
  };
}

function listAt(document: JsonObject, pointer: string): ParameterSpec[] {
  const list = getAtPointer(document, pointer);
  if (!Array.isArray(list)) return [];
  return list.flatMap((raw, index) => {
    if (!isJsonObject(raw)) return [];
    const spec = parameterSpec(raw, `${pointer}/${index}`, document);
    return spec ? [spec] : [];
  });
}

const byDocument = new WeakMap<JsonObject, Map<string, readonly ParameterSpec[]>>();

/**
 * Every parameter of the operation at `operationPointer` (`/paths/~1v1~1agents/get`), one per name and location (the
 * operation's own replaces its path item's), by location (path, query, header, cookie), read once per document.
 * @example operationParameters(getOperation(operationId).pointer).map((p) => p.errorPointer) // ['/path/agentId']
 */
export function operationParameters(operationPointer: string, document: JsonObject): readonly ParameterSpec[] {
  let cache = byDocument.get(document);
  if (!cache) {
    cache = new Map();
    byDocument.set(document, cache);
  }
  const cached = cache.get(operationPointer);
  if (cached) return cached;
  const itemPointer = operationPointer.slice(0, operationPointer.lastIndexOf('/'));
  const merged = new Map<string, ParameterSpec>();
  for (const spec of [
    ...listAt(document, `${itemPointer}/parameters`),
    ...listAt(document, `${operationPointer}/parameters`),
  ])
    merged.set(`${spec.in} ${spec.in === 'header' ? spec.name.toLowerCase() : spec.name}`, spec);
  const order = (spec: ParameterSpec): number => parameterLocations.indexOf(spec.in);
  const result = Object.freeze([...merged.values()].sort((a, b) => order(a) - order(b)));
  cache.set(operationPointer, result);
  return result;
}
