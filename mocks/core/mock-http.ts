// The minimal request/response shape the core speaks; every adapter (msw, node:http) translates to and from it.

/** A request as the core sees it. */
export interface MockRequest {
  /** Upper-case method, e.g. `GET`. */
  method: string;
  /** The URL's pathname, still percent-encoded, e.g. `/v1/agents/agt_1`. */
  path: string;
  /** The URL's query string without `?` ('' when none). */
  query: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The body bytes; null when the request had none. */
  body: Uint8Array | null;
  /** Set by an adapter that stopped reading a body over the size limit: the core answers 413. */
  bodyTooLarge?: boolean;
  /**
   * An answer an msw override handler decided (`overrideHandler` bound to this core): served in the operation's place
   * and recorded as a test's override is (journal, coverage, pact), marked `overrideHandler`.
   */
  override?: { operationId: string; response: MockResponse & { exampleInstance?: string } };
}

/** A response as the core produces it: the body is always text (JSON, problem+json, or empty). */
export interface MockResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /**
   * A stream that goes on after `body` (the control plane's Server-Sent Events): the adapter writes `body`, then every
   * text `events` pushes, and calls the function it returns once the client has gone.
   */
  events?: (push: (text: string) => void) => () => void;
  /**
   * The body in pieces, for a large one (a pact of 32 MiB): the node:http adapter writes them one by one, as the
   * socket drains, so that no other request waits for the whole body to be copied; `body` is their join, made only
   * when something reads it.
   */
  readonly parts?: readonly string[];
}

/** Largest accepted request body: 1 MiB, as the spec's PayloadTooLarge response says. */
export const MAX_BODY_BYTES = 1_048_576;

/**
 * A JSON answer from text already serialized (the store caches agents' JSON).
 * @example jsonResponse(200, store.getJson(agentId) ?? '{}')
 */
export function jsonResponse(status: number, text: string): MockResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: text };
}

/**
 * A JSON answer whose text comes in pieces (see `MockResponse.parts`); `body` joins them the first time it is read.
 * @example partedJsonResponse(200, ['{"interactions": [', interaction, ']}'])
 */
export function partedJsonResponse(status: number, parts: readonly string[]): MockResponse {
  let joined: string | undefined;
  return {
    status,
    headers: { 'content-type': 'application/json' },
    get body() {
      joined ??= parts.join('');
      return joined;
    },
    parts,
  };
}

/**
 * A JSON answer from a value.
 * @example jsonValueResponse(200, { status: 'ok' })
 */
export function jsonValueResponse(status: number, value: unknown): MockResponse {
  return jsonResponse(status, JSON.stringify(value));
}

/**
 * An answer without a body.
 * @example noContent() // { status: 204, headers: {}, body: '' }
 */
export function noContent(): MockResponse {
  return { status: 204, headers: {}, body: '' };
}
