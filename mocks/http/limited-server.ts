// The node:http server both the fake and the proxy run on: the HTTP-layer limits (header size, timeouts, how much of an
// unwanted body is drained) and node's parse errors and timeouts answered as problem+json on a closed connection.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { rawProblem } from './http-send.ts';
import { lingering } from './lingering-close.ts';
import { MAX_BODY_BYTES } from '../core/mock-http.ts';

// node:http taken as Node's own module object, not through an ESM import: building an ESM namespace of node:http reads
// every export, and its lazy WebSocket getter loads undici at each start of the fake or the proxy (its cost:
// docs/performance.md, "Cold start"); a server that never fetches needs none of it.
const { createServer } = process.getBuiltinModule('node:http');

/** The HTTP-layer limits of a server. */
export interface HttpLimits {
  maxHeaderSize: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  connectionsCheckingIntervalMs: number;
  drainLimitBytes: number;
  lingerMs: number;
}

/** node:http limits, set on every server the fake and the proxy start. */
export const HTTP_LIMITS: Readonly<HttpLimits> = {
  /** Bytes of request line + headers (node's default is 16 KiB too; set explicitly so it is documented). */
  maxHeaderSize: 16_384,
  /** A client must finish sending its headers within this time. */
  headersTimeoutMs: 10_000,
  /** A client must finish sending its whole request within this time. */
  requestTimeoutMs: 30_000,
  /** Idle keep-alive connections are closed after this time. */
  keepAliveTimeoutMs: 5_000,
  /** How often node checks the two timeouts above (its default, 30 s, would let a stalled client hold a socket that long). */
  connectionsCheckingIntervalMs: 1_000,
  /**
   * Bytes of an oversized body drained (not kept) after answering 413, before the connection is cut. Closing at once
   * would reset the connection under a client that writes its whole body before reading (Python's http.client, many
   * SDKs): it would see a broken pipe, not the 413. Past the bound the connection is cut (Expect: 100-continue avoids it).
   */
  drainLimitBytes: 8 * MAX_BODY_BYTES,
  /** After a 413, the connection is closed once the client has sent nothing for this long (or once its body is in). */
  lingerMs: 2_000,
};

/**
 * A node:http server with the HTTP-layer `limits` (header size, timeouts), whose parse errors and timeouts are answered
 * with a problem+json and a closed connection: the fake's server, and the proxy's. `optimizeEmptyRequests` is node's
 * option (node 24; older versions ignore it): a request without Content-Length or Transfer-Encoding skips the readable
 * stream's life cycle ('end', 'close', the dump after the answer), for a listener that never reads such a body.
 * @example const server = createLimitedServer(HTTP_LIMITS, listener);
 */
export function createLimitedServer(
  limits: HttpLimits,
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  options: { optimizeEmptyRequests?: boolean } = {},
): Server {
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderSize,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.connectionsCheckingIntervalMs,
      optimizeEmptyRequests: options.optimizeEmptyRequests === true,
    },
    listener,
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET' || lingering.has(socket)) {
      socket.destroy();
      return;
    }
    const reply =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? rawProblem('headers-too-large', `The request line and headers are larger than ${limits.maxHeaderSize} bytes.`)
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? rawProblem('request-timeout', 'The request was not received in time.')
          : rawProblem('bad-request', 'The request is not valid HTTP/1.1.');
    socket.end(reply);
  });
  return server;
}
