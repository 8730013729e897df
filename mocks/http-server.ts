// The standalone server: a thin node:http adapter that calls the core directly (no msw on this path: it is the fast one).
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { CONTROL_PREFIX, createMockCore, type MockCore, type MockCoreOptions } from './core.ts';
import { createHostCheck, isLoopbackHost } from './host-check.ts';
import { consoleLogger } from './logger.ts';
import { MAX_BODY_BYTES, type MockRequest, type MockResponse } from './mock-http.ts';
import { problemResponse, type ProblemKind } from './problems.ts';
import { SINGLE_HEADERS } from './repeated-headers.ts';

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
  lingerMs: number;
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
  /**
   * Bytes of an oversized body drained (not kept) after answering 413, before the connection is cut. Closing at once
   * would reset the connection under a client that writes its whole body before reading (Python's http.client, many
   * SDKs): it would see a broken pipe, not the 413. Past the bound the connection is cut (Expect: 100-continue avoids it).
   */
  drainLimitBytes: 8 * MAX_BODY_BYTES,
  /** After a 413, the connection is closed once the client has sent nothing for this long (or once its body is in). */
  lingerMs: 2_000,
};

/** Sockets whose request was already answered while its body kept arriving: a parse error there gets no second answer. */
const lingering = new WeakSet<Socket>();

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0']);

/** The header that carries the control-plane token (`--control-token`). */
export const CONTROL_TOKEN_HEADER = 'x-mock-control-token';

/** Who may reach a server over the network, checked before the core sees a request. */
export interface ExposureOptions {
  /**
   * Host header values accepted besides loopback names and addresses (localhost, *.localhost, 127.0.0.0/8, [::1]): exact
   * names, `.domain` for a domain and its subdomains, or `*` for any. Every other Host gets a 403 (DNS rebinding guard).
   */
  allowedHosts?: readonly string[];
  /** When set, every control-plane request must carry it in `X-Mock-Control-Token` (else 403). */
  controlToken?: string;
}

