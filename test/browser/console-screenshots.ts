// Takes the console's screenshots in docs/ (`npm run screenshots`): the fake's four views after a few requests, and the
// proxy's findings. Run again after changing the console; the pictures are small (a 1100 × 720 viewport).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startMockServer } from '../../mocks/adapters/node-http/http-server.ts';
import { silentLogger } from '../../mocks/core/logger.ts';
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
} finally {
  await browser.close();
  await proxy.close();
  await broken.close();
  await fake.close();
}
