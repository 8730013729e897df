// The validating proxy: a node:http server with the fake's own limits and guards (Host check, control token, cross-site
// refusal) that forwards every request to the upstream, streams the answer back, and checks both against the spec.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { CONTROL_PREFIX } from '../mocks/core/control-prefix.ts';
import { Coverage } from '../mocks/core/steering/coverage.ts';
import { refuseCrossSite, withCors } from '../mocks/core/request/cors.ts';
import { exposureWarning } from '../mocks/http/exposure.ts';
import { send } from '../mocks/http/http-send.ts';
import { createLimitedServer, HTTP_LIMITS, type HttpLimits } from '../mocks/http/limited-server.ts';
import { closeServer } from '../mocks/http/server-close.ts';
import { lingerAfter, refuseEarly, type LingerLimits } from '../mocks/http/lingering-close.ts';
import { consoleLogger, type Logger } from '../mocks/domain/logger.ts';
import { MAX_BODY_BYTES, type MockRequest, type MockResponse } from '../mocks/core/mock-http.ts';
import { problemResponse } from '../mocks/core/problems.ts';
import {
  controlTokenGuard,
  exchangeOf,
  hostGuard,
  originFormGuard,
  urlLengthGuard,
  type Guard,
} from '../mocks/http/request-guards.ts';
import { getOperation, type RuleOrigin } from '../spec/index.ts';
import { answerControl, type ProxyControlState } from './control-routes.ts';
import { consoleAnswer } from '../mocks/http/console-page.ts';
import { decodedBody } from './decoded-body.ts';
import { Conversation } from './conversation.ts';
import { checkExchange, type ProxyViolation } from './exchange-check.ts';
import type { RecordingWriter } from './recording.ts';
import { credentialsOf, PROXY_ONLY_HEADERS, SecretSet } from './secrets.ts';
import { answerOf, type Upstream, type UpstreamFault } from './upstream.ts';
import { ViolationLog } from './violation-log.ts';

/** Bytes of an answer the proxy checks; a longer one is passed on whole and judged by its status alone. */
const MAX_CHECKED_RESPONSE_BYTES = 8 * 1_048_576;
/** How long the upstream may take to answer completely by default (then 504). */
const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

export interface ProxyServerOptions {
  upstream: Upstream;
  /** Port to bind; 0 picks a free one (default 4010). */
  port?: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  allowedHosts?: readonly string[];
  controlToken?: string;
  unsafeOpenControlPlane?: boolean;
  /** Milliseconds the upstream has for its whole answer (default 30 s): then 504. */
  timeoutMs?: number;
  /** Answer 502 problem+json naming the violation instead of passing a violating answer on. */
  failOnViolation?: boolean;
  recording?: RecordingWriter;
  /** Credentials known in advance (API_TOKEN): hidden even before the app first sends them. */
  secrets?: SecretSet;
  /** Where violation lines go (default stderr through the logger). */
  print?: (line: string) => void;
  logger?: Logger;
  httpLimits?: Partial<HttpLimits>;
}

export interface RunningProxy {
  url: string;
  port: number;
  host: string;
  server: Server;
  violations: ViolationLog;
  coverage: Coverage;
  /** What the proxy remembers across exchanges (deploys, minted ids), cleared with the violations. */
  conversation: Conversation;
  close(): Promise<void>;
}

/** Headers that describe one connection, not the message: never forwarded either way (RFC 9110 section 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
]);

/** The headers passed on; `dropped` names more to keep back (the request's headers meant for the proxy itself). */
function forwardedHeaders(
  headers: IncomingMessage['headersDistinct'],
  dropped: ReadonlySet<string> = new Set(),
): Record<string, string[]> {
  const kept: Record<string, string[]> = {};
  const named = new Set(
    (headers.connection ?? []).flatMap((value) => value.split(',').map((name) => name.trim().toLowerCase())),
  );
  for (const [name, values] of Object.entries(headers))
    if (values !== undefined && !HOP_BY_HOP.has(name) && !named.has(name) && !dropped.has(name)) kept[name] = values;
  return kept;
}

/** What one forwarded exchange produced, handed to `finish`. */
interface Outcome {
  req: IncomingMessage;
  startedAt: number;
  requestBody: Buffer | undefined;
  answer: IncomingMessage | undefined;
  responseBody: Buffer | undefined;
  fault: string | undefined;
}

