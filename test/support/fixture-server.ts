// The one HTTP fixture server of the tests: a node:http server on 127.0.0.1 and a free port, answering with the handler
// a test gives it. The static demo server, the hostile and echoing servers, the breaking proxy and the test upstreams are
// each a handler on it; it closes the way the fake's server and the proxy do (mocks/http/server-close.ts).
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from '../../mocks/http/server-close.ts';

/** A running fixture server. */
export interface FixtureServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  server: Server;
  /** Ends every connection and resolves once the server is closed. */
  close(): Promise<void>;
}

/**
 * Starts `handler` on 127.0.0.1 and a free port.
 * @example const fixture = await startFixtureServer((req, res) => res.end('{}')); await fetch(fixture.url); await fixture.close();
 */
export async function startFixtureServer(handler?: RequestListener): Promise<FixtureServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, server, close: () => closeServer(server) };
}
