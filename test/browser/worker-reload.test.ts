// The browser worker's state across reloads, as a frontend developer sees it in the demo app: an agent deployed in the
// page is still there after a reload (sessionStorage), a reset through the control plane empties it for good, and
// another tab starts from the seed.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo } from '../../tools/demo.ts';
import { chromiumPresent, launchChromium, type Browser } from './chromium.ts';
import { serveStatic, type StaticServer } from './static-server.ts';

const STEP_MS = 15_000;
const NAME = 'Survives Reloads';

/** Loads (or reloads) the demo and waits until its worker answers. */
async function ready(page: Page, load: () => Promise<unknown>): Promise<void> {
  await load();
  await page.locator('body[data-ready="true"]').waitFor({ timeout: STEP_MS });
}

/** The names of the agents the in-page fake lists, asked from inside the page (the worker answers). */
async function agentNames(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const response = await fetch('/__mock/agents?limit=1000');
    const body = (await response.json()) as { agents: { name: string }[] };
    return body.agents.map((agent) => agent.name);
  });
}

describe.skipIf(!chromiumPresent)('the browser worker keeps its state across reloads, in Chromium', () => {
  let outDir = '';
  let server: StaticServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const buildRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'build');
    mkdirSync(buildRoot, { recursive: true });
    outDir = mkdtempSync(join(buildRoot, 'reload-test-'));
    await buildDemo(outDir);
    server = await serveStatic(outDir);
    browser = await launchChromium();
    page = await browser.newPage();
    await ready(page, () => page.goto(`${server.origin}/`));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('still has the agent deployed in the page after a reload, and only in this tab', async () => {
    await page.fill('#deploy-form [name="name"]', NAME);
    await page.selectOption('#deploy-form [name="category"]', 'analytics');
    await page.click('#deploy-submit');
    await page.locator('#messages > li.info[data-status="201"]').first().waitFor({ timeout: STEP_MS });
    expect(await agentNames(page)).toContain(NAME);

    await ready(page, () => page.reload());
    expect(await agentNames(page)).toContain(NAME);
    await page.locator('.agent-row', { hasText: NAME }).waitFor({ timeout: STEP_MS });

    // sessionStorage is per tab: another tab of the same site starts from the seed.
    const other = await browser.newPage();
    await ready(other, () => other.goto(`${server.origin}/`));
    expect(await agentNames(other)).not.toContain(NAME);
    await other.close();
  });

  it('forgets what it kept after POST /__mock/reset, also after the next reload', async () => {
    const seeded = await page.evaluate(async (name) => {
      const response = await fetch('/__mock/agents', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      return response.status;
    }, `${NAME} Too`);
    expect(seeded).toBe(201);
    await ready(page, () => page.reload());
    expect(await agentNames(page)).toEqual(expect.arrayContaining([NAME, `${NAME} Too`]));

    const status = await page.evaluate(async () => (await fetch('/__mock/reset', { method: 'POST' })).status);
    expect(status).toBe(200);
    await ready(page, () => page.reload());
    const names = await agentNames(page);
    expect(names.filter((name) => name.startsWith(NAME))).toEqual([]);
    expect(names.length).toBeGreaterThan(0);
  });
});
