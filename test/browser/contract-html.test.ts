// `contract --html FILE` as CI would keep it: a real run against a server that breaks getAgent's answers with bytes
// meant to escape a page, the report opened from disk in Chromium with every network request refused. It shows each
// operation, the failing exchanges and the coverage matrix, with no page error, nothing a server sent as markup, and
// the token in no form.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../spec/index.ts';
import { startBreakingProxy, type RunningProxy } from '../contract/breaking-proxy.ts';
import { fakeToken, runContract, startFakeBackend, type ContractRun } from '../contract/contract-runner.ts';
import type { SpawnedServer } from '../support/spawned-server.ts';
import { repoRoot } from '../support/spawned-server.ts';
import { bundleConsole } from '../../tools/bundle.ts';
import { chromiumPresent, launchChromium, screenshot } from './chromium.ts';

const HOSTILE = '</script><img src=x onerror=alert(document.domain)><!--';

describe.skipIf(!chromiumPresent)('contract --html', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-registry-html-'));
  const file = join(dir, 'report.html');
  let fake: SpawnedServer;
  let proxy: RunningProxy;
  let run: ContractRun;
  let token: string;

  beforeAll(async () => {
    await bundleConsole(repoRoot);
    fake = await startFakeBackend();
    token = await fakeToken();
    // getAgent answers an undocumented member holding the bytes, and echoes the token: a conformance failure to show.
    proxy = await startBreakingProxy(fake.baseUrl, {
      response: (response, request) =>
        request.method === 'GET' && response.status === 200 && /^\/v1\/agents\/[^/]+$/.test(request.path)
          ? {
              ...response,
              body: response.body.replace(
                /"name":"[^"]*"/,
                `"name":42,"note":${JSON.stringify(`${HOSTILE} ${token}`)}`,
              ),
            }
          : response,
    });
    run = await runContract({ API_BASE_URL: proxy.url, API_TOKEN: token }, ['--runs', '1', '--html', file]);
  }, 300_000);

  afterAll(async () => {
    await proxy?.close();
    await fake?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes one self-contained file holding the token in no form', () => {
    expect(run.code, run.stderr).toBe(1);
    const html = readFileSync(file, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    for (const part of [token, ...token.split('.')]) expect(html).not.toContain(part);
    // Nothing it needs is elsewhere: no src or href names a file or a host.
    expect(html).not.toMatch(/<[a-z]+[^>]*\s(src|href)=/i);
  });

  it('opens from disk with no server and no page error, and shows each operation, the failures and the matrix', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      const requests: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await page.route(/^(?!file:)/, (route) => {
        requests.push(route.request().url());
        return route.abort();
      });
      await page.goto(pathToFileURL(file).href);
      await page.getByRole('heading', { name: 'Contract report: failed' }).waitFor({ timeout: 10_000 });
      for (const operationId of operations.keys())
        await page.getByRole('heading', { name: operationId, exact: true }).waitFor();
      await page.getByRole('heading', { name: /^Status coverage/ }).waitFor();
      expect(await page.locator('table.matrix tbody tr').count()).toBe(operations.size);
      const failing = page.locator('li.failing').filter({ hasText: 'getAgent' }).first();
      await failing.waitFor();
      await failing.locator('summary').first().click();
      expect(await failing.innerText()).toContain(HOSTILE);
      expect(await page.title()).toBe('Contract report: failed');
      expect(await page.locator('img').count()).toBe(0);
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
      await screenshot(page, 'contract-html-report');
    } finally {
      await browser.close();
    }
  });
});
