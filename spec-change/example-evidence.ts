// The base version's own examples as evidence: every request and response example of every operation, found through
// the spec's one walk over operations (walkOperations) and its one $ref resolver.
import {
  escapePointerToken,
  getAtPointer,
  isJsonObject,
  resolveRef,
  walkOperations,
  type JsonObject,
  type JsonValue,
} from '../spec/index.ts';
import type { Evidence } from './traffic-replay.ts';

function exampleValues(
  document: JsonObject,
  media: JsonObject,
  pointer: string,
): Array<{ value: JsonValue; where: string }> {
  const found: Array<{ value: JsonValue; where: string }> = [];
  if (media.example !== undefined) found.push({ value: media.example, where: `${pointer}/example` });
  if (isJsonObject(media.examples))
    for (const [name, raw] of Object.entries(media.examples)) {
      let where = `${pointer}/examples/${escapePointerToken(name)}`;
      let example: JsonValue | undefined = raw;
      if (isJsonObject(example) && typeof example.$ref === 'string') {
        where = example.$ref.replace(/^#/, '');
        example = getAtPointer(document, where);
      }
      if (isJsonObject(example) && example.value !== undefined) found.push({ value: example.value, where });
    }
  return found;
}

/** A request body or response, its `$ref`s followed; undefined when it is not an object or its `$ref` leads nowhere. */
function resolved(document: JsonObject, node: JsonValue | undefined): JsonObject | undefined {
  if (!isJsonObject(node)) return undefined;
  try {
    return resolveRef(node, '', document).node;
  } catch {
    return undefined;
  }
}

/**
 * Every request and response example of a version, as evidence.
 * @example examplesOf(baseDocument).filter((e) => e.response !== undefined).length
 */
export function examplesOf(document: JsonObject): Evidence[] {
  const evidence: Evidence[] = [];
  for (const { operation, pointer, method, path, responses } of walkOperations(document)) {
    const body = resolved(document, operation.requestBody);
    const content = body && isJsonObject(body.content) ? body.content : {};
    for (const [mediaType, media] of Object.entries(content)) {
      if (!isJsonObject(media)) continue;
      for (const { value, where } of exampleValues(
        document,
        media,
        `${pointer}/requestBody/content/${escapePointerToken(mediaType)}`,
      ))
        evidence.push({
          source: 'example',
          where,
          method,
          path,
          templated: true,
          request: { contentType: mediaType, body: JSON.stringify(value), complete: true },
          response: undefined,
        });
    }
    for (const { status, node: response } of responses) {
      const responseContent = isJsonObject(response.content) ? response.content : {};
      for (const [mediaType, media] of Object.entries(responseContent)) {
        if (!isJsonObject(media)) continue;
        for (const { value, where } of exampleValues(
          document,
          media,
          `${pointer}/responses/${status}/content/${escapePointerToken(mediaType)}`,
        ))
          evidence.push({
            source: 'example',
            where,
            method,
            path,
            templated: true,
            request: undefined,
            // Headers are not part of an example, so only status, media type and body are replayed.
            response: {
              status: Number(status),
              contentType: mediaType,
              body: JSON.stringify(value),
              complete: true,
              headers: undefined,
            },
          });
      }
    }
  }
  return evidence;
}
