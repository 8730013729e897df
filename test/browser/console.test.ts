// The console (/__mock/ui/) as a developer opens it: `serve` started as a process, the page in Chromium, requests made
// beside it with fetch. It shows them live, names every operation of the spec, steers the next answer, shows a seed's
// errors at the field, passes axe-core, loads little script, and refuses what a page of another site or a foreign
// Host asks for.
import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { operations } from '../../spec/index.ts';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { spawnServer, type SpawnedServer } from '../support/spawned-server.ts';
import { bundleConsole } from '../../tools/bundle.ts';
import { startMockServer, type RunningMockServer } from '../../mocks/adapters/node-http/http-server.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';
import { startProxyServer, type RunningProxy } from '../../proxy/proxy-server.ts';
import { createUpstream } from '../../proxy/upstream.ts';
import { startBreakingProxy, type RunningProxy as BreakingProxy } from '../contract/breaking-proxy.ts';
import { repoRoot } from '../support/spawned-server.ts';
import { chromiumPresent, launchChromium, screenshot, type Browser } from './chromium.ts';

const AGENT = 'agt_WCC01FaiMscDbRzp';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One raw request with the headers given as they are (fetch may not set Host). */
function rawGet(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The serious and critical violations axe-core finds on the page as it is now. */
async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') would refuse an injected <script>.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run();
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      );
  });
}

// The page under test is the one the sources build now, not whatever dist/ held.
beforeAll(() => bundleConsole(repoRoot), 60_000);

