// What a pact is made of: the first exchange of each distinct (operation, method, answered status, provider state) the
// app made the fake answer. Kept apart from the journal because it must outlive the resets between tests (like the
// coverage), and bounded: the keys are few (operations × statuses × states), a body too large is not kept, and what
// it holds, the pact text included, is at most 32 MiB. Each exchange's interaction is written once, when it is kept:
// a pact is then those texts in order, written piece by piece, so GET /__mock/pact holds up no other request for long.
import { getOperation, MAX_JSON_DEPTH, nestsDeeperThan, type JsonValue, type OperationId } from '../../spec/index.ts';
import type { MockRequest, MockResponse } from '../core/mock-http.ts';
import { interactionText, pactParts, type PactExchange, type PactOptions } from './pact-document.ts';
import { pactRequestHeaders } from './pact-request-headers.ts';
import type { ProviderState } from './provider-state.ts';

export type { PactExchange } from './pact-document.ts';

/** Distinct exchanges kept at most: above operations × methods × statuses × states, a bound against a runaway key. */
const MAX_EXCHANGES = 256;
/** A request body larger than this is not kept (nor is its exchange: a later, smaller one may take the key). */
const MAX_REQUEST_BODY_BYTES = 64 * 1024;
/** A response body longer than this (characters) is not kept. */
const MAX_RESPONSE_BODY = 64 * 1024;
/**
 * Characters the whole log holds at most: the paths, queries, bodies and states of its exchanges and the Pact V4 text
 * of their interactions (a body of `[{},{},…]` is five times longer written as a pact); later exchanges are left out.
 * `pact export` reads a pact of this size.
 */
const MAX_LOG_BYTES = 32 * 1024 * 1024;
/** Characters of the log that count as one record against `--session-records`, as an override's answer does. */
const BYTES_PER_RECORD = 1024;
/** Work between two yields while a pact is written in a version the log does not keep (Pact V3), in milliseconds. */
const SLICE_MS = 4;

const decoder = new TextDecoder();

/** Parsed JSON text ('' is no body at all), or null when it is not JSON (blank included) or nests deeper than 64. */
function parseJson(text: string): { value: JsonValue | undefined } | null {
  if (text === '') return { value: undefined };
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return null;
  try {
    return { value: JSON.parse(text) as JsonValue };
  } catch {
    return null;
  }
}

/** An exchange as the log keeps it: its bodies as their JSON text (a parsed 64 KiB body of `{}` is megabytes of heap). */
interface KeptExchange extends Omit<PactExchange, 'body' | 'responseBody'> {
  body: string;
  responseBody: string;
  /** Where its interaction sorts in a pact, and the interaction as Pact V4 text. */
  key: string;
  v4: string;
}

const parsed = (text: string): JsonValue | undefined => (text === '' ? undefined : (JSON.parse(text) as JsonValue));

const toExchange = (kept: KeptExchange): PactExchange => {
  const { key: _key, v4: _v4, ...rest } = kept;
  return { ...rest, body: parsed(kept.body), responseBody: parsed(kept.responseBody) };
};

/** What a session asks of the log: its id, and whether its share of `--session-records` has room for more records. */
export interface PactShare {
  session: string;
  /** Records of all sessions together, and of each alone, at most (`--session-records`). */
  maxRecords: number;
  /** Whether this session may hold `records` more. */
  fits(records: number): boolean;
}

/** What the log needs to know of an answer it may keep. */
export interface AnsweredExchange {
  operationId: OperationId;
  stateName: string;
  state: () => ProviderState | undefined;
  /** Set when a session answered it: the exchange then counts against `--session-records`. */
  share?: PactShare;
}

const recordsOf = (bytes: number): number => Math.ceil(bytes / BYTES_PER_RECORD);

/**
 * The exchanges a pact is written from, by key; the first exchange of a key is kept, later ones only counted.
 * @example const log = new PactLog(); log.record(request, response, { operationId, stateName: '', state: () => undefined }); log.exchanges().length // 1
 */
export class PactLog {
  #exchanges: KeptExchange[] = [];
  /** Characters the kept exchanges hold (paths, queries, bodies, states, V4 texts): at most MAX_LOG_BYTES. */
  #bytes = 0;
  /** Characters kept from sessions' answers, by session id and in all (a session's part outlives the session). */
  #bySession = new Map<string, number>();
  #sessionBytes = 0;
  /** The keys kept, by operation, method, status and state name: no string is built to look one up. */
  #seen = new Map<OperationId, Map<string, Map<number, Set<string>>>>();

  /** Whether an exchange of this key (operation, method, status, state name) is kept already: what every answer asks. */
  has(operationId: OperationId, method: string, status: number, stateName: string): boolean {
    return this.#seen.get(operationId)?.get(method)?.get(status)?.has(stateName) === true;
  }