export interface MockServerOptions extends MockCoreOptions {
  /** Port to bind; 0 picks a free one (default 4010). */
  port?: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Serve an existing core instead of creating one (its options then come from it). */
  core?: MockCore;
  /** Tighter or looser HTTP limits than HTTP_LIMITS (tests use short timeouts). */
  httpLimits?: Partial<HttpLimits>;
  /** Host names accepted besides the loopback ones (and the bound address); see ExposureOptions. */
  allowedHosts?: readonly string[];
  /** Token the control plane requires (`X-Mock-Control-Token`); needed when `host` is not a loopback address. */
  controlToken?: string;
  /** Leave the control plane without a token on a non-loopback address (anyone on the network can reset the fake). */
  unsafeOpenControlPlane?: boolean;
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

/** Writes a core response (the proxy's own answers too); a header node refuses becomes a plain 500. */
export function send(res: ServerResponse, response: MockResponse, close = false): void {
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

/** A whole HTTP/1.1 problem answer as text, for a socket node's parser gave up on (clientError). */
export function rawProblem(kind: ProblemKind, detail: string): string {
  const response = problemResponse(kind, { detail });
  const body = Buffer.from(response.body);
  return `HTTP/1.1 ${response.status} ${kind}\r\nContent-Type: application/problem+json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${response.body}`;
}

/** What a listener needs besides the core: its body limits and who may reach it. */
export type ListenerOptions = Partial<Pick<HttpLimits, 'drainLimitBytes' | 'lingerMs'>> & ExposureOptions;

/** Node keeps the first of repeated headers silently; these are joined instead, so the core can refuse them. */
function joinRepeated(req: IncomingMessage): Record<string, string | undefined> {
  const headers = req.headers as Record<string, string | undefined>;
  const raw = req.rawHeaders;
  let joined: Record<string, string | undefined> | undefined;
  for (const name of SINGLE_HEADERS) {
    let count = 0;
    for (let index = 0; index < raw.length; index += 2) {
      const key = raw[index] ?? '';
      if (key.length === name.length && key.toLowerCase() === name) count += 1;
    }
    if (count > 1) {
      joined ??= { ...headers };
      joined[name] = req.headersDistinct[name]?.join(', ');
    }
  }
  return joined ?? headers;
}

/**
 * The request listener over a core: usable with any node:http server. The third argument says node emitted the request
 * as `checkContinue` (Expect: 100-continue): then 100 Continue is sent only when the body will be read.
 * @example createServer(createRequestListener(createMockCore())).listen(4010)
 */
export function createRequestListener(
  core: MockCore,
  options: ListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse, expectsContinue?: boolean) => void {
  const drainLimitBytes = options.drainLimitBytes ?? HTTP_LIMITS.drainLimitBytes;
  const lingerMs = options.lingerMs ?? HTTP_LIMITS.lingerMs;
  const hostAllowed = createHostCheck(options.allowedHosts);
  const tokenDigest = options.controlToken === undefined ? undefined : digest(options.controlToken);
  const answer = (res: ServerResponse, request: MockRequest, close: boolean): void => {
    core.handle(request).then(
      (response) => send(res, response, close),
      () => send(res, problemResponse('internal', { detail: 'The fake backend failed to handle the request.' }), true),
    );
  };
  return (req, res, expectsContinue = false) => {
    const target = req.url ?? '/';
    if (target.length > MAX_URL_LENGTH) {
      refuse(
        req,
        res,
        problemResponse('uri-too-long', { detail: `The request target is longer than ${MAX_URL_LENGTH} characters.` }),
      );
      return;
    }
    const question = target.indexOf('?');
    const path = question === -1 ? target : target.slice(0, question);
    const headers = joinRepeated(req);
    const host = headers.host;
    // A repeated Host (a comma) is left to the core, which answers 400 for it.
    if (host !== undefined && !host.includes(',') && !hostAllowed(host)) {
      const name = host.slice(0, 200);
      refuse(
        req,
        res,
        problemResponse('forbidden-host', {
          detail: `The Host ${name} is not a loopback name or address; if you meant to reach the fake by this name, start it with --allowed-host ${name.replace(/:\d+$/, '')}.`,
          instance: path.slice(0, 2048),
        }),
      );
      return;
    }
    if (
      tokenDigest !== undefined &&
      (path.startsWith(CONTROL_PREFIX) || path === '/__mock') &&
      !(req.method === 'OPTIONS' && headers['access-control-request-method'] !== undefined) &&
      !tokenMatches(tokenDigest, headers[CONTROL_TOKEN_HEADER])
    ) {
      refuse(
        req,
        res,
        problemResponse('control-token', {
          detail: `The control plane needs the token given with --control-token, in the ${CONTROL_TOKEN_HEADER} header.`,
          instance: path.slice(0, 2048),
        }),
      );
      return;
    }
    const request: MockRequest = {
      method: req.method ?? 'GET',
      path,
      query: question === -1 ? '' : target.slice(question + 1),
      // node lower-cases names; only set-cookie is ever an array, and the core never reads it.
      headers,
      body: null,
    };
    const declared = req.headers['content-length'];
    if (req.headers['transfer-encoding'] === undefined && (declared === undefined || declared === '0')) {
      answer(res, request, false);
      return;
    }
    if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) {
      // Under Expect: 100-continue no 100 is sent: the client learns the answer without sending the body at all.
      tooLarge(req, res, request);
      return;
    }
    if (expectsContinue) res.writeContinue();
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > MAX_BODY_BYTES) {
        req.off('data', onData);
        req.off('end', onEnd);
        chunks.length = 0;
        tooLarge(req, res, request, received);
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

  function tooLarge(req: IncomingMessage, res: ServerResponse, request: MockRequest, received = 0): void {
    request.bodyTooLarge = true;
    lingerAfter(req, received);
    answer(res, request, true);
  }

  /** Answers before the body is read (if there is one), then closes the connection the same careful way as a 413. */
  function refuse(req: IncomingMessage, res: ServerResponse, response: MockResponse): void {
    const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
    if (hasBody) lingerAfter(req, 0);
    else req.resume();
    send(res, response, true);
  }

  /**
   * Lingering close (as Apache and nginx do): node closes a `Connection: close` answer as soon as it is written, which
   * resets the connection under a client still writing its body, so the client sees a broken pipe instead of the answer.
   * Instead the rest of the body is read and discarded, up to `drainLimitBytes` in all; the connection closes once the
   * body is in, once the client has been silent for `lingerMs`, or past the bound.
   */
  function lingerAfter(req: IncomingMessage, alreadyReceived: number): void {
    const socket = req.socket;
    lingering.add(socket);
    let drained = alreadyReceived;
    let timer: NodeJS.Timeout | undefined;
    let answered = false;
    const cut = (): void => {
      socket.destroy();
    };
    const wait = (): void => {
      clearTimeout(timer);
      timer = setTimeout(cut, lingerMs);
      timer.unref();
    };
    req.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > drainLimitBytes) cut();
      else if (answered) wait();
    });
    req.on('error', cut);
    req.resume();
    const closeWhenWritten = socket.destroySoon.bind(socket);
    socket.destroySoon = () => {
      answered = true;
      if (req.complete) {
        closeWhenWritten();
        return;
      }
      req.once('end', closeWhenWritten);
      wait();
    };
    socket.once('close', () => clearTimeout(timer));
  }
}