describe.skipIf(!chromiumPresent)('the console in Chromium', () => {
  let server: SpawnedServer;
  let browser: Browser;
  let page: Page;
  let token: string;
  const pageErrors: string[] = [];
  const scripts: { url: string; bytes: number; gzipped: number }[] = [];

  beforeAll(async () => {
    token = await mintToken({ sub: 'console-test' });
    server = await spawnServer({
      name: 'console-serve',
      args: ['scripts/cli.ts', 'serve', '--port', '0'],
      ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    });
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return;
      const body = await response.body();
      scripts.push({ url: response.url(), bytes: body.length, gzipped: gzipSync(body).length });
    });
    await page.goto(`${server.baseUrl}/__mock/ui/`);
    await page.getByRole('status').filter({ hasText: 'live' }).waitFor({ timeout: 10_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('prints where the console is and how to get a token', () => {
    expect(server.output()).toContain(`console: ${server.baseUrl}/__mock/ui/`);
    expect(server.output()).toContain('npx agent-registry-kit token');
  });

  it('shows a deploy made beside it within two seconds, and its detail without the token', async () => {
    const response = await fetch(`${server.baseUrl}/v1/agents/deploy`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Console Bot <img src=x onerror=alert(1)>',
        category: 'defi',
        model: 'gpt-4',
        initialSupply: 1000,
      }),
    });
    expect(response.status).toBe(201);
    const row = page.getByRole('row').filter({ hasText: 'deployAgent' }).filter({ hasText: '201' });
    await row.waitFor({ timeout: 2_000 });
    await row.getByRole('button').click();
    const detail = page.getByRole('region', { name: /^Exchange / });
    await expect(detail.getByText('Decided by')).toBeDefined();
    await detail.getByText('Conforms to spec/openapi.yaml.').waitFor({ timeout: 2_000 });
    const text = await detail.innerText();
    expect(text).toContain('(sent, not shown)');
    // The name arrived as text: no element was made of it.
    expect(text).toContain('<img src=x onerror=alert(1)>');
    expect(await page.locator('img').count()).toBe(0);
    const html = await page.content();
    for (const part of [token, ...token.split('.')]) expect(html).not.toContain(part);
    await screenshot(page, 'console-requests');
  });

  it('names every operation of the spec, in the filter and in the steering view', async () => {
    const ids = [...operations.keys()];
    const options = await page.getByLabel('Operation').locator('option').allInnerTexts();
    for (const id of ids) expect(options).toContain(id);
    await page.getByRole('tab', { name: 'Steering' }).click();
    for (const id of ids) await page.getByRole('rowheader', { name: new RegExp(`^${id}`) }).waitFor();
  });

  it('a 503 scenario toggled on the page makes the next API call answer 503', async () => {
    await page.getByRole('tab', { name: 'Steering' }).click();
    await page.getByLabel('getAgent error status').selectOption('503');
    await page.locator('#fail-getAgent').check();
    await page.getByText('Scenario of getAgent saved.').waitFor();
    const answer = await fetch(`${server.baseUrl}/v1/agents/${AGENT}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status).toBe(503);
    await screenshot(page, 'console-steering');
    await page.locator('#fail-getAgent').uncheck();
    await page.getByText('Scenario of getAgent saved.').waitFor();
    const after = await fetch(`${server.baseUrl}/v1/agents/${AGENT}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.status).toBe(200);
  });

  it('removes one override from the steering view, the other staying in force', async () => {
    const put = (operation: string, status: number) =>
      fetch(`${server.baseUrl}/__mock/overrides`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ operation, status }),
      });
    expect((await put('getAgent', 404)).status).toBe(200);
    expect((await put('executeAgentTask', 409)).status).toBe(200);
    // The view reads the overrides when it opens.
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('tab', { name: 'Steering' }).click();
    await page.getByText('Overrides in force (2)').waitFor();
    await page.getByRole('button', { name: 'Remove the override of getAgent' }).click();
    await page.getByText('Overrides in force (1)').waitFor();
    const left = (await (await fetch(`${server.baseUrl}/__mock/overrides`)).json()) as { overrides: unknown[] };
    expect(left.overrides).toEqual([{ operationId: 'executeAgentTask', status: 409 }]);
    const answer = await fetch(`${server.baseUrl}/v1/agents/${AGENT}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status).toBe(200);
    await page.getByRole('button', { name: 'Remove every override' }).click();
    await page.getByText('Overrides in force (0)').waitFor();
  });

  it("shows the seed form's errors at the field", async () => {
    await page.getByRole('tab', { name: 'State' }).click();
    const price = page.getByLabel(/^tokenomics › price/);
    await price.fill('-5');
    await page.getByRole('button', { name: 'Seed agent' }).click();
    const field = page.locator('.field').filter({ has: price });
    await field.getByRole('alert').filter({ hasText: 'must be >= 0' }).waitFor({ timeout: 2_000 });
    expect(await price.getAttribute('aria-invalid')).toBe('true');
    await price.fill('');
    await page.getByLabel(/^name/).first().fill('Seeded From The Console');
    await page.getByRole('button', { name: 'Seed agent' }).click();
    await page.getByText(/^Seeded agt_/).waitFor({ timeout: 2_000 });
    await page.getByRole('cell', { name: 'Seeded From The Console' }).waitFor({ timeout: 2_000 });
    await screenshot(page, 'console-state');
  });

  it('is usable from the keyboard: the arrow keys move between the views', async () => {
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('tab', { name: 'Requests' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'State' }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowLeft');
    expect(await page.getByRole('tab', { name: 'Requests' }).getAttribute('aria-selected')).toBe('true');
  });

  it('has no serious or critical axe-core violation in any view', async () => {
    const found: string[] = [];
    for (const name of ['Requests', 'State', 'Steering', 'Coverage']) {
      await page.getByRole('tab', { name }).click();
      await page.waitForTimeout(300);
      found.push(...(await axeViolations(page)).map((violation) => `${name}: ${violation}`));
      if (name === 'Coverage') await screenshot(page, 'console-coverage');
    }
    expect(found).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('loads at most 60 kB of gzipped script (measured from the responses)', () => {
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.reduce((sum, script) => sum + script.gzipped, 0);
    console.info(`[console] script: ${scripts.map((s) => `${s.url} ${s.bytes} B, ${s.gzipped} B gzipped`).join('; ')}`);
    expect(gzipped).toBeLessThanOrEqual(60 * 1024);
  });

  it('refuses a foreign Host and a cross-site request (403), and a page of another site cannot read the stream', async () => {
    expect(await rawGet(`${server.baseUrl}/__mock/ui/`, { host: 'evil.example' })).toBe(403);
    expect(await rawGet(`${server.baseUrl}/__mock/journal/events`, { host: 'evil.example' })).toBe(403);
    expect(await rawGet(`${server.baseUrl}/__mock/ui/`, { 'sec-fetch-site': 'cross-site' })).toBe(403);
    expect(await rawGet(`${server.baseUrl}/__mock/journal/events`, { origin: 'https://evil.example' })).toBe(403);
    // A real page of another origin (served by the browser's routing, not the network) tries to read the stream.
    const other = await browser.newPage();
    await other.route('https://evil.example/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>evil</title>' }),
    );
    await other.goto('https://evil.example/');
    const outcome = await other.evaluate(async (url) => {
      try {
        const response = await fetch(url);
        return `read ${response.status}`;
      } catch (error) {
        return `refused: ${String(error)}`;
      }
    }, `${server.baseUrl}/__mock/journal/events`);
    expect(outcome).toMatch(/^refused/);
    await other.close();
  });
});

describe.skipIf(!chromiumPresent)('the console of a fake started with --control-token', () => {
  const controlToken = 'console-test-control-token';
  let server: SpawnedServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await spawnServer({
      name: 'console-serve-token',
      args: ['scripts/cli.ts', 'serve', '--port', '0', '--control-token', controlToken],
      ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('serves the page without the token, asks for it, and streams once it is given', async () => {
    expect(server.output()).toContain('the page asks for the control token');
    const page = await browser.newPage();
    await page.goto(`${server.baseUrl}/__mock/ui/`);
    const prompt = page.getByLabel('Token', { exact: true });
    await prompt.waitFor({ timeout: 10_000 });
    expect(
      await page
        .getByRole('status')
        .filter({ hasText: /^live$/ })
        .count(),
    ).toBe(0);
    await prompt.fill(controlToken);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^live$/ })
      .waitFor({ timeout: 5_000 });
    // The token lives in memory only: it is in no attribute or text of the page once given.
    expect(await page.content()).not.toContain(controlToken);
    await page.close();
  });
});

describe.skipIf(!chromiumPresent)('the console on the proxy', () => {
  let fake: RunningMockServer;
  let broken: BreakingProxy;
  let proxy: RunningProxy;
  let browser: Browser;

  beforeAll(async () => {
    fake = await startMockServer({ port: 0, logger: silentLogger });
    // The read-back of a deploy answers another model: a finding across two exchanges.
    broken = await startBreakingProxy(fake.url, {
      response: (response, request) =>
        request.method === 'GET' && /^\/v1\/agents\/[^/]+$/.test(request.path) && response.status === 200
          ? { ...response, body: response.body.replace(/"model":"[^"]+"/, '"model":"claude-3"') }
          : response,
    });
    proxy = await startProxyServer({
      upstream: createUpstream(broken.url),
      port: 0,
      logger: silentLogger,
      print: () => {},
    });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await broken?.close();
    await fake?.close();
  });

  it('shows the findings grouped as /__mock/violations groups them, a conversation finding with both exchanges', async () => {
    const token = await mintToken({ sub: 'console-proxy' });
    const deployed = (await (
      await fetch(`${proxy.url}/v1/agents/deploy`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Proxy Probe', category: 'defi', model: 'gpt-4', initialSupply: 1000 }),
      })
    ).json()) as { agentId: string };
    await (
      await fetch(`${proxy.url}/v1/agents/${deployed.agentId}`, { headers: { authorization: `Bearer ${token}` } })
    ).text();
    const groups = proxy.violations.report().groups;
    expect(groups.length).toBeGreaterThan(0);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${proxy.url}/__mock/ui/`);
    await page.getByRole('heading', { name: 'Agent Registry proxy: console' }).waitFor({ timeout: 10_000 });
    await page
      .getByText(`${groups.reduce((sum, group) => sum + group.count, 0)} violations in ${groups.length} groups`)
      .waitFor();
    for (const group of groups)
      await page
        .getByRole('heading', { name: new RegExp(group.violation.rule) })
        .first()
        .waitFor();
    const pair = page.getByRole('list', { name: 'The exchanges of this finding' }).first();
    const lines = await pair.getByRole('listitem').allInnerTexts();
    expect(lines.map((line) => line.replace(/agt_\w+/, 'agt_…').replace(/ at .*/, ''))).toEqual([
      'POST /v1/agents/deploy → 201',
      'GET /v1/agents/agt_… → 200',
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-proxy');
    expect(errors).toEqual([]);
    await page.close();
  });
});
