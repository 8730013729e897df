// The parts of an OpenAPI document the classifier walks: local references resolved, each operation keyed by method and
// path template, and each operation's parameters keyed so that a renamed path parameter is the same parameter.
import { getAtPointer, isJsonObject, walkOperations, type JsonObject, type JsonValue } from '../spec/index.ts';

/**
 * The object a node is, following local `$ref`s (at most 32 deep), with the pointer where it was found.
 * @example resolve(document, { $ref: '#/components/schemas/Agent' }, '/paths/…/schema') // { node: {…}, pointer: '/components/schemas/Agent' }
 */
export function resolve(
  document: JsonObject,
  node: JsonValue | undefined,
  pointer: string,
  depth = 0,
): { node: JsonObject; pointer: string } | undefined {
  if (!isJsonObject(node)) return undefined;
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#') && depth < 32) {
    const target = node.$ref.slice(1);
    return resolve(document, getAtPointer(document, target), target, depth + 1);
  }
  return { node, pointer };
}

/** One operation of a document and where it is. */
export interface OperationAt {
  path: string;
  method: string;
  node: JsonObject;
  pointer: string;
  pathItem: JsonObject;
  pathPointer: string;
}

function normalizedPath(path: string): string {
  return path.replace(/\{[^}]*\}/g, '{}');
}

/**
 * Every operation, keyed `GET /things/{}` (parameter names left out, so renaming one is no new operation).
 * @example operationsIn(document).get('GET /v1/agents/{}')?.pointer // '/paths/~1v1~1agents~1{agentId}/get'
 */
export function operationsIn(document: JsonObject): Map<string, OperationAt> {
  const result = new Map<string, OperationAt>();
  for (const record of walkOperations(document))
    result.set(`${record.method} ${normalizedPath(record.path)}`, {
      path: record.path,
      method: record.method,
      node: record.operation,
      pointer: record.pointer,
      pathItem: record.pathItem,
      pathPointer: record.pathItemPointer,
    });
  return result;
}

/**
 * The parameters of an operation (its path item's, then its own), keyed `query limit` or `path #1`.
 * @example parametersOf(document, operation).get('path #1')?.node.name // 'agentId'
 */
export function parametersOf(
  document: JsonObject,
  operation: OperationAt,
): Map<string, { node: JsonObject; pointer: string }> {
  const result = new Map<string, { node: JsonObject; pointer: string }>();
  for (const [owner, pointer] of [
    [operation.pathItem, operation.pathPointer],
    [operation.node, operation.pointer],
  ] as const) {
    const list = Array.isArray(owner.parameters) ? owner.parameters : [];
    list.forEach((raw, index) => {
      const parameter = resolve(document, raw, `${pointer}/parameters/${index}`);
      if (parameter && typeof parameter.node.name === 'string' && typeof parameter.node.in === 'string') {
        // Path parameters are matched by position in the template, so renaming {id} to {agentId} is no change.
        const position = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).indexOf(parameter.node.name);
        const key =
          parameter.node.in === 'path' ? `path #${position + 1}` : `${parameter.node.in} ${parameter.node.name}`;
        result.set(key, parameter);
      }
    });
  }
  return result;
}
