// A documented answer given on purpose (a scenario's errorStatus, `Prefer: code=`), from the spec's own examples.
import {
  getAtPointer,
  getOperation,
  isJsonObject,
  mediaExamples,
  openapiDocument,
  type JsonValue,
  type OperationId,
} from '../../spec/index.ts';
import type { MockResponse } from './mock-http.ts';
import { problemKindForStatus, problemResponse } from './problems.ts';

/** One documented example of a response. */
export interface DocumentedExample {
  name: string;
  mediaType: string;
  value: JsonValue;
}

const cache = new Map<string, DocumentedExample[]>();

/**
 * The examples the document gives for `status` of `operationId`, in document order.
 * @example documentedExamples(route.operationId, 200).map((e) => e.name) // the names of its 200 examples
 */
export function documentedExamples(operationId: OperationId, status: number): DocumentedExample[] {
  const key = `${operationId} ${status}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const response = getOperation(operationId).responses.get(status);
  const result: DocumentedExample[] = [];
  if (response) {
    for (const mediaType of response.mediaTypes) {
      const pointer = `${response.pointer}/content/${mediaType.replace('/', '~1')}`;
      const media = getAtPointer(openapiDocument, pointer);
      if (!isJsonObject(media)) continue;
      for (const { name, value } of mediaExamples(media, pointer))
        if (name !== undefined) result.push({ name, mediaType, value });
    }
  }
  cache.set(key, result);
  return result;
}

/**
 * The answer of `operationId` with `status`: the named (or first) documented example, else the catalogue's problem.
 * 401 gets `WWW-Authenticate`, 429 and 503 `Retry-After`, as the spec requires of those statuses.
 * @example documentedResponse(route.operationId, 500, request.path, 'a scenario').status // 500
 */
export function documentedResponse(
  operationId: OperationId,
  status: number,
  instance: string,
  why: string,
  exampleName?: string,
): MockResponse {
  const examples = documentedExamples(operationId, status);
  const example = exampleName ? examples.find((e) => e.name === exampleName) : examples[0];
  let response: MockResponse;
  if (example && typeof example.value === 'object' && example.value !== null && !Array.isArray(example.value)) {
    const body = example.mediaType === 'application/problem+json' ? { ...example.value, instance } : example.value;
    response = { status, headers: { 'content-type': example.mediaType }, body: JSON.stringify(body) };
  } else {
    response = problemResponse(problemKindForStatus(status), {
      detail: `Status ${status} was forced by ${why}.`,
      instance,
    });
  }
  if (status === 401) response.headers['www-authenticate'] = 'Bearer realm="agent-registry"';
  if (status === 429 || status === 503) response.headers['retry-after'] = '1';
  return response;
}
