// Following local `$ref`s inside spec/openapi.yaml (or another OpenAPI document): the one resolver every reader uses.
import { getAtPointer, isJsonObject, type JsonObject, type JsonValue } from './json-pointer.ts';
import { openapiDocument } from './openapi-document.generated.ts';

/**
 * Follows a local `$ref` (and the refs it leads to) to the object and pointer it names; other nodes come back as they are.
 * `document` is spec/openapi.yaml unless another document (the fake's control plane) is given.
 * @example resolveRef({ $ref: '#/components/schemas/AgentId' }, '/x').pointer // '/components/schemas/AgentId'
 */
export function resolveRef(
  node: JsonObject,
  pointer: string,
  document: JsonObject = openapiDocument,
): { node: JsonObject; pointer: string } {
  const ref = node.$ref;
  if (typeof ref !== 'string') return { node, pointer };
  const target = ref.replace(/^#/, '');
  const resolved = getAtPointer(document, target);
  if (!isJsonObject(resolved)) throw new Error(`unresolvable $ref ${ref} at ${pointer}`);
  return resolveRef(resolved, target, document);
}

/**
 * The node at `pointer`, with `$ref`s followed; undefined when nothing is there.
 * @example resolvedAt('/components/schemas/DeployRequest/properties/category')?.pointer // '/components/schemas/AgentCategory'
 */
export function resolvedAt(pointer: string): { node: JsonObject; pointer: string } | undefined {
  const node = getAtPointer(openapiDocument, pointer);
  return isJsonObject(node) ? resolveRef(node, pointer) : undefined;
}

/**
 * A value that may be a `$ref` object, followed to what it names (examples, responses, parameters).
 * @example resolveValue({ $ref: '#/components/examples/TradingAgent' }) // { summary: …, value: {…} }
 */
export function resolveValue(node: JsonValue | undefined): JsonValue | undefined {
  return isJsonObject(node) ? resolveRef(node, '').node : node;
}
