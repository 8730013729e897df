// Takes the console's screenshots in docs/ (`npm run screenshots`): the fake's four views after a few requests, the
// proxy's findings, the devtools panel over a page and a `contract --html` report. Run again after changing the console; the pictures are small (a 1100 × 720 viewport).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { startMockServer } from '../../mocks/adapters/node-http/http-server.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { startProxyServer } from '../../proxy/proxy-server.ts';
import { createUpstream } from '../../proxy/upstream.ts';
import { bundleConsole } from '../../tools/bundle.ts';
import { startBreakingProxy } from '../contract/breaking-proxy.ts';
import { repoRoot } from '../support/spawned-server.ts';
import { launchChromium } from './chromium.ts';

const AGENT = 'agt_WCC01FaiMscDbRzp';
const docs = join(repoRoot, 'docs', 'console');

async function traffic(base: string, token: string): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const deployed = (await (
    await fetch(`${base}/v1/agents/deploy`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Docs Bot', category: 'defi', model: 'gpt-4', initialSupply: 1000 }),
    })
  ).json()) as { agentId: string };
  await fetch(`${base}/v1/agents/${deployed.agentId}/execute`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ task: 'Summarise today', priority: 'high' }),
  });
  await fetch(`${base}/v1/agents/${deployed.agentId}`, { headers });
  await fetch(`${base}/v1/agents/agt_missing`, { headers });
  await fetch(`${base}/v1/agents/${AGENT}`, { headers: { ...headers, prefer: 'code=429' } });
  await fetch(`${base}/v1/agents/${AGENT}`);
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(docs, `${name}.png`) });
  console.info(`wrote docs/console/${name}.png`);
}

/**
 * The devtools panel as an app shows it: a page of the fake's origin (so the panel's /__mock/* requests reach it) that
 * mounts the bundled panel with a stream source reading the journal's events, as the worker's core would give it.
 */
async function shootPanel(page: Page, base: string): Promise<void> {
  const panel = readFileSync(join(repoRoot, 'dist', 'console', 'devtools.js'), 'utf8');
  await page.route(`${base}/app/**`, (route) =>
    route.request().url().endsWith('devtools.js')
      ? route.fulfill({ contentType: 'text/javascript', body: panel })
      : route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><title>An app</title><h1 style="font-family:sans-serif">Your app</h1>',
        }),
  );
  await page.goto(`${base}/app/`);
  await page.addScriptTag({
    type: 'module',
    content: `import { mountDevtools } from '/app/devtools.js';
      mountDevtools({ stream: (headers, push) => {
        const stop = new AbortController();
        fetch('/__mock/journal/events', { headers, signal: stop.signal }).then(async (response) => {
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          for (;;) { const { value, done } = await reader.read(); if (done) return; push(value); }
        }).catch(() => {});
        return () => stop.abort();
      } });`,
  });
  await page.getByRole('button', { name: 'Mock console' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /^live$/ })
    .waitFor();
  await shoot(page, 'devtools-panel');
}

/** A `contract --html` report of a run against a server whose read-back changes the model, opened from disk. */
async function shootReport(page: Page, base: string, token: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-registry-screenshots-'));
  try {
    const file = join(dir, 'report.html');
    const command = [join(repoRoot, 'scripts', 'commands', 'contract.ts'), '--runs', '1', '--html', file];
    await promisify(execFile)(process.execPath, command, {
      env: { ...process.env, API_BASE_URL: base, API_TOKEN: token, NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: unknown) => {
      // Exit 1 is the verdict this server earns; anything else is a failed run.
      if ((error as { code?: unknown }).code !== 1) throw error;
    });
    await page.goto(pathToFileURL(file).href);
    await shoot(page, 'contract-report');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await bundleConsole(repoRoot);
mkdirSync(docs, { recursive: true });
const fake = await startMockServer({ port: 0, logger: silentLogger });
const broken = await startBreakingProxy(fake.url, {
  response: (response, request) =>
    request.method === 'GET' && /^\/v1\/agents\/[^/]+$/.test(request.path) && response.status === 200
      ? { ...response, body: response.body.replace(/"model":"[^"]+"/, '"model":"claude-3"') }
      : response,
});
const proxy = await startProxyServer({
  upstream: createUpstream(broken.url),
  port: 0,
  logger: silentLogger,
  print: () => {},
});
const browser = await launchChromium();
try {
  const token = await mintToken({ sub: 'docs' });
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1100, height: 720 });
  await page.goto(`${fake.url}/__mock/ui/`);
  await page
    .getByRole('status')
    .filter({ hasText: /^live$/ })
    .waitFor();
  await traffic(fake.url, token);
  await page.getByRole('row').filter({ hasText: 'executeAgentTask' }).getByRole('button').click();
  await shoot(page, 'requests');
  await page.getByRole('tab', { name: 'State' }).click();
  await page.getByRole('button', { name: AGENT }).click();
  await shoot(page, 'state');
  await page.getByRole('tab', { name: 'Steering' }).click();
  await page.getByLabel('getAgent error status').selectOption('503');
  await page.locator('#fail-getAgent').check();
  await page.getByText('Scenario of getAgent saved.').waitFor();
  await shoot(page, 'steering');
  await page.getByRole('tab', { name: 'Coverage' }).click();
  await shoot(page, 'coverage');
  // The steering view's 503 goes, so the proxy's findings are the broken read-back's.
  await fetch(`${fake.url}/__mock/scenarios`, { method: 'DELETE' });
  await traffic(proxy.url, token);
  await page.goto(`${proxy.url}/__mock/ui/`);
  await page.getByText(/violations in \d+ groups/).waitFor();
  await shoot(page, 'proxy-findings');
  await shootPanel(page, fake.url);
  await shootReport(page, broken.url, token);
} finally {
  await browser.close();
  await proxy.close();
  await broken.close();
  await fake.close();
}
