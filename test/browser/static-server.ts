// A tiny static file server for the built demo, on 127.0.0.1 and an ephemeral port, that remembers every path it was
// asked for: the browser tests use that to prove the API calls were answered by the Service Worker, not by the network.
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { startFixtureServer } from '../support/fixture-server.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** A running static server. */
export interface StaticServer {
  /** e.g. `http://127.0.0.1:41235` */
  origin: string;
  /** Every request path received, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Serves `folder` until `close()`; `/` is index.html, anything outside the folder, missing or in `hide` is 404.
 * @example const server = await serveStatic('build/demo'); await page.goto(server.origin); await server.close();
 */
export async function serveStatic(folder: string, options: { hide?: readonly string[] } = {}): Promise<StaticServer> {
  const hidden = new Set(options.hide ?? []);
  const requests: string[] = [];
  const server = await startFixtureServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    requests.push(path);
    const file = normalize(join(folder, path === '/' ? 'index.html' : path));
    let found = false;
    try {
      found = file.startsWith(folder + sep) && statSync(file).isFile();
    } catch {
      found = false;
    }
    if (!found || hidden.has(path)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    createReadStream(file).pipe(response);
  });
  return { origin: server.url, requests, close: server.close };
}
