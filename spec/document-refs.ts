// Following local `$ref`s inside spec/openapi.yaml (or another OpenAPI document): the one resolver every reader uses,
// and the examples of a media type read through it.
import { escapePointerToken, getAtPointer, isJsonObject, type JsonObject, type JsonValue } from './json-pointer.ts';
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

/** One example of a media type object: its name (none for the lone `example`), its value, and where the value is. */
export interface MediaExample {
  name: string | undefined;
  value: JsonValue;
  /** `<media>/example`, `<media>/examples/<name>`, or the pointer a `$ref` led to. */
  pointer: string;
}

/**
 * The examples of the media type object `media` at `pointer`, in document order: its `example`, then each of its
 * `examples` with `$ref`s followed in `document`. One without a value, or whose `$ref` leads nowhere, is left out.
 * @example mediaExamples(media, '/paths/~1v1~1agents~1deploy/post/requestBody/content/application~1json')[0]?.name
 */
export function mediaExamples(
  media: JsonObject,
  pointer: string,
  document: JsonObject = openapiDocument,
): MediaExample[] {
  const found: MediaExample[] = [];
  if (media.example !== undefined) found.push({ name: undefined, value: media.example, pointer: `${pointer}/example` });
  if (!isJsonObject(media.examples)) return found;
  for (const [name, raw] of Object.entries(media.examples)) {
    if (!isJsonObject(raw)) continue;
    let example: { node: JsonObject; pointer: string };
    try {
      example = resolveRef(raw, `${pointer}/examples/${escapePointerToken(name)}`, document);
    } catch {
      continue;
    }
    if (example.node.value !== undefined) found.push({ name, value: example.node.value, pointer: example.pointer });
  }
  return found;
}
