// What a pact is made of: the first exchange of each distinct (operation, method, answered status, provider state) the
// app made the fake answer. Kept apart from the journal because it must outlive the resets between tests (like the
// coverage), and bounded: the keys are few (operations × statuses × states), and a body too large is not kept.
import { getOperation, type JsonValue, type OperationId } from '../../spec/index.ts';
import type { MockRequest, MockResponse } from '../core/mock-http.ts';
import { pactRequestHeaders } from './pact-request-headers.ts';
import type { ProviderState } from './provider-state.ts';

/** One exchange a pact interaction is written from. Never holds the Authorization header, control headers or undeclared cookies. */
export interface PactExchange {
  operationId: OperationId;
  method: string;
  /** Percent-encoded path, as the app sent it. */
  path: string;
  /** The query string without `?`. */
  query: string;
  /** The request headers a pact keeps (lower-case names): `content-type`, `prefer` and the declared parameters (pact-request-headers.ts). */
  headers: Record<string, string>;
  /** Whether the request carried an Authorization header (written as a matcher, never as the app's token). */
  authorized: boolean;
  /** The request's JSON body; undefined when it had none. */
  body: JsonValue | undefined;
  status: number;
  /** `content-type` and the headers the spec requires of the status (lower-case names). */
  responseHeaders: Record<string, string>;
  responseBody: JsonValue | undefined;
  state: ProviderState | undefined;
}

/** Distinct exchanges kept at most: above operations × methods × statuses × states, a bound against a runaway key. */
const MAX_EXCHANGES = 256;
/** A request body larger than this is not kept (nor is its exchange: a later, smaller one may take the key). */
const MAX_REQUEST_BODY_BYTES = 64 * 1024;
/** A response body longer than this (characters) is not kept: with the bounds above, the log holds 32 MiB at most. */
const MAX_RESPONSE_BODY = 64 * 1024;
/** Bytes (characters of paths, queries, bodies and states) the whole log holds at most; later exchanges are left out. */
const MAX_LOG_BYTES = 32 * 1024 * 1024;

const decoder = new TextDecoder();

/** JSON text parsed, or undefined when it is not JSON; '' is no body at all (null). */
function parseJson(text: string): { ok: true; value: JsonValue | undefined } | { ok: false } {
  if (text === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch {
    return { ok: false };
  }
}

/**
 * The exchanges a pact is written from, by key; the first exchange of a key is kept, later ones only counted.
 * @example const log = new PactLog(); log.record(request, response, { operationId, stateName: '', state: () => undefined }); log.exchanges().length // 1
 */
/** An exchange as the log keeps it: its bodies as their JSON text (a parsed 64 KiB body of `{}` is megabytes of heap). */
interface KeptExchange extends Omit<PactExchange, 'body' | 'responseBody'> {
  body: string;
  responseBody: string;
}

const parsed = (text: string): JsonValue | undefined => (text === '' ? undefined : (JSON.parse(text) as JsonValue));

export class PactLog {
  #exchanges: KeptExchange[] = [];
  /** Characters the kept exchanges hold (paths, queries, bodies, states): at most MAX_LOG_BYTES. */
  #bytes = 0;
  /** The keys kept, by operation, method, status and state name: no string is built to look one up. */
  #seen = new Map<OperationId, Map<string, Map<number, Set<string>>>>();

  /** Whether an exchange of this key (operation, method, status, state name) is kept already: what every answer asks. */
  has(operationId: OperationId, method: string, status: number, stateName: string): boolean {
    return this.#seen.get(operationId)?.get(method)?.get(status)?.has(stateName) === true;
  }

  /**
   * Keeps the exchange when its key (operation, method, status, state name) is new; the state itself is built only
   * then. A request with a body that is not JSON (or too large) is left out, since a verifier could not send it again.
   */
  record(
    request: MockRequest,
    response: MockResponse,
    answered: { operationId: OperationId; stateName: string; state: () => ProviderState | undefined },
  ): void {
    const { operationId, stateName } = answered;
    const byMethod = this.#seen.get(operationId);
    const byStatus = byMethod?.get(request.method);
    const names = byStatus?.get(response.status);
    if (names?.has(stateName) || this.#exchanges.length >= MAX_EXCHANGES) return;
    if (request.body !== null && request.body.byteLength > MAX_REQUEST_BODY_BYTES) return;
    if (response.body.length > MAX_RESPONSE_BODY) return;
    const bodyText = request.body === null ? '' : decoder.decode(request.body);
    const size = request.path.length + request.query.length + bodyText.length + response.body.length;
    if (this.#bytes + size > MAX_LOG_BYTES) return;
    if (!parseJson(bodyText).ok || !parseJson(response.body).ok) return;
    const headers = pactRequestHeaders(operationId, request.headers);
    const documented = getOperation(operationId).responses.get(response.status);
    const kept = ['content-type', ...(documented?.requiredHeaders ?? []).map((header) => header.name.toLowerCase())];
    const responseHeaders: Record<string, string> = {};
    for (const name of kept) {
      const value = response.headers[name];
      if (value !== undefined) responseHeaders[name] = value;
    }
    const methods = byMethod ?? new Map<string, Map<number, Set<string>>>();
    const statuses = byStatus ?? new Map<number, Set<string>>();
    const seen = names ?? new Set<string>();
    seen.add(stateName);
    statuses.set(response.status, seen);
    methods.set(request.method, statuses);
    this.#seen.set(operationId, methods);
    const state = answered.state();
    this.#bytes += size + (state === undefined ? 0 : JSON.stringify(state).length);
    this.#exchanges.push({
      operationId,
      method: request.method,
      path: request.path,
      query: request.query,
      headers,
      authorized: request.headers.authorization !== undefined,
      body: bodyText.trim() === '' ? '' : bodyText,
      status: response.status,
      responseHeaders,
      responseBody: response.body.trim() === '' ? '' : response.body,
      state,
    });
  }

  /** Characters the log holds (paths, queries, bodies, states), at most 32 MiB. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Every exchange kept, in the order they came (a pact document sorts them itself), bodies parsed. */
  exchanges(): PactExchange[] {
    return this.#exchanges.map((kept) => ({
      ...kept,
      body: parsed(kept.body),
      responseBody: parsed(kept.responseBody),
    }));
  }

  clear(): void {
    this.#exchanges = [];
    this.#bytes = 0;
    this.#seen.clear();
  }
}