  /**
   * Keeps the exchange when its key (operation, method, status, state name) is new and it fits the log (and, from a
   * session, its share of `--session-records`); the state and the interaction are built only then. A request with a
   * body that is not JSON, too large or too deep is left out, since a verifier could not send it again.
   */
  record(request: MockRequest, response: MockResponse, answered: AnsweredExchange): void {
    const { operationId, stateName, share } = answered;
    if (this.has(operationId, request.method, response.status, stateName)) return;
    if (this.#exchanges.length >= MAX_EXCHANGES) return;
    if (request.body !== null && request.body.byteLength > MAX_REQUEST_BODY_BYTES) return;
    if (response.body.length > MAX_RESPONSE_BODY) return;
    const bodyText = request.body === null ? '' : decoder.decode(request.body);
    const responseText = response.body;
    let size = request.path.length + request.query.length + bodyText.length + responseText.length;
    // The interaction's text holds both bodies again at least: what does not fit even so is never built.
    const least = size + bodyText.length + responseText.length;
    if (this.#bytes + least > MAX_LOG_BYTES || !this.#shareFits(share, least)) return;
    const body = parseJson(bodyText);
    const responseBody = parseJson(responseText);
    if (body === null || responseBody === null) return;
    const state = answered.state();
    const exchange: PactExchange = {
      operationId,
      method: request.method,
      path: request.path,
      query: request.query,
      headers: pactRequestHeaders(operationId, request.headers),
      authorized: request.headers.authorization !== undefined,
      body: body.value,
      status: response.status,
      responseHeaders: keptHeaders(response.headers, responseHeaderNames(operationId, response.status)),
      responseBody: responseBody.value,
      state,
    };
    const { key, text } = interactionText(exchange, 4);
    size += text.length + (state === undefined ? 0 : JSON.stringify(state).length);
    if (this.#bytes + size > MAX_LOG_BYTES || !this.#shareFits(share, size)) return;
    this.#markSeen(operationId, request.method, response.status, stateName);
    this.#bytes += size;
    if (share !== undefined) {
      this.#bySession.set(share.session, (this.#bySession.get(share.session) ?? 0) + size);
      this.#sessionBytes += size;
    }
    this.#exchanges.push({ ...exchange, body: bodyText, responseBody: responseText, key, v4: text });
  }

  /** Exchanges kept: the interactions of the pact. */
  get size(): number {
    return this.#exchanges.length;
  }

  /** Characters the log holds (paths, queries, bodies, states and the V4 text of the interactions), at most 32 MiB. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Records (one per KiB begun) a session's answers hold in the log; they count until DELETE /__mock/pact. */
  sessionRecords(session: string): number {
    const bytes = this.#bySession.get(session);
    return bytes === undefined ? 0 : recordsOf(bytes);
  }

  /** Every exchange kept, in the order they came (a pact document sorts them itself), bodies parsed. */
  exchanges(): PactExchange[] {
    return this.#exchanges.map(toExchange);
  }

  /**
   * The pact of the kept exchanges in pieces, joined byte for byte `pactText(buildPact(log.exchanges(), options))`: in
   * V4 the texts kept with the exchanges (nothing is built or copied), in V3 written interaction by interaction,
   * yielding to other work every few milliseconds.
   * @example partedJsonResponse(200, await core.pact.parts({ consumer: 'web-app', provider: 'agent-registry' }))
   */
  async parts(options: PactOptions): Promise<string[]> {
    const version = options.pactSpecification ?? 4;
    const sorted = [...this.#exchanges].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    if (version === 4)
      return pactParts(
        sorted.map((kept) => kept.v4),
        options,
      );
    const texts: string[] = [];
    let sliceStarted = performance.now();
    for (const kept of sorted) {
      if (performance.now() - sliceStarted > SLICE_MS) {
        await yieldToOtherWork();
        sliceStarted = performance.now();
      }
      texts.push(interactionText(toExchange(kept), version).text);
    }
    return pactParts(texts, options);
  }

  /**
   * The pact of the kept exchanges as one text (`parts` joined).
   * @example await writeFile(file, await core.pact.text({ consumer: 'web-app', provider: 'agent-registry' }));
   */
  async text(options: PactOptions): Promise<string> {
    return (await this.parts(options)).join('');
  }

  clear(): void {
    this.#exchanges = [];
    this.#bytes = 0;
    this.#bySession.clear();
    this.#sessionBytes = 0;
    this.#seen.clear();
  }

  /** Whether `size` more characters from a session fit its share and all sessions' part (true outside sessions). */
  #shareFits(share: PactShare | undefined, size: number): boolean {
    if (share === undefined) return true;
    const records = recordsOf((this.#bySession.get(share.session) ?? 0) + size) - this.sessionRecords(share.session);
    return recordsOf(this.#sessionBytes + size) <= share.maxRecords && share.fits(records);
  }

  #markSeen(operationId: OperationId, method: string, status: number, stateName: string): void {
    const byMethod = this.#seen.get(operationId) ?? new Map<string, Map<number, Set<string>>>();
    const byStatus = byMethod.get(method) ?? new Map<number, Set<string>>();
    const names = byStatus.get(status) ?? new Set<string>();
    names.add(stateName);
    byStatus.set(status, names);
    byMethod.set(method, byStatus);
    this.#seen.set(operationId, byMethod);
  }
}

/** The headers of `names` that were sent, under their lower-case names. */
function keptHeaders(
  headers: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

/** The response headers a pact keeps: `content-type` and those the spec requires of the status. */
function responseHeaderNames(operationId: OperationId, status: number): string[] {
  const documented = getOperation(operationId).responses.get(status);
  return ['content-type', ...(documented?.requiredHeaders ?? []).map((header) => header.name.toLowerCase())];
}

/** Lets other requests be answered: setImmediate where there is one (Node), else a task (a browser's msw worker). */
function yieldToOtherWork(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === 'function') setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
}
