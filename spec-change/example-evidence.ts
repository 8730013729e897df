// The base version's own examples as evidence: every request and response example of every operation, found through
// the spec's one walk over operations (walkOperations) and its one reader of a media type's examples (mediaExamples).
import {
  escapePointerToken,
  isJsonObject,
  mediaExamples,
  resolveRef,
  walkOperations,
  type JsonObject,
  type JsonValue,
} from '../spec/index.ts';
import type { Evidence } from './traffic-replay.ts';

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
      for (const { value, pointer: where } of mediaExamples(
        media,
        `${pointer}/requestBody/content/${escapePointerToken(mediaType)}`,
        document,
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
        for (const { value, pointer: where } of mediaExamples(
          media,
          `${pointer}/responses/${status}/content/${escapePointerToken(mediaType)}`,
          document,
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
