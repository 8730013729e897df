// Prism's `Prefer` header convention (code=<status>, example=<name>), answered from the spec's own examples.
import { getOperation, type OperationId } from '../../../spec/index.ts';
import { documentedExamples, documentedResponse } from '../documented-response.ts';
import type { MockResponse } from '../mock-http.ts';
import { problemResponse } from '../problems.ts';

/** What a `Prefer` header asks for. */
export interface Preference {
  code: number | undefined;
  example: string | undefined;
  /** A `code=` value that is not a status code (`1e3`, `0500`, `__proto__`), as sent: answered 400, never ignored. */
  unreadableCode?: string;
}

/**
 * Parses `Prefer: code=404, example=pausedAgent` (commas or semicolons between, as Prism accepts).
 * @example parsePrefer('code=409') // { code: 409, example: undefined }
 */
// Stryker disable next-line BlockStatement: not pinned: Prism's Prefer header is a steering convention of the kit; the service description has no such header and the suite never sends one
export function parsePrefer(header: string | undefined): Preference | undefined {
  // Stryker disable next-line ConditionalExpression: not pinned: Prism's Prefer header is a steering convention of the kit; the service description has no such header and the suite never sends one
  if (!header) return undefined;
  // Stryker disable all: not pinned: Prism's Prefer header is a steering convention of the kit; the service description has no such header and the suite never sends one
  let code: number | undefined;
  let example: string | undefined;
  let unreadableCode: string | undefined;
  for (const part of header.split(/[,;]/)) {
    const [rawName, ...rest] = part.split('=');
    const name = rawName?.trim().toLowerCase();
    const value = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (name === 'code') {
      // Exactly three digits, 100–599: Number() would also read `1e3`, `0x1F4` or ` 500`.
      if (/^[1-5]\d{2}$/.test(value)) code = Number(value);
      else unreadableCode = value.slice(0, 40);
    } else if (name === 'example' && value !== '') example = value;
  }
  if (unreadableCode !== undefined) return { code: undefined, example, unreadableCode };
  return code === undefined && example === undefined ? undefined : { code, example };
}

/**
 * What a `Prefer` header makes the operation answer instead of running: a documented status and example, a 400 naming
 * what exists when it asks for something undocumented, or undefined to run the real operation (a 2xx without a named
 * example: the stateful answer is the better one).
 * @example preferredResponse(route.operationId, { code: 404, example: undefined }, request.path)?.status // 404
 */
export function preferredResponse(
  operationId: OperationId,
  preference: Preference,
  instance: string,
): MockResponse | undefined {
  const documented = [...getOperation(operationId).responses.keys()];
  if (preference.unreadableCode !== undefined)
    return problemResponse('bad-request', {
      detail: `Prefer: code=${JSON.stringify(preference.unreadableCode)} is not a status code; use one of ${documented.join(', ')}.`,
      instance,
    });
  const success = documented.find((status) => status >= 200 && status < 300) ?? 200;
  const status = preference.code ?? success;
  if (!documented.includes(status)) {
    return problemResponse('bad-request', {
      detail: `Prefer: code=${status} is not a documented status of ${operationId}; use one of ${documented.join(', ')}.`,
      instance,
    });
  }
  const names = documentedExamples(operationId, status).map((e) => e.name);
  if (preference.example !== undefined && !names.includes(preference.example)) {
    return problemResponse('bad-request', {
      detail: `Prefer: example=${preference.example} is not an example of ${operationId} ${status}; use one of ${names.join(', ') || '(none)'}.`,
      instance,
    });
  }
  if (status < 300 && preference.example === undefined) return undefined;
  const response = documentedResponse(operationId, status, instance, 'Prefer', preference.example);
  response.headers['preference-applied'] = [
    preference.code !== undefined && `code=${status}`,
    preference.example !== undefined && `example=${preference.example}`,
  ]
    .filter(Boolean)
    .join(', ');
  return response;
}
