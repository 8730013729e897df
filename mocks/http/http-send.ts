// Writing a MockResponse to node:http, and the raw answer for a socket node could not parse into a request.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { MockResponse } from '../core/mock-http.ts';
import { problemResponse, type ProblemKind } from '../core/problems.ts';

/**
 * Writes a response (with its length, so node needs no chunked encoding); `close` asks node to close the connection.
 * @example send(res, problemResponse('not-found', { detail: 'No such thing.' }))
 */
export function send(res: ServerResponse, response: MockResponse, close = false): void {
  if (res.destroyed || res.headersSent) return;
  if (response.events) {
    sendEvents(res, response, response.events);
    return;
  }
  if (close) response.headers.connection = 'close';
  const { parts } = response;
  let length = 0;
  if (parts === undefined) length = Buffer.byteLength(response.body);
  else for (const part of parts) length += Buffer.byteLength(part);
  response.headers['content-length'] = String(length);
  try {
    res.writeHead(response.status, response.headers);
  } catch {
    // A header value node refuses (it would be a bug of the core) must not become an unhandled rejection that kills
    // the process: answer a plain 500 instead.
    const fallback = problemResponse('internal', { detail: 'The fake backend built an invalid response header.' });
    res.writeHead(fallback.status, {
      ...fallback.headers,
      'content-length': String(Buffer.byteLength(fallback.body)),
      connection: 'close',
    });
    res.end(fallback.body);
    return;
  }
  if (parts === undefined) res.end(response.body);
  else writeParts(res, parts, 0);
}

/** Writes `parts` from `from` on, waiting for the socket to drain after each one it does not take at once. */
function writeParts(res: ServerResponse, parts: readonly string[], from: number): void {
  for (let index = from; index < parts.length; index += 1) {
    if (res.destroyed) return;
    if (!res.write(parts[index])) {
      res.once('drain', () => writeParts(res, parts, index + 1));
      return;
    }
  }
  res.end();
}

/** A comment line this often keeps an idle stream open through proxies and tells a gone client from a quiet one. */
const HEARTBEAT_MS = 15_000;

/** Writes a stream's first bytes, then what it pushes, until the client goes (the stream is then stopped). */
function sendEvents(res: ServerResponse, response: MockResponse, events: NonNullable<MockResponse['events']>): void {
  res.writeHead(response.status, response.headers);
  res.write(response.body);
  const stop = events((text) => res.write(text));
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  res.once('close', () => {
    clearInterval(heartbeat);
    stop();
  });
}

/**
 * A whole HTTP/1.1 answer as text, for a socket that never became a request (node's clientError).
 * @example socket.end(rawProblem('bad-request', 'The request is not valid HTTP/1.1.'))
 */
export function rawProblem(kind: ProblemKind, detail: string): string {
  const response = problemResponse(kind, { detail });
  const body = Buffer.from(response.body);
  return `HTTP/1.1 ${response.status} ${kind}\r\nContent-Type: application/problem+json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${response.body}`;
}

export function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares digests in constant time, so the answer's timing says nothing about how much of a guess was right. */
export function tokenMatches(expected: Buffer, given: string | undefined): boolean {
  return given !== undefined && timingSafeEqual(expected, digest(given));
}
