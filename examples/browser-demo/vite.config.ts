// Vite builds and serves the browser demo; the worker script that `msw init` wrote to mocks/adapters/msw/worker/ is served as is at the root.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('./', import.meta.url));

export default defineConfig({
  root: here,
  // mockServiceWorker.js must be served from the root of the origin so its scope covers the whole page.
  publicDir: fileURLToPath(new URL('../../mocks/adapters/msw/worker', import.meta.url)),
  // Relative asset URLs: the built folder works wherever it is served from.
  base: './',
  logLevel: 'warn',
  clearScreen: false,
  build: {
    outDir: fileURLToPath(new URL('../../build/demo', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // faker's catalogue and the OpenAPI document make one large chunk; that is expected for a demo.
    chunkSizeWarningLimit: 4096,
  },
  server: { host: '127.0.0.1', strictPort: true },
  preview: { host: '127.0.0.1', strictPort: true },
});
