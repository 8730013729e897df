// RFC 6901 JSON Pointers: the one way the kit names a place in the spec document or in a request or response body.

export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/**
 * Escapes one reference token.
 * @example escapePointerToken('/v1/agents/deploy') // '~1v1~1agents~1deploy'
 */
export function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * Builds a pointer from reference tokens.
 * @example toPointer(['paths', '/v1/agents/deploy']) // '/paths/~1v1~1agents~1deploy'
 */
export function toPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((token) => `/${escapePointerToken(String(token))}`).join('');
}

/**
 * Splits a pointer into its unescaped reference tokens.
 * @example parsePointer('/a~1b/0') // ['a/b', '0']
 */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`not a JSON Pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/**
 * Resolves a pointer in a JSON value; undefined when nothing is there.
 * @example getAtPointer({ a: [1, 2] }, '/a/1') // 2
 */
export function getAtPointer(root: JsonValue, pointer: string): JsonValue | undefined {
  let node: JsonValue | undefined = root;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isJsonObject(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
