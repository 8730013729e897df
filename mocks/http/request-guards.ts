// The guards the node:http listener runs before the core sees a request, one small function each (hono-style): the URL
// limit, the Host allow-list, the control token. Each looks at one exchange and refuses it, or lets it pass.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONTROL_PREFIX } from '../core/control-prefix.ts';
import { createHostCheck } from '../core/request/host-check.ts';
import { CONSOLE_PATH } from './console-page.ts';
import { digest, tokenMatches } from './http-send.ts';
import type { MockResponse } from '../core/mock-http.ts';
import { problemResponse } from '../core/problems.ts';
import { repeatedHeaderProblem, SINGLE_HEADERS } from '../core/request/repeated-headers.ts';

/** Longest request target accepted (method line URL); longer ones get 414. Header blocks over 16 KiB get 431 from node. */
export const MAX_URL_LENGTH = 8192;

/** The header that carries the control-plane token (`--control-token`). */
export const CONTROL_TOKEN_HEADER = 'x-mock-control-token';

/** One request as the guards see it. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** node emitted it as `checkContinue`: 100 Continue is sent only when the body will be read. */
  expectsContinue: boolean;
  target: string;
  path: string;
  query: string;
  /** node's headers, with Host and Authorization joined when repeated (see joinRepeated). */
  headers: Record<string, string | undefined>;
}

/** A refusal (answered before the body is read, then the connection closed), or undefined to let the request pass. */
export type Guard = (exchange: Exchange) => MockResponse | undefined;

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
 * The exchange of one request: its target split into path and query, its headers with repeats joined.
 * @example const exchange = exchangeOf(req, res, false); exchange.path // '/v1/agents/agt_1'
 */
export function exchangeOf(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): Exchange {
  const target = req.url ?? '/';
  const question = target.indexOf('?');
  return {
    req,
    res,
    expectsContinue,
    target,
    path: question === -1 ? target : target.slice(0, question),
    query: question === -1 ? '' : target.slice(question + 1),
    headers: joinRepeated(req),
  };
}

/** 414 for a request target longer than MAX_URL_LENGTH. */
export const urlLengthGuard: Guard = (exchange) =>
  exchange.target.length > MAX_URL_LENGTH
    ? problemResponse('uri-too-long', { detail: `The request target is longer than ${MAX_URL_LENGTH} characters.` })
    : undefined;

/**
 * 400 for a request target that is not a path (origin-form, RFC 9112 section 3.2.1): an absolute URL
 * (`GET http://evil.example/v1/agents`), `*` or an authority. The fake and the proxy are origin servers, not forward
 * proxies: the proxy would pass an absolute URL on verbatim, naming to the upstream a host the Host check never saw.
 * @example originFormGuard(exchange) // 400 for a target of http://evil.example/v1/agents
 */
export const originFormGuard: Guard = (exchange) =>
  exchange.target.startsWith('/')
    ? undefined
    : problemResponse('bad-request', {
        detail: 'The request target must be a path such as /v1/agents; this server is not a forward proxy.',
      });

/** Host values already accepted: the check parses a Host header, and clients send the same one on every request. */
const ACCEPTED_HOSTS_KEPT = 64;

/**
 * 403 for a Host that is neither a loopback name or address nor allowed (the DNS-rebinding guard); 400 for a repeated
 * Host (a comma), as the core answers it, here because not every server on this layer has the core behind it (the
 * proxy forwards instead).
 * @example const guard = hostGuard(['fake.internal']); guard(exchange) // undefined for Host: fake.internal:4010
 */
export function hostGuard(allowedHosts: readonly string[] | undefined): Guard {
  const hostAllowed = createHostCheck(allowedHosts);
  const accepted = new Set<string>();
  return (exchange) => {
    const host = exchange.headers.host;
    if (host === undefined || accepted.has(host)) return undefined;
    if (host.includes(',')) return repeatedHeaderProblem('host', exchange.path);
    if (hostAllowed(host)) {
      if (accepted.size >= ACCEPTED_HOSTS_KEPT) accepted.clear();
      accepted.add(host);
      return undefined;
    }
    const name = host.slice(0, 200);
    return problemResponse('forbidden-host', {
      detail: `The Host ${name} is not a loopback name or address; if you meant to reach the fake by this name, start it with --allowed-host ${name.replace(/:\d+$/, '')}.`,
      instance: exchange.path.slice(0, 2048),
    });
  };
}

/**
 * 403 for a control-plane request without the token (CORS preflights pass: a browser sends no custom header in them).
 * @example const guard = controlTokenGuard('s3cret'); guard(exchange) // 403 unless X-Mock-Control-Token: s3cret
 */
export function controlTokenGuard(controlToken: string): Guard {
  const expected = digest(controlToken);
  return ({ req, path, headers }) => {
    if (!(path.startsWith(CONTROL_PREFIX) || path === '/__mock')) return undefined;
    // The console's page and script hold no secret: the page asks for the token and sends it on every call it makes.
    if (path.startsWith(CONSOLE_PATH) || path === '/__mock/ui') return undefined;
    if (req.method === 'OPTIONS' && headers['access-control-request-method'] !== undefined) return undefined;
    if (tokenMatches(expected, headers[CONTROL_TOKEN_HEADER])) return undefined;
    return problemResponse('control-token', {
      detail: `The control plane needs the token given with --control-token, in the ${CONTROL_TOKEN_HEADER} header.`,
      instance: path.slice(0, 2048),
    });
  };
}