/**
 * Starts the proxy in front of `options.upstream`.
 * @example
 * const proxy = await startProxyServer({ upstream: createUpstream('https://staging.example.com'), port: 0 });
 * await fetch(`${proxy.url}/v1/agents/agt_1`, { headers: { authorization: `Bearer ${token}` } });
 * proxy.violations.report().groups; // what the real server got wrong
 */
export async function startProxyServer(options: ProxyServerOptions): Promise<RunningProxy> {
  const logger = options.logger ?? consoleLogger;
  const host = options.host ?? '127.0.0.1';
  const limits = { ...HTTP_LIMITS, ...options.httpLimits };
  const warning = exposureWarning(host, options)?.replace('exposes the fake', 'exposes the proxy');
  const secrets = options.secrets ?? new SecretSet();
  const violations = new ViolationLog(options.print ?? ((line) => logger.warn(line)));
  const coverage = new Coverage();
  const conversation = new Conversation();
  const state = { upstream: options.upstream.baseUrl, violations, coverage, conversation };
  const listener = createProxyListener({
    ...options,
    host,
    limits,
    secrets,
    violations,
    coverage,
    conversation,
    state,
  });
  const server = createLimitedServer(limits, listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `port ${options.port ?? 4010} on ${host} is already in use; pick another with --port (0 = any free port)`,
            )
          : error,
      ),
    );
    server.listen(options.port ?? 4010, host, resolve);
  });
  server.on('error', (error) => logger.error(`proxy error: ${error.message}`));
  if (warning) logger.warn(warning);
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 4010);
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    host,
    server,
    violations,
    coverage,
    conversation,
    close: () => {
      const closed = closeServer(server);
      options.upstream.close();
      return closed;
    },
  };
}

interface ListenerContext extends ProxyServerOptions {
  host: string;
  limits: LingerLimits;
  secrets: SecretSet;
  violations: ViolationLog;
  coverage: Coverage;
  conversation: Conversation;
  state: ProxyControlState;
}

function createProxyListener(context: ListenerContext): (req: IncomingMessage, res: ServerResponse) => void {
  // The fake's own guards, in its order; then, for the control plane, its refusal of other sites.
  const guards: Guard[] = [
    urlLengthGuard,
    originFormGuard,
    hostGuard([...(context.allowedHosts ?? []), context.host]),
    ...(context.controlToken === undefined ? [] : [controlTokenGuard(context.controlToken)]),
  ];
  return (req, res) => {
    const exchange = exchangeOf(req, res, false);
    for (const guard of guards) {
      const refusal = guard(exchange);
      if (refusal) {
        refuseEarly(req, res, refusal, context.limits);
        return;
      }
    }
    if (exchange.path.startsWith('/__mock/ui')) {
      // The console, as the fake serves it: its page reads this proxy's control plane (findings, coverage).
      const page = consoleAnswer({ method: req.method ?? 'GET', path: exchange.path, headers: exchange.headers });
      if (page) {
        refuseEarly(req, res, page, context.limits);
        return;
      }
    }
    if (exchange.path.startsWith(CONTROL_PREFIX) || exchange.path === '/__mock') {
      const request: MockRequest = { ...exchange, method: req.method ?? 'GET', body: null };
      const refusal = refuseCrossSite('*', request);
      if (refusal) {
        refuseEarly(req, res, refusal, context.limits);
        return;
      }
      req.resume();
      send(res, withCors('*', request, answerControl(context.state, request), true));
      return;
    }
    forward(context, req, res, exchange.target);
  };
}

