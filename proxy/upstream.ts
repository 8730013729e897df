// The real server behind the proxy: how to reach it (http or https, certificates checked unless --insecure) and what a
// failure to reach it is called (unreachable, too slow, certificate refused), so each becomes the right problem answer.
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { Duplex } from 'node:stream';

// node:http and node:https taken as Node's own module objects, as the server does (mocks/http/limited-server.ts): an
// ESM import builds their namespaces and node:http's lazy WebSocket getter loads undici at each start of the proxy.
const { Agent: HttpAgent, request: httpRequest } = process.getBuiltinModule('node:http');
const { Agent: HttpsAgent, request: httpsRequest } = process.getBuiltinModule('node:https');

export interface Upstream {
  /** The upstream's URL as given, without credentials or a trailing slash: `https://staging.example.com/api`. */
  baseUrl: string;
  /** Sends one request to the upstream; `target` is the path and query the app asked the proxy for. */
  request(method: string, target: string, headers: Record<string, string | string[]>): ClientRequest;
  /** Closes the idle connections kept for reuse. */
  close(): void;
}

/** Why the upstream gave no answer. */
export interface UpstreamFault {
  kind: 'unreachable' | 'timeout' | 'certificate';
  detail: string;
}

/** Thrown by createUpstream for a URL the proxy cannot use; the message says what to give instead. */
export class UpstreamUrlError extends Error {}

/**
 * The upstream at `url` (http or https; a path prefix is kept). Certificates are checked against the system's CAs
 * unless `insecure`; `ca` adds trusted certificates (PEM), as a test's self-signed one.
 * @example const upstream = createUpstream('https://staging.example.com', { insecure: false });
 */
export function createUpstream(url: string, options: { insecure?: boolean; ca?: string } = {}): Upstream {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UpstreamUrlError(
      `--upstream is not a URL ("${url}"); give the server's address, e.g. https://staging.example.com`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UpstreamUrlError(`--upstream must be http or https, got ${parsed.protocol}`);
  if (parsed.username !== '' || parsed.password !== '')
    throw new UpstreamUrlError('--upstream must not carry a user or password; the app sends its own credentials');
  if (parsed.search !== '' || parsed.hash !== '')
    throw new UpstreamUrlError(
      '--upstream takes no query or fragment; give the base URL, e.g. https://staging.example.com',
    );
  const secure = parsed.protocol === 'https:';
  const basePath = parsed.pathname.replace(/\/+$/, '');
  // Connections are kept and reused, as a browser would: a new TLS handshake per request would be most of the cost.
  const agent = secure
    ? new HttpsAgent({
        keepAlive: true,
        rejectUnauthorized: options.insecure !== true,
        ...(options.ca && { ca: options.ca }),
      })
    : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  return {
    baseUrl: `${parsed.origin}${basePath}`,
    request(method, target, headers) {
      const requestOptions: RequestOptions = {
        protocol: parsed.protocol,
        hostname: parsed.hostname.replace(/^\[|\]$/g, ''),
        port: parsed.port === '' ? undefined : Number(parsed.port),
        method,
        path: basePath + target,
        headers: { ...headers, host: parsed.host },
        agent,
      };
      return send(requestOptions);
    },
    close: () => agent.destroy(),
  };
}

const CERTIFICATE_CODES =
  /^(?:ERR_TLS_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(?:VERIFY|GET_ISSUER)|ERR_SSL_|HOSTNAME_MISMATCH)/;

/**
 * What an error of a request to the upstream means for the app.
 * @example classifyFault(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })).kind // 'unreachable'
 */
function classifyFault(error: unknown, upstream: string): UpstreamFault {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const message = error instanceof Error ? error.message : String(error);
  if (CERTIFICATE_CODES.test(code))
    return {
      kind: 'certificate',
      detail: `The upstream ${upstream} presented a certificate the proxy does not trust (${code}); fix the certificate, or start the proxy with --insecure to skip the check.`,
    };
  return { kind: 'unreachable', detail: `The upstream ${upstream} could not be reached (${code || message}).` };
}

/**
 * The response, or the fault, of a request already sent: resolves exactly once. A `101 Switching Protocols` is a fault:
 * the proxy relays HTTP exchanges, not upgraded connections, and node hands a 101 neither to 'response' nor to 'error'
 * (it destroys the socket when nobody listens to 'upgrade'), so without these listeners the app's request would wait
 * forever. A request that closes with neither is a fault too, so no path is left that never resolves.
 */
export function answerOf(request: ClientRequest, upstream: string): Promise<IncomingMessage | UpstreamFault> {
  return new Promise((resolve) => {
    request.once('response', resolve);
    request.once('error', (error) => resolve(classifyFault(error, upstream)));
    request.once('upgrade', (answer: IncomingMessage, socket: Duplex) => {
      socket.destroy();
      resolve({
        kind: 'unreachable',
        detail: `The upstream ${upstream} answered ${answer.statusCode ?? 101} Switching Protocols; the proxy relays HTTP exchanges only, not upgraded connections.`,
      });
    });
    request.once('close', () =>
      resolve({ kind: 'unreachable', detail: `The upstream ${upstream} closed the connection without an answer.` }),
    );
  });
}
