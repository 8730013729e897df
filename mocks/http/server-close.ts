// Stopping a node:http server for good: the fake's server, the proxy's and the tests' fixture servers close this way.
import type { Server } from 'node:http';

/**
 * Stops accepting, ends every connection (idle keep-alive ones and those still mid-request) and resolves once the
 * server is closed; a server already closed resolves too.
 * @example await closeServer(server);
 */
export function closeServer(server: Pick<Server, 'close' | 'closeAllConnections'>): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
