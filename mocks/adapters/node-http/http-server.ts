// The standalone server: a thin node:http adapter that calls the core directly (no msw on this path: it is the fast one).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { answerSync, createMockCore, type MockCore, type MockCoreOptions } from '../../assembly/mock-core.ts';
import { send } from '../../http/http-send.ts';
import { exposureWarning } from '../../http/exposure.ts';
import { type LingerLimits, lingerAfter, refuseEarly } from '../../http/lingering-close.ts';
import { createLimitedServer, HTTP_LIMITS, type HttpLimits } from '../../http/limited-server.ts';
import { closeServer } from '../../http/server-close.ts';
import { consoleAnswer } from '../../http/console-page.ts';
import { consoleLogger } from '../../domain/logger.ts';
import { MAX_BODY_BYTES, type MockRequest, type MockResponse } from '../../core/mock-http.ts';
import { problemResponse } from '../../core/problems.ts';
import {
  controlTokenGuard,
  exchangeOf,
  type Exchange,
  type Guard,
  hostGuard,
  urlLengthGuard,
  originFormGuard,
} from '../../http/request-guards.ts';

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0']);

/** Who may reach a server over the network, checked before the core sees a request. */
interface ExposureOptions {
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

/** What a listener needs besides the core: its body limits and who may reach it. */
export type ListenerOptions = Partial<LingerLimits> & ExposureOptions;

/**
 * The request listener over a core: usable with any node:http server. A chain of small guards (URL length, Host
 * allow-list, control token: request-guards.ts) runs first; then the body is read (bounded) and the core answers. The
 * third argument says node emitted the request as `checkContinue` (Expect: 100-continue): then 100 Continue is sent
 * only when the body will be read.
 * @example createServer(createRequestListener(createMockCore())).listen(4010)
 */
export function createRequestListener(
  core: MockCore,
  options: ListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse, expectsContinue?: boolean) => void {
  const limits: LingerLimits = {
    drainLimitBytes: options.drainLimitBytes ?? HTTP_LIMITS.drainLimitBytes,
    lingerMs: options.lingerMs ?? HTTP_LIMITS.lingerMs,
  };
  const guards: Guard[] = [
    urlLengthGuard,
    originFormGuard,
    hostGuard(options.allowedHosts),
    ...(options.controlToken === undefined ? [] : [controlTokenGuard(options.controlToken)]),
  ];
  // A core made by createMockCore answers synchronously when it can; any other object with `handle` still works.
  const answerNow: (request: MockRequest) => MockResponse | Promise<MockResponse> =
    core[answerSync]?.bind(core) ?? ((request) => core.handle(request));
  const answer = (res: ServerResponse, request: MockRequest, close: boolean): void => {
    // Written at once when the core answered synchronously (the common case in memory): no promise, no microtask.
    const answered = answerNow(request);
    if (!(answered instanceof Promise)) {
      send(res, answered, close);
      return;
    }
    answered.then(
      (response) => send(res, response, close),
      () => send(res, problemResponse('internal', { detail: 'The fake backend failed to handle the request.' }), true),
    );
  };
  return (req, res, expectsContinue = false) => {
    const exchange = exchangeOf(req, res, expectsContinue);
    for (const guard of guards) {
      const refusal = guard(exchange);
      if (refusal) {
        refuseEarly(req, res, refusal, limits);
        return;
      }
    }
    if (exchange.path.startsWith('/__mock/ui')) {
      const page = consoleAnswer({ method: req.method ?? 'GET', path: exchange.path, headers: exchange.headers });
      if (page) {
        refuseEarly(req, res, page, limits);
        return;
      }
    }
    const request: MockRequest = {
      method: req.method ?? 'GET',
      path: exchange.path,
      query: exchange.query,
      // node lower-cases names; only set-cookie is ever an array, and the core never reads it.
      headers: exchange.headers,
      body: null,
    };
    readBody(exchange, limits, {
      read: (body) => {
        request.body = body;
        answer(res, request, false);
      },
      tooLarge: () => {
        request.bodyTooLarge = true;
        answer(res, request, true);
      },
    });
  };
}

/**
 * Reads the body, at most MAX_BODY_BYTES of it: `read` gets it (null when the request has none), `tooLarge` is called
 * instead once it is known to be larger (from Content-Length, or while it arrives), after the rest is set to drain.
 */
function readBody(
  { req, res, expectsContinue }: Exchange,
  limits: LingerLimits,
  then: { read: (body: Uint8Array | null) => void; tooLarge: () => void },
): void {
  const declared = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined && (declared === undefined || declared === '0')) {
    then.read(null);
    return;
  }
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) {
    // Under Expect: 100-continue no 100 is sent: the client learns the answer without sending the body at all.
    lingerAfter(req, 0, limits);
    then.tooLarge();
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
      lingerAfter(req, received, limits);
      then.tooLarge();
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = (): void => {
    const buffer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    then.read(buffer ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) : new Uint8Array(0));
  };
  req.on('data', onData);
  req.on('end', onEnd);
  // An aborted upload needs no answer: there is nobody left to read it.
  req.on('error', () => req.destroy());
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
  // The listener never waits for the body of a request that has none (readBody answers at once): node may skip its
  // stream life cycle, work a GET would otherwise pay for nothing.
  const server = createLimitedServer(limits, listener, { optimizeEmptyRequests: true });
  // With a listener here node does not send 100 Continue by itself: the listener sends it only for a body it will read.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => listener(req, res, true));
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
    close: () => closeServer(server),
  };
}
