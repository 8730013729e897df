// A node:http proxy in front of the fake backend that breaks exactly one rule of the contract (a "broken server"):
// the only code of the self-check that knows how each server is broken. Loopback only, stopped by the caller.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createUpstream, type Upstream } from '../../proxy/upstream.ts';
import { startFixtureServer } from '../support/fixture-server.ts';

/** A request as the proxy received it, or about to forward it. */
export interface ProxiedRequest {
  method: string;
  /** Path and query. */
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: string;
}

/** A response as the upstream answered it, or as the proxy will send it. */
export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * How a broken server departs from the real one. `request` may rewrite what is forwarded or answer at once;
 * `response` may rewrite what the upstream answered.
 */
export interface Breakage {
  request?: (request: ProxiedRequest) => ProxiedRequest | ProxiedResponse;
  response?: (response: ProxiedResponse, request: ProxiedRequest) => ProxiedResponse;
}

export interface RunningProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request and the status sent back, in order (for the read-only and write-cap tests). */
  log: Array<{ method: string; path: string; status: number }>;
  close(): Promise<void>;
}

const hopByHop = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'content-encoding',
]);

function isResponse(value: ProxiedRequest | ProxiedResponse): value is ProxiedResponse {
  return 'status' in value;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Sends the (rewritten) request upstream through the product proxy's upstream (node:http on kept-alive connections):
 * the matrix's proxies forward every request of 36 contract runs, and fetch would cost them 1.8 times the CPU.
 * The fake never compresses.
 */
function forward(
  upstream: Upstream,
  request: ProxiedRequest,
  headers: Record<string, string>,
): Promise<ProxiedResponse> {
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const body = Buffer.from(request.body, 'utf8');
  const outgoing = upstream.request(request.method, request.path, {
    ...headers,
    ...(hasBody ? { 'content-length': String(body.length) } : {}),
  });
  const answered = new Promise<ProxiedResponse>((resolve, reject) => {
    outgoing.once('error', reject);
    outgoing.once('response', (answer) => {
      const answerHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers))
        if (value !== undefined) answerHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
      readBody(answer).then(
        (text) => resolve({ status: answer.statusCode ?? 502, headers: answerHeaders, body: text }),
        reject,
      );
    });
  });
  outgoing.end(hasBody ? body : undefined);
  return answered;
}

/**
 * Starts a proxy to `upstream` that applies `breakage`.
 * @example const proxy = await startBreakingProxy('http://127.0.0.1:4010', { response: (r) => ({ ...r, status: 200 }) });
 */
export async function startBreakingProxy(upstream: string, breakage: Breakage): Promise<RunningProxy> {
  const log: RunningProxy['log'] = [];
  const target = createUpstream(upstream);
  const send = (res: ServerResponse, answer: ProxiedResponse): void => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) if (!hopByHop.has(name)) headers[name] = value;
    res.writeHead(answer.status, { ...headers, 'content-length': Buffer.byteLength(answer.body) });
    res.end(answer.body);
  };
  const server = await startFixtureServer((req, res) => {
    void (async () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      const received: ProxiedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers,
        body: await readBody(req),
      };
      const rewritten = breakage.request ? breakage.request(received) : received;
      if (isResponse(rewritten)) {
        log.push({ method: received.method, path: received.path, status: rewritten.status });
        send(res, rewritten);
        return;
      }
      const forwardHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(rewritten.headers))
        if (!hopByHop.has(name)) forwardHeaders[name] = value;
      const upstreamResponse = await forward(target, rewritten, forwardHeaders);
      const final = breakage.response ? breakage.response(upstreamResponse, received) : upstreamResponse;
      log.push({ method: received.method, path: received.path, status: final.status });
      send(res, final);
    })().catch((error: unknown) => {
      // A proxy bug must show as a failure of its own, not as a contract verdict: answer 502 and say why.
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`breaking proxy failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  return {
    url: server.url,
    log,
    close: () => {
      target.close();
      return server.close();
    },
  };
}
