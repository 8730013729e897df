// Sends one request to the server under test with a timeout and records it, token redacted, with what came back.
import type { HttpMethod } from '../spec/index.ts';
import type { RecordedExchange } from './check-record.ts';
import { readCappedBody, TooLargeError } from './bounded-read.ts';
import { describeServerText, type Redact } from './redaction.ts';

/** What a check asks to send. `authorization` is the header value, or undefined for none; `label` is what reports show instead. */
export interface OutgoingRequest {
  operationId: string;
  method: HttpMethod;
  /** Path and query, starting with `/v1/`. */
  path: string;
  authorization: { value: string; label: string } | undefined;
  contentType: string | undefined;
  body: string | undefined;
  /**
   * The operation's header and cookie parameters (a `cookie` entry holds every cookie), by name. A name the exchange
   * sets itself ({@link RESERVED_HEADERS}) is never taken from here, so a parameter cannot replace the credentials.
   */
  headers?: Readonly<Record<string, string>> | undefined;
}

/** Headers the exchange owns: the credentials, the media types and what HTTP itself frames a request with. */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'content-type',
  'accept',
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
]);

/** The exchange as recorded plus the raw response, which checks read (the record is for people). */
export interface SentExchange {
  record: RecordedExchange;
  response: { status: number; contentType: string | null; headers: Headers; body: string } | undefined;
}

/** A response body larger than this is not read on (the API's answers are a few KiB; an endless one must not fill memory). */
const maxResponseBytes = 16 * 1024 * 1024;

/** Request and response bodies are kept up to this many characters in the records (after redaction). */
const recordedTextLimit = 4000;

function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof TooLargeError) return `${error.message}; stopped reading`;
  if (error instanceof DOMException && error.name === 'TimeoutError')
    return `no answer within ${timeoutMs} ms (--timeout)`;
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

/**
 * Sends the request and records it; never throws. A request that gets no answer (refused, reset, timed out) is recorded
 * with its error, and the check reports it: a server that drops a connection on bad input is broken. scripts/commands/contract.ts
 * probes the server before the run, so an unreachable server stops the run with one line instead.
 * @example const { response } = await sendRequest(base, 5000, redact, { operationId, method: 'GET', path: '/v1/agents/x', ... });
 */
export async function sendRequest(
  baseUrl: string,
  timeoutMs: number,
  redact: Redact,
  request: OutgoingRequest,
): Promise<SentExchange> {
  const headers = new Headers();
  const shownHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower)) continue;
    // A name or value HTTP cannot carry is left out and shown so: the check then sees the server's answer to the rest.
    try {
      headers.set(lower, value);
      shownHeaders[lower] = redact(value);
    } catch {
      shownHeaders[lower] = '(not sendable in a header; left out)';
    }
  }
  if (request.authorization) headers.set('authorization', request.authorization.value);
  if (request.contentType !== undefined) headers.set('content-type', request.contentType);
  headers.set('accept', 'application/json, application/problem+json');
  const url = baseUrl + request.path;
  if (request.authorization) shownHeaders.authorization = request.authorization.label;
  if (request.contentType !== undefined) shownHeaders['content-type'] = request.contentType;
  const record: RecordedExchange = {
    operationId: request.operationId,
    request: {
      method: request.method,
      url: redact(url),
      headers: shownHeaders,
      body: request.body === undefined ? undefined : describeServerText(redact, request.body, recordedTextLimit),
    },
    response: undefined,
    error: undefined,
    durationMs: 0,
  };
  const started = performance.now();
  try {
    // A Uint8Array body makes fetch send no Content-Type of its own, so "no Content-Type" really sends none.
    const body = request.body === undefined ? undefined : new TextEncoder().encode(request.body);
    const answer = await fetch(url, {
      method: request.method,
      headers,
      body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    const text = await readCappedBody(answer, maxResponseBytes);
    record.durationMs = Math.round(performance.now() - started);
    const shown: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      shown[name] = redact(value);
    });
    record.response = {
      status: answer.status,
      headers: shown,
      body: describeServerText(redact, text, recordedTextLimit),
    };
    return {
      record,
      response: {
        status: answer.status,
        contentType: answer.headers.get('content-type'),
        headers: answer.headers,
        body: text,
      },
    };
  } catch (error) {
    record.durationMs = Math.round(performance.now() - started);
    record.error = redact(describeFetchError(error, timeoutMs));
    return { record, response: undefined };
  }
}