function forward(context: ListenerContext, req: IncomingMessage, res: ServerResponse, target: string): void {
  const startedAt = performance.now();
  const method = req.method ?? 'GET';
  context.secrets.remember(credentialsOf(req.headers, target));
  const declared = Number(req.headers['content-length'] ?? '0');
  const tooLarge = (alreadyReceived: number): void => {
    lingerAfter(req, alreadyReceived, context.limits);
    send(
      res,
      problemResponse('payload-too-large', { detail: `The request body is larger than ${MAX_BODY_BYTES} bytes.` }),
      true,
    );
  };
  if (declared > MAX_BODY_BYTES) {
    tooLarge(0);
    return;
  }
  const upstreamUrl = context.upstream.baseUrl;
  const outgoing = context.upstream.request(method, target, forwardedHeaders(req.headersDistinct, PROXY_ONLY_HEADERS));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    outgoing.destroy(new Error('timeout'));
  }, context.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS);
  const requestChunks: Buffer[] = [];
  let received = 0;
  const onData = (chunk: Buffer): void => {
    received += chunk.length;
    if (received > MAX_BODY_BYTES) {
      // Once: from here the lingering close drains (and bounds) the rest of the body.
      req.off('data', onData);
      clearTimeout(timer);
      req.unpipe(outgoing);
      outgoing.destroy();
      tooLarge(received);
      return;
    }
    requestChunks.push(chunk);
  };
  req.on('data', onData);
  req.pipe(outgoing);
  req.on('error', () => outgoing.destroy());
  const outcome: Outcome = {
    req,
    startedAt,
    requestBody: undefined,
    answer: undefined,
    responseBody: undefined,
    fault: undefined,
  };
  void answerOf(outgoing, upstreamUrl).then((answer) => {
    if (received > MAX_BODY_BYTES) return;
    outcome.requestBody = received === 0 ? undefined : Buffer.concat(requestChunks);
    if ('kind' in answer) {
      clearTimeout(timer);
      const fault: UpstreamFault = timedOut
        ? {
            kind: 'timeout',
            detail: `The upstream ${upstreamUrl} did not answer within ${context.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS} ms (--timeout).`,
          }
        : answer;
      outcome.fault = fault.detail;
      send(
        res,
        problemResponse(fault.kind === 'timeout' ? 'upstream-timeout' : 'upstream-unreachable', {
          detail: fault.detail,
          instance: req.url?.split('?')[0]?.slice(0, 2048) ?? '/',
        }),
      );
      void finish(context, outcome);
      return;
    }
    outcome.answer = answer;
    relay(context, outcome, res, () => clearTimeout(timer));
  });
}

/**
 * Passes the upstream's answer on: streamed as it arrives (a copy kept for the check, up to its bound), or, with
 * --fail-on-violation, held until checked so a violating answer can still be replaced by a 502. An answer past the
 * bound is streamed from there on, what was held first and then every chunk, the one that crossed the bound included.
 */
function relay(context: ListenerContext, outcome: Outcome, res: ServerResponse, done: () => void): void {
  const answer = outcome.answer as IncomingMessage;
  const headers = forwardedHeaders(answer.headersDistinct);
  let holding = context.failOnViolation === true;
  let copy: Buffer[] = [];
  let copied = 0;
  let overflow = false;
  const pass = (chunk: Buffer): void => {
    if (!res.write(chunk)) {
      answer.pause();
      res.once('drain', () => answer.resume());
    }
  };
  const startStreaming = (): void => {
    holding = false;
    res.writeHead(answer.statusCode ?? 502, headers);
    for (const chunk of copy) res.write(chunk);
  };
  if (!holding) startStreaming();
  answer.on('data', (chunk: Buffer) => {
    if (!overflow && copied + chunk.length > MAX_CHECKED_RESPONSE_BYTES) {
      overflow = true;
      if (holding) startStreaming();
      // Judged by status alone from here: the copy is not needed any more.
      copy = [];
    } else if (!overflow) {
      copy.push(chunk);
      copied += chunk.length;
      if (holding) return;
    }
    pass(chunk);
  });
  answer.on('error', () => {
    done();
    outcome.fault = 'the upstream broke off its answer';
    res.destroy();
    void finish(context, outcome);
  });
  answer.on('end', () => {
    done();
    outcome.responseBody = overflow ? undefined : Buffer.concat(copy);
    // The answer ends once checked, so what the app reads next (the control plane) already counts this exchange.
    void finish(context, outcome).then((found) => {
      if (!holding) {
        res.end();
        return;
      }
      const failing = found.filter((violation) => violation.part === 'response');
      if (failing.length === 0) {
        res.writeHead(answer.statusCode ?? 502, headers);
        res.end(outcome.responseBody);
        return;
      }
      send(res, contractViolation(failing, outcome.req.url ?? '/'));
    });
  });
}

