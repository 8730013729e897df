// The browser demo as a frontend developer sees it: built once with Vite, served from a plain static server, driven in
// headless Chromium. The fake backend must run in the page's Service Worker and answer every API call the UI makes.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { buildDemo } from '../../tools/demo.ts';
import { chromiumPresent, launchChromium, screenshot, type Browser } from './chromium.ts';
import { serveStatic, type StaticServer } from './static-server.ts';

const STEP_MS = 15_000;

/** Calls the control plane from inside the page, so the Service Worker answers it like any call the app makes. */
async function controlFromPage(page: Page, method: string, path: string, body?: unknown): Promise<number> {
  return page.evaluate(
    async ([method, path, body]) => {
      const response = await fetch(`/__mock${path}`, {
        method,
        ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
      return response.status;
    },
    [method, path, body] as const,
  );
}

/** Waits for the newest message about `status` and returns its text. */
async function messageFor(page: Page, kind: 'info' | 'error', status: number): Promise<string> {
  const message = page.locator(`#messages > li.${kind}[data-status="${status}"]`).first();
  await message.waitFor({ timeout: STEP_MS });
  return (await message.textContent()) ?? '';
}

describe.skipIf(!chromiumPresent)('the browser demo (npm run demo), in Chromium', () => {
  let outDir = '';
  let server: StaticServer;
  let browser: Browser;
  let page: Page;
  const apiResponses: Response[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    const buildRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'build');
    mkdirSync(buildRoot, { recursive: true });
    // A folder of its own, so a test run never empties the build/demo that `npm run demo` may be serving.
    outDir = mkdtempSync(join(buildRoot, 'demo-test-'));
    await buildDemo(outDir);
    server = await serveStatic(outDir);
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (pathname.startsWith('/v1/') || pathname.startsWith('/__mock/')) apiResponses.push(response);
    });
    await page.goto(`${server.origin}/`);
    await page.locator('body[data-ready="true"]').waitFor({ timeout: STEP_MS });
    // Every task completes in this run, so the performance figures move in a known direction.
    expect(await controlFromPage(page, 'PUT', '/scenarios', { taskFailureRatio: 0 })).toBe(200);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('starts the worker, which controls the page and answers the API calls', async () => {
    expect(await page.locator('#worker-status').textContent()).toBe('Mock Service Worker: active');
    const scriptURL = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);
    expect(scriptURL).toBe(`${server.origin}/mockServiceWorker.js`);
    expect(await page.locator('.agent-row').count()).toBeGreaterThanOrEqual(20);
    await page.locator('.agent-row[data-status="active"]').first().click();
    await page.locator('[data-testid="performance"]').waitFor({ timeout: STEP_MS });
    const answered = apiResponses.map((response) => [
      new URL(response.url()).pathname.split('/').slice(0, 3).join('/'),
      response.fromServiceWorker(),
    ]);
    expect(answered).toEqual(
      expect.arrayContaining([
        ['/__mock/agents', true],
        ['/v1/agents', true],
      ]),
    );
    expect(answered.every(([, fromWorker]) => fromWorker)).toBe(true);
    // The demo does not ask for exposeOnWindow: its test API stays off the page's globals.
    expect(await page.evaluate(() => 'agentRegistryKit' in window)).toBe(false);
    await screenshot(page, 'demo-1-catalogue');
  });

  it('deploys from the form, retrieves the agent, runs a task to completion and shows the new performance', async () => {
    const name = 'Browser Test Agent';
    await page.fill('#deploy-form [name="name"]', name);
    await page.selectOption('#deploy-form [name="category"]', 'analytics');
    await page.fill('#deploy-form [name="revenueShare"]', '0.25');
    await page.click('#deploy-submit');
    expect(await messageFor(page, 'info', 201)).toContain(`Deployed ${name}`);
    await page.locator('[data-testid="agent-name"]', { hasText: name }).waitFor({ timeout: STEP_MS });
    expect(await page.locator('[data-testid="agent-status"]').textContent()).toBe('active');
    expect(await page.locator('[data-testid="performance"] tr[data-field="tasksCompleted"] td').textContent()).toBe(
      '0',
    );
    expect(await page.locator('[data-testid="tokenomics"] tr[data-field="revenueShare"] td').textContent()).toBe(
      '0.25',
    );
    await screenshot(page, 'demo-2-deployed');

    await page.selectOption('#execute-form [name="priority"]', 'high');
    await page.click('#execute-submit');
    expect(await messageFor(page, 'info', 200)).toMatch(/^Task \S+ is queued/);
    const task = page.locator('#tasks tbody tr').first();
    expect(await task.getAttribute('data-status')).toBe('queued');
    expect(await task.locator('td').nth(2).textContent()).toBe('high');

    await page.click('#advance-clock');
    await page.locator('#tasks tbody tr[data-status="completed"]').first().waitFor({ timeout: STEP_MS });
    const tasksCompleted = page.locator('[data-testid="performance"] tr[data-field="tasksCompleted"]');
    await tasksCompleted.locator('td', { hasText: /^1/ }).waitFor({ timeout: STEP_MS });
    expect(await tasksCompleted.getAttribute('class')).toBe('changed');
    expect(await tasksCompleted.locator('td').textContent()).toBe('1 (was 0)');
    const revenue = await page.locator('[data-testid="performance"] tr[data-field="totalRevenue"] td').textContent();
    expect(Number.parseFloat(revenue ?? '0')).toBeGreaterThan(0);
    await screenshot(page, 'demo-3-task-completed');
  });

  it('shows a 400 from an invalid form with the field that is wrong', async () => {
    await page.fill('#deploy-form [name="revenueShare"]', '1.5');
    await page.click('#deploy-submit');
    const text = await messageFor(page, 'error', 400);
    expect(text).toContain('Deploying: 400');
    expect(text).toContain('/revenueShare');
    await page.fill('#deploy-form [name="revenueShare"]', '0.2');
  });

  it('shows a 404 for an unknown agent', async () => {
    await page.click('#open-unknown');
    expect(await messageFor(page, 'error', 404)).toContain('agt_doesNotExist');
  });

  it('shows a 401 when the token is signed with the wrong secret', async () => {
    await page.selectOption('#token-mode', 'wrong-secret');
    await page.locator('.agent-row').first().click();
    expect(await messageFor(page, 'error', 401)).toContain('not signed with the expected secret');
    await page.selectOption('#token-mode', 'valid');
  });

  it('shows a 409 when a task goes to a paused agent', async () => {
    const paused = page.locator('.agent-row[data-status="paused"]').first();
    const pausedName = (await paused.locator('.agent-name').textContent()) ?? '';
    await paused.click();
    await page.locator('[data-testid="agent-name"]', { hasText: pausedName }).waitFor({ timeout: STEP_MS });
    await page.click('#execute-submit');
    expect(await messageFor(page, 'error', 409)).toContain('paused');
  });

  it('shows a 429 with its Retry-After once the rate-limit scenario is on', async () => {
    await page.click('#rate-limit');
    await page.locator('#messages > li.info', { hasText: 'at most 2 API requests' }).waitFor({ timeout: STEP_MS });
    for (let attempt = 0; attempt < 3; attempt += 1) await page.click('#open-unknown');
    expect(await messageFor(page, 'error', 429)).toMatch(/429 Too many requests.*retry in \d+ s/);
    await screenshot(page, 'demo-4-errors');
    await page.click('#clear-scenarios');
    await page.locator('#messages > li.info', { hasText: 'Scenarios cleared' }).waitFor({ timeout: STEP_MS });
  });

  it('says so when the worker script is missing, instead of failing silently', async () => {
    const bare = await serveStatic(outDir, { hide: ['/mockServiceWorker.js'] });
    const other = await browser.newPage();
    try {
      await other.goto(`${bare.origin}/`);
      await other.locator('#worker-status[data-state="failed"]').waitFor({ timeout: STEP_MS });
      expect(await other.locator('#messages > li.error').first().textContent()).toMatch(
        /^The mock worker did not start: /,
      );
    } finally {
      await other.close();
      await bare.close();
    }
  });

  it('never let an API call reach the network, and raised no page error', () => {
    expect(apiResponses.length).toBeGreaterThan(10);
    expect(apiResponses.filter((response) => !response.fromServiceWorker()).map((response) => response.url())).toEqual(
      [],
    );
    expect(server.requests.filter((path) => path.startsWith('/v1/') || path.startsWith('/__mock/'))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
