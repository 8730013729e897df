// Serves the console (/__mock/ui/): the page and its script, built by tools/bundle.ts into dist/console/ and shipped in
// the package. Shared by the fake's server and the proxy. The page holds no secret (it asks for the control token and
// keeps it in memory), so it is served without one; every call it makes goes through the control plane's own guards.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MockResponse } from '../core/mock-http.ts';
import { problemResponse } from '../core/problems.ts';
import { refuseCrossSite } from '../core/request/cors.ts';

/** Where the console is served. */
export const CONSOLE_PATH = '/__mock/ui/';

/**
 * The page may run only its own script and style and talk only to its own origin: a byte a server sent that reached
 * the page raw still could not run, load or send anything elsewhere; no other site may frame it.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ASSETS: Record<string, string> = {
  '': 'text/html; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
};

/** The package's folder: the nearest one up from this module holding the kit's package.json (source or dist/). */
function packageRoot(): string | undefined {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest) && /"name":\s*"agent-registry-kit"/.test(readFileSync(manifest, 'utf8'))) return folder;
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

let assets: Map<string, string> | undefined;

/** The built files, read once; empty when the package was not built (a clone before `npm run build`). */
function builtAssets(): Map<string, string> {
  if (assets) return assets;
  assets = new Map();
  const root = packageRoot();
  for (const name of Object.keys(ASSETS)) {
    const file = root && join(root, 'dist', 'console', name === '' ? 'index.html' : name);
    if (file && existsSync(file)) assets.set(name, readFileSync(file, 'utf8'));
  }
  return assets;
}

const headersFor = (type: string): Record<string, string> => ({
  'content-type': type,
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
});

/**
 * The console's answer to a request under /__mock/ui (the page at `/__mock/ui/`, its script and style beside it), or
 * undefined for any other path. A request another site's page made is a 403, as the control plane answers it.
 * @example consoleAnswer({ method: 'GET', path: '/__mock/ui/', headers: {} }) // 200 text/html
 */
export function consoleAnswer(request: {
  method: string;
  path: string;
  headers: Readonly<Record<string, string | undefined>>;
}): MockResponse | undefined {
  const { path } = request;
  if (path === '/__mock/ui') return { status: 308, headers: { location: CONSOLE_PATH }, body: '' };
  if (!path.startsWith(CONSOLE_PATH)) return undefined;
  const refused = refuseCrossSite('*', { ...request, query: '', body: null });
  if (refused) return refused;
  const name = path.slice(CONSOLE_PATH.length);
  const type = ASSETS[name];
  if (type === undefined || !Object.hasOwn(ASSETS, name))
    return problemResponse('not-found', { detail: `The console has no ${path.slice(0, 200)}.`, instance: path });
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return problemResponse('method-not-allowed', {
      detail: `${request.method.slice(0, 20)} is not allowed here; use GET.`,
      instance: path,
      headers: { allow: 'GET, HEAD' },
    });
  const text = builtAssets().get(name);
  if (text === undefined)
    return problemResponse('not-found', {
      detail: 'The console is not built: run `npm run build` (the package ships it built).',
      instance: path,
    });
  return { status: 200, headers: headersFor(type), body: request.method === 'HEAD' ? '' : text };
}