/** The 502 of --fail-on-violation: the first violation in the detail, each one in `errors` with its rule and origin. */
function contractViolation(violations: readonly ProxyViolation[], target: string): MockResponse {
  const first = violations[0] as ProxyViolation;
  return problemResponse('contract-violation', {
    detail: `The upstream's answer breaks the contract: ${first.rule} at ${first.pointer || '(the whole response)'}: ${first.message} (spec ${first.specPointer}, ${first.origin}).`,
    instance: target.split('?')[0]?.slice(0, 2048) ?? '/',
    errors: violations.map((violation) => ({
      path: violation.pointer,
      message: `${violation.rule}: ${violation.message} (spec ${violation.specPointer}, ${violation.origin})`,
    })),
  });
}

/**
 * Checks the exchange, counts it in the coverage, keeps its violations and records it; resolves to the violations. A
 * body whose decoded size passes the bound is judged by its status alone, as one whose size on the wire does.
 */
async function finish(context: ListenerContext, outcome: Outcome): Promise<ProxyViolation[]> {
  const { req, answer } = outcome;
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  const path = target.split('?')[0] ?? '/';
  const requestBody = outcome.requestBody?.toString('utf8');
  const responseHeaders = answer?.headers ?? {};
  // A credential the upstream sent (an API key, a cookie) is hidden like the app's own, from here on.
  context.secrets.remember(credentialsOf(responseHeaders));
  const decoded =
    outcome.responseBody === undefined
      ? undefined
      : await decodedBody(outcome.responseBody, answer?.headers['content-encoding'], MAX_CHECKED_RESPONSE_BYTES);
  const responseBody = decoded === undefined || decoded.tooLarge ? undefined : decoded.text;
  let found: ProxyViolation[] = [];
  let operationId: string | null = null;
  if (answer && outcome.fault === undefined) {
    const check = checkExchange({
      method,
      path,
      query: target.slice(path.length + 1),
      requestHeaders: req.headers,
      requestBody,
      status: answer.statusCode ?? 0,
      responseHeaders,
      responseBody,
    });
    operationId = check.operationId;
    const violations = [...check.violations];
    if (check.operationId !== null)
      violations.push(
        ...context.conversation.observe({
          operationId: check.operationId,
          method,
          path,
          template: getOperation(check.operationId).path,
          parameters: check.parameters,
          requestValid: check.requestValid,
          status: answer.statusCode ?? 0,
          json: check.json,
          at: new Date(),
          malformed: malformedAnswer(check.violations),
        }),
      );
    const redact = context.secrets.redact;
    found = violations.map((violation) => ({
      ...violation,
      found: redact(violation.found),
      message: redact(violation.message),
      ...(violation.exchanges && {
        exchanges: violation.exchanges.map((ref) => ({ ...ref, path: redact(ref.path) })),
      }),
    }));
    context.violations.add(found, new Date());
    if (path.startsWith('/v1/')) {
      const request: MockRequest = {
        method,
        path,
        query: '',
        headers: req.headers as Record<string, string>,
        body: null,
      };
      context.coverage.record(
        check.operationId,
        request,
        { status: answer.statusCode ?? 0, headers: {}, body: '' },
        undefined,
      );
    }
  }
  context.recording?.add(
    {
      operationId,
      method,
      target,
      requestHeaders: req.headers,
      requestBody,
      // No answer is recorded as none (with the reason), never as the proxy's own 502/504.
      status: outcome.fault === undefined ? answer?.statusCode : undefined,
      responseHeaders,
      responseBody,
      error: outcome.fault,
      durationMs: Math.round(performance.now() - outcome.startedAt),
    },
    context.secrets.redact,
  );
  return found;
}

/** The answer's pointers its single-exchange checks found broken, each with the origin of what broke it (seed first). */
function malformedAnswer(
  violations: readonly { part: string; pointer: string; origin: RuleOrigin }[],
): Map<string, RuleOrigin> {
  const malformed = new Map<string, RuleOrigin>();
  for (const { part, pointer, origin } of violations)
    if (part === 'response' && malformed.get(pointer) !== 'seed') malformed.set(pointer, origin);
  return malformed;
}