/** SHA-256 of a control token: compared digest to digest, so lengths never leak. */
export function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares digests in constant time, so the answer's timing says nothing about how much of a guess was right. */
export function tokenMatches(expected: Buffer, given: string | undefined): boolean {
  return given !== undefined && timingSafeEqual(expected, digest(given));
}

/**
 * The warning to print before serving on `host`, or undefined on a loopback address. Throws when the address is not a
 * loopback one and the control plane would be left without a token and without an explicit opt-out.
 * @example exposureWarning('0.0.0.0', { controlToken: 's3cret' }) // 'warning: listening on 0.0.0.0 exposes the fake…'
 */
export function exposureWarning(
  host: string,
  options: Pick<MockServerOptions, 'controlToken' | 'unsafeOpenControlPlane'>,
): string | undefined {
  if (isLoopbackHost(host)) return undefined;
  if (options.controlToken === undefined && options.unsafeOpenControlPlane !== true) {
    throw new Error(
      `--host ${host} makes the fake reachable from the network, where anyone could reset it or read its journal through the control plane; pass --control-token <secret> (or MOCK_CONTROL_TOKEN), or --unsafe-open-control-plane to leave it open`,
    );
  }
  const control =
    options.controlToken === undefined
      ? 'its control plane (/__mock/) is OPEN to anyone who can connect (--unsafe-open-control-plane)'
      : `its control plane (/__mock/) needs the token in ${CONTROL_TOKEN_HEADER}`;
  return `warning: listening on ${host} exposes the fake to the network: /v1 accepts any token signed with its JWT secret (the default one is public; set MOCK_JWT_SECRET), ${control}, and requests must name a loopback host or one given with --allowed-host.`;
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
  const warning = exposureWarning(host, options);
  const listener = createRequestListener(core, {
    drainLimitBytes: limits.drainLimitBytes,
    lingerMs: limits.lingerMs,
    // The address it was told to bind is a name the user means to use; the wildcard addresses are not names.
    allowedHosts: [...(options.allowedHosts ?? []), ...(WILDCARD_ADDRESSES.has(host) ? [] : [host])],
    ...(options.controlToken !== undefined && { controlToken: options.controlToken }),
  });
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderSize,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.connectionsCheckingIntervalMs,
    },
    listener,
  );
  // With a listener here, node no longer answers 100 Continue by itself: the listener sends it only for a body it will read.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => listener(req, res, true));
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
  if (warning) logger.warn(warning);
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
