// `npm run demo`: builds the browser demo (examples/browser-demo/) with Vite and serves it on 127.0.0.1 (PORT to change;
// `--out DIR` builds elsewhere than build/demo).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';
import { cliError } from '../scripts/cli-error.ts';
import { parseCommandLine } from '../scripts/command-line.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const configFile = join(root, 'examples', 'browser-demo', 'vite.config.ts');
const workerScript = join(root, 'mocks', 'adapters', 'msw', 'worker', 'mockServiceWorker.js');
/** Where `npm run demo` serves unless PORT says otherwise (Vite preview's usual port). */
export const DEFAULT_DEMO_PORT = 4173;

/**
 * Builds the demo into `outDir` (default build/demo) and returns that folder.
 * @example const dir = await buildDemo(join(tmpdir(), 'demo')); // index.html, assets/, mockServiceWorker.js
 */
export async function buildDemo(outDir: string = join(root, 'build', 'demo')): Promise<string> {
  await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  // Without the worker script the page loads but nothing is mocked: fail here, where the cause is clear.
  if (!existsSync(join(outDir, 'mockServiceWorker.js')))
    throw new Error(`the worker script ${workerScript} is missing; run npx msw init mocks/worker --save=false`);
  return outDir;
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_DEMO_PORT;
  const port = Number(value);
  if (!/^\d{1,5}$/.test(value) || port > 65535)
    cliError(`PORT must be a port number from 0 to 65535, not "${value}"; e.g. PORT=8080 npm run demo`);
  return port;
}

const USAGE = 'usage: [PORT=4173] npm run demo [-- --out DIR]';

async function main(args: string[]): Promise<void> {
  const { out } = parseCommandLine({ out: { type: 'string' } }, { usage: USAGE }, args);
  const port = parsePort(process.env.PORT);
  let outDir: string;
  try {
    outDir = await buildDemo(out === undefined ? undefined : resolve(out));
  } catch (error) {
    cliError(`building the demo failed: ${error instanceof Error ? error.message : String(error)}`, 1);
  }
  const server = await preview({
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: true, open: false },
  }).catch((error: unknown) => {
    // Vite reports a taken port (strictPort) as a plain Error, Node as EADDRINUSE.
    const inUse =
      (error as { code?: unknown }).code === 'EADDRINUSE' ||
      (error instanceof Error && /already in use/i.test(error.message));
    if (inUse) cliError(`port ${port} on 127.0.0.1 is in use; choose another with PORT=8080 npm run demo`);
    cliError(`serving the demo failed: ${error instanceof Error ? error.message : String(error)}`, 1);
  });
  const address = server.httpServer.address();
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  console.log(`Agent Registry demo (fake backend in a Service Worker): http://127.0.0.1:${actualPort}/`);
  console.log('Press Ctrl+C to stop.');
  const stop = (): void => {
    void server.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.main) await main(process.argv.slice(2));
