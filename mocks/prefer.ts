// Prism's `Prefer` header convention (code=<status>, example=<name>), answered from the spec's own examples.
import {
  getAtPointer,
  getOperation,
  isJsonObject,
  openapiDocument,
  resolveValue,
  type JsonValue,
  type OperationId,
} from '../spec/index.ts';

/** What a `Prefer` header asks for. */
export interface Preference {
  code: number | undefined;
  example: string | undefined;
}

/**
 * Parses `Prefer: code=404, example=pausedAgent` (commas or semicolons between, as Prism accepts).
 * @example parsePrefer('code=409') // { code: 409, example: undefined }
 */
export function parsePrefer(header: string | undefined): Preference | undefined {
  if (!header) return undefined;
  let code: number | undefined;
  let example: string | undefined;
  for (const part of header.split(/[,;]/)) {
    const [rawName, ...rest] = part.split('=');
    const name = rawName?.trim().toLowerCase();
    const value = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (name === 'code' && /^\d{3}$/.test(value)) code = Number(value);
    else if (name === 'example' && value !== '') example = value;
  }
  return code === undefined && example === undefined ? undefined : { code, example };
}

/** One documented example of a response. */
export interface DocumentedExample {
  name: string;
  mediaType: string;
  value: JsonValue;
}

const cache = new Map<string, DocumentedExample[]>();

/**
 * The examples the document gives for `status` of `operationId`, in document order.
 * @example documentedExamples('getAgent', 200).map((e) => e.name) // ['tradingAgent', 'pausedAgent']
 */
export function documentedExamples(operationId: OperationId, status: number): DocumentedExample[] {
  const key = `${operationId} ${status}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const response = getOperation(operationId).responses.get(status);
  const result: DocumentedExample[] = [];
  if (response) {
    for (const mediaType of response.mediaTypes) {
      const examples = getAtPointer(
        openapiDocument,
        `${response.pointer}/content/${mediaType.replace('/', '~1')}/examples`,
      );
      if (!isJsonObject(examples)) continue;
      for (const [name, raw] of Object.entries(examples)) {
        const example = resolveValue(raw);
        if (isJsonObject(example) && example.value !== undefined)
          result.push({ name, mediaType, value: example.value });
      }
    }
  }
  cache.set(key, result);
  return result;
}
