// The validating proxy: a node:http server with the fake's own limits and guards (Host check, control token, cross-site
// refusal) in front of the upstream: it answers its own control plane and console, and forwards every other request
// (forwarding.ts), whose exchange is then judged against the spec and kept (exchange-steps.ts).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { CONTROL_PREFIX } from '../mocks/core/control-prefix.ts';
import { Coverage } from '../mocks/core/steering/coverage.ts';
import { refuseCrossSite, withCors } from '../mocks/core/request/cors.ts';
import { exposureWarning } from '../mocks/http/exposure.ts';
import { send } from '../mocks/http/http-send.ts';
import { createLimitedServer, HTTP_LIMITS, type HttpLimits } from '../mocks/http/limited-server.ts';
import { closeServer } from '../mocks/http/server-close.ts';
import { refuseEarly } from '../mocks/http/lingering-close.ts';
import { consoleLogger, type Logger } from '../mocks/domain/logger.ts';
import type { MockRequest } from '../mocks/core/mock-http.ts';
import {
  controlTokenGuard,
  exchangeOf,
  hostGuard,
  originFormGuard,
  urlLengthGuard,
  type Guard,
} from '../mocks/http/request-guards.ts';
import { answerControl, type ProxyControlState } from './control-routes.ts';
import { consoleAnswer } from '../mocks/http/console-page.ts';
import { Conversation } from './conversation.ts';
import { forward, type ForwardContext } from './forwarding.ts';
import type { RecordingWriter } from './recording.ts';
import { SecretSet } from './secrets.ts';
import type { Upstream } from './upstream.ts';
import { ViolationLog } from './violation-log.ts';

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

interface ListenerContext extends Omit<ProxyServerOptions, 'secrets'>, ForwardContext {
  host: string;
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
