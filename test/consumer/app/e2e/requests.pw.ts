// What the page sent, read back from the fake through the `mock` fixture: each test's session keeps a journal of its
// own, so with 4 workers on one serve each test sees exactly the requests its page made.
import { expect, test, type MockSession } from 'agent-registry-kit/playwright';
import type { Page } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';

const html = readFile(new URL('./app.html', import.meta.url), 'utf8');

/** Serves the app on an origin of its own for the one test, and opens it against the fake with the fixture's token. */
async function withApp(page: Page, mock: MockSession, open: (url: string) => Promise<void>): Promise<void> {
  const body = await html;
  const server = createServer((_request, response) => response.end(body)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  await page.addInitScript((token) => sessionStorage.setItem('agent-registry-token', token), mock.token);
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  try {
    await open(`${origin}/?api=${encodeURIComponent(mock.url)}`);
  } finally {
    server.close();
  }
}

test('the deploy form posted its name and revenue share (waitForRequest)', async ({ page, mock }) => {
  await withApp(page, mock, async (url) => {
    await page.goto(url);
    await page.getByLabel('Name').fill('Deployed from the page');
    await page.getByRole('button', { name: 'Deploy' }).click();
    const sent = await mock.waitForRequest('deployAgent', { body: { revenueShare: 0.1 } }, { timeout: 30_000 });
    expect(sent.body).toMatchObject({ name: 'Deployed from the page', category: 'defi', revenueShare: 0.1 });
    expect(sent.status).toBe(201);
    await expect(page.locator('#deployed')).toHaveText(/^201 agt_/);
  });
});

test('this session’s requests are this test’s own (requests)', async ({ page, mock }) => {
  await withApp(page, mock, async (url) => {
    await page.goto(url);
    await page.getByLabel('Name').fill('Only in this session');
    await page.getByRole('button', { name: 'Deploy' }).click();
    await expect(page.locator('#deployed')).toHaveText(/^201 agt_/);
    const sent = await mock.requests('deployAgent');
    expect(sent.map((request) => request.body?.name)).toEqual(['Only in this session']);
    expect(JSON.stringify(sent)).not.toMatch(/Bearer|authorization/i);
  });
});
