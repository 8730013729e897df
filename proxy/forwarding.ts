// How the proxy forwards one request: the app's request streamed to the upstream (its body bounded as the fake bounds
// it, the headers of the connection and those meant for the proxy kept back), the upstream's answer streamed back (or
// held until checked under --fail-on-violation), then the exchange handed to the steps that judge and keep it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { send } from '../mocks/http/http-send.ts';
import { lingerAfter, type LingerLimits } from '../mocks/http/lingering-close.ts';
import { MAX_BODY_BYTES, type MockResponse } from '../mocks/core/mock-http.ts';
import { problemResponse } from '../mocks/core/problems.ts';
import type { ProxyViolation } from './exchange-check.ts';
import { finish, MAX_CHECKED_RESPONSE_BYTES, type ExchangeSteps, type Outcome } from './exchange-steps.ts';
import { credentialsOf, PROXY_ONLY_HEADERS } from './secrets.ts';
import { answerOf, type Upstream, type UpstreamFault } from './upstream.ts';

/** How long the upstream may take to answer completely by default (then 504). */
const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

/** What forwarding needs of the proxy: its upstream and options, its limits, and the steps an exchange goes through. */
export interface ForwardContext extends ExchangeSteps {
  upstream: Upstream;
  limits: LingerLimits;
  /** Milliseconds the upstream has for its whole answer (default 30 s): then 504. */
  timeoutMs?: number | undefined;
  failOnViolation?: boolean | undefined;
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

export function forward(context: ForwardContext, req: IncomingMessage, res: ServerResponse, target: string): void {
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
function relay(context: ForwardContext, outcome: Outcome, res: ServerResponse, done: () => void): void {
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
