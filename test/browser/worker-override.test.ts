// `worker.use(overrideHandler(…))` in a real browser: the kit's worker, started in Chromium as an app starts it, answers
// the page's fetch with the override (status, the spec's example or the given body, the headers the spec requires),
// `once` answers one request, resetHandlers() brings the fake's own answer back, a body that breaks the spec throws
// OverrideError in the page, and the unchecked variant serves it anyway. Node and jsdom run the same calls in
// mocks/adapters/msw/override-handler.test.ts; only here does a Service Worker carry them. The page asks for
// exposeOnWindow, so the last test seeds and resets the fake through window.agentRegistryKit, as a console would.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPresent, launchChromium, type Browser } from './chromium.ts';
import { serveStatic, type StaticServer } from './static-server.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const STEP_MS = 15_000;

/** What the page's fetch got: status, a header the override must carry, and the body as JSON (or text). */
interface Seen {
  status: number;
  contentType: string | null;
  body: unknown;
}

/** GET /v1/agents/<id> from inside the page, as the app would: with a token the fake accepts. */
async function getAgent(page: Page, agentId: string): Promise<Seen> {
  return page.evaluate(async (id) => {
    const token = await window.kit.mintToken();
    const response = await fetch(`/v1/agents/${id}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // left as text
    }
    return { status: response.status, contentType: response.headers.get('content-type'), body };
  }, agentId);
}

describe.skipIf(!chromiumPresent)('worker.use(overrideHandler(…)) in Chromium', () => {
  let outDir = '';
  let server: StaticServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const buildRoot = join(repo, 'build');
    mkdirSync(buildRoot, { recursive: true });
    outDir = mkdtempSync(join(buildRoot, 'override-test-'));
    await build({
      configFile: false,
      root: join(here, 'override-page'),
      // mockServiceWorker.js at the root of the origin, so its scope covers the page (as in the demo).
      publicDir: join(repo, 'mocks', 'adapters', 'msw', 'worker'),
      base: './',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 4096 },
    });
    server = await serveStatic(outDir);
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`${server.origin}/`);
    await page.locator('body[data-ready="true"]').waitFor({ state: 'attached', timeout: STEP_MS });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('answers with the override, once when asked, and the fake again after resetHandlers()', async () => {
    const agentId = await page.evaluate(async () => (await window.kit.worker.api.seedAgent({ name: 'Real' })).agentId);
    await page.evaluate(() => {
      const { worker, overrideHandler } = window.kit;
      worker.use(overrideHandler('getAgent', 404));
    });
    const overridden = await getAgent(page, agentId);
    expect(overridden.status).toBe(404);
    expect(overridden.contentType).toMatch(/application\/problem\+json/);
    // The spec's example of the 404, not the fake's own problem for this id, answering this request's path.
    const problem = overridden.body as { detail: string; instance: string };
    expect(problem.detail).not.toContain(agentId);
    expect(problem.instance).toBe(`/v1/agents/${agentId}`);

    // Gone with resetHandlers(): the fake answers with the agent it holds.
    await page.evaluate(() => window.kit.worker.resetHandlers());
    const real = await getAgent(page, agentId);
    expect([real.status, (real.body as { name?: unknown }).name]).toEqual([200, 'Real']);

    await page.evaluate(() => {
      const { worker, overrideHandler } = window.kit;
      worker.use(overrideHandler('GET /v1/agents/{agentId}', 500, undefined, { once: true }));
    });
    expect((await getAgent(page, agentId)).status).toBe(500);
    // `once`: the next request reaches the fake again.
    expect((await getAgent(page, agentId)).status).toBe(200);
  });

  it('throws OverrideError in the page for a body that breaks the spec; the unchecked variant serves it', async () => {
    const thrown = await page.evaluate(() => {
      const { overrideHandler, OverrideError } = window.kit;
      try {
        // Deliberately off the schema: the typed call would not compile, so the check at run time is what is tested.
        const loose = overrideHandler as unknown as (operation: string, status: number, body: unknown) => unknown;
        loose('getAgent', 200, { agentId: 42 });
        return 'not thrown';
      } catch (error) {
        return error instanceof OverrideError ? error.message : `other: ${String(error)}`;
      }
    });
    expect(thrown).toMatch(/^The override 200 of getAgent breaks spec\/openapi\.yaml: .*\/agentId must be a string/);

    await page.evaluate(() => {
      const { worker, uncheckedOverrideHandler } = window.kit;
      worker.use(uncheckedOverrideHandler('getAgent', 200, { agentId: 42 }));
    });
    expect(await getAgent(page, 'agt_any')).toMatchObject({ status: 200, body: { agentId: 42 } });
    await page.evaluate(() => window.kit.worker.resetHandlers());
  });

  it('puts the test API on window.agentRegistryKit when the page asks: seed and reset from the console', async () => {
    // What a developer types in the console: no import, only the global the option put there.
    const seen = await page.evaluate(async () => {
      const kit = window.agentRegistryKit;
      if (kit === undefined) return 'no window.agentRegistryKit';
      const agent = await kit.seedAgent({ name: 'From The Console' });
      const headers = { authorization: `Bearer ${await kit.mintToken()}` };
      const before = await fetch(`/v1/agents/${agent.agentId}`, { headers });
      const name = ((await before.json()) as { name: string }).name;
      await kit.reset();
      const after = await fetch(`/v1/agents/${agent.agentId}`, { headers });
      return { before: [before.status, name], after: after.status, sameWorker: kit.worker === window.kit.worker };
    });
    expect(seen).toEqual({ before: [200, 'From The Console'], after: 404, sameWorker: true });
  });
});
