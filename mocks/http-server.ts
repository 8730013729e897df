// The standalone server: a thin node:http adapter that calls the core directly (no msw on this path: it is the fast one).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createMockCore, type MockCore, type MockCoreOptions } from './core.ts';
import { consoleLogger } from './logger.ts';
import { MAX_BODY_BYTES, type MockRequest, type MockResponse } from './mock-http.ts';
import { problemResponse, type ProblemKind } from './problems.ts';

/** Longest request target accepted (method line URL); longer ones get 414. Header blocks over 16 KiB get 431 from node. */
export const MAX_URL_LENGTH = 8192;
/** The HTTP-layer limits of a server. */
export interface HttpLimits {
  maxHeaderSize: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  connectionsCheckingIntervalMs: number;
  drainLimitBytes: number;
}

/** node:http limits, set on every server this module starts. */
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
  /** Bytes of an oversized body drained (not kept) after answering 413, before the connection is cut. */
  drainLimitBytes: 8 * MAX_BODY_BYTES,
};

export interface MockServerOptions extends MockCoreOptions {
  /** Port to bind; 0 picks a free one (default 4010). */
  port?: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Serve an existing core instead of creating one (its options then come from it). */
  core?: MockCore;
  /** Tighter or looser HTTP limits than HTTP_LIMITS (tests use short timeouts). */
  httpLimits?: Partial<HttpLimits>;
}

/** A running server. */
export interface RunningMockServer {
  /** e.g. `http://127.0.0.1:4010` */
  url: string;
  port: number;
  host: string;
  core: MockCore;
  server: Server;
  /** Stops accepting, closes every connection and resolves when the server is closed. */
  close(): Promise<void>;
}

function send(res: ServerResponse, response: MockResponse, close = false): void {
  if (res.destroyed || res.headersSent) return;
  if (close) response.headers.connection = 'close';
  // An explicit length spares node the chunked encoding it would otherwise use after writeHead.
  response.headers['content-length'] = String(Buffer.byteLength(response.body));
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
  res.end(response.body);
}

function rawProblem(kind: ProblemKind, detail: string): string {
  const response = problemResponse(kind, { detail });
  const body = Buffer.from(response.body);
  return `HTTP/1.1 ${response.status} ${kind}\r\nContent-Type: application/problem+json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${response.body}`;
}

/**
 * The request listener over a core: usable with any node:http server.
 * @example createServer(createRequestListener(createMockCore())).listen(4010)
 */
export function createRequestListener(
  core: MockCore,
  drainLimitBytes: number = HTTP_LIMITS.drainLimitBytes,
): (req: IncomingMessage, res: ServerResponse) => void {
  const answer = (res: ServerResponse, request: MockRequest, close: boolean): void => {
    core.handle(request).then(
      (response) => send(res, response, close),
      () => send(res, problemResponse('internal', { detail: 'The fake backend failed to handle the request.' }), true),
    );
  };
  return (req, res) => {
    const target = req.url ?? '/';
    if (target.length > MAX_URL_LENGTH) {
      req.resume();
      send(
        res,
        problemResponse('uri-too-long', { detail: `The request target is longer than ${MAX_URL_LENGTH} characters.` }),
        true,
      );
      return;
    }
    const question = target.indexOf('?');
    const request: MockRequest = {
      method: req.method ?? 'GET',
      path: question === -1 ? target : target.slice(0, question),
      query: question === -1 ? '' : target.slice(question + 1),
      // node lower-cases names; only set-cookie is ever an array, and the core never reads it.
      headers: req.headers as Record<string, string | undefined>,
      body: null,
    };
    const declared = req.headers['content-length'];
    if (req.headers['transfer-encoding'] === undefined && (declared === undefined || declared === '0')) {
      answer(res, request, false);
      return;
    }
    if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) {
      tooLarge(req, res, request);
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > MAX_BODY_BYTES) {
        req.off('data', onData);
        req.off('end', onEnd);
        chunks.length = 0;
        tooLarge(req, res, request);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      const buffer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      request.body = buffer ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) : new Uint8Array(0);
      answer(res, request, false);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    // An aborted upload needs no answer: there is nobody left to read it.
    req.on('error', () => req.destroy());
  };

  function tooLarge(req: IncomingMessage, res: ServerResponse, request: MockRequest): void {
    // Answer at once, then drain (discard) what the client still sends so it can read the answer; cut it off past a bound.
    let drained = 0;
    req.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > drainLimitBytes) req.socket.destroy();
    });
    req.resume();
    request.bodyTooLarge = true;
    answer(res, request, true);
  }
}

/**
 * Starts the fake backend on node:http.
 * @example
 * const server = await startMockServer({ port: 0 });
 * await fetch(`${server.url}/__mock/health`);
 * await server.close();
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<RunningMockServer> {
  const core = options.core ?? createMockCore(options);
  const logger = options.logger ?? consoleLogger;
  const host = options.host ?? '127.0.0.1';
  const limits = { ...HTTP_LIMITS, ...options.httpLimits };
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderSize,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.connectionsCheckingIntervalMs,
    },
    createRequestListener(core, limits.drainLimitBytes),
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
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
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `port ${options.port ?? 4010} on ${host} is already in use; stop the other process or pick another with --port (0 = any free port)`,
            )
          : error,
      );
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(options.port ?? 4010, host);
  });
  server.on('error', (error) => logger.error(`server error: ${error.message}`));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 4010);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    host,
    core,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
