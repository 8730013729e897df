// Tests that would collide on one shared fake: one pauses the agent another needs active, one sets a 500 scenario while
// another reads an agent it seeded. Each sets its state, waits at a barrier until all four have (so they truly overlap,
// 4 workers), then checks its page again and again for a few seconds; with a session per test they all pass.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test as mockTest, type MockSession } from 'agent-registry-kit/playwright';
import type { Page } from '@playwright/test';

const HOLD_MS = 3000;
const TESTS = 4;
const html = readFile(new URL('./app.html', import.meta.url), 'utf8');

interface AppWindow {
  loadAgent(id: string): Promise<void>;
  runTask(id: string): Promise<void>;
}

/** The app's own origin (one static server per worker): a page on another origin than the fake, as in real life. */
const test = mockTest.extend<object, { appUrl: string }>({
  appUrl: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its destructuring.
    async ({}, use) => {
      const body = await html;
      const server = createServer((_request, response) => response.end(body)).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      await use(`http://localhost:${(server.address() as AddressInfo).port}`);
      server.close();
    },
    { scope: 'worker' },
  ],
});

/** Opens the app, talking to the fake. */
async function openApp(page: Page, mock: MockSession, appUrl: string): Promise<void> {
  await page.addInitScript((token) => sessionStorage.setItem('agent-registry-token', token), mock.token);
  await page.goto(`${appUrl}/?api=${encodeURIComponent(mock.url)}`);
}

/** The first active agent of the seeded catalogue: the same agent in every session. */
async function sharedAgent(mock: MockSession): Promise<string> {
  const response = await fetch(`${mock.url}/__mock/agents?status=active&limit=1`, { headers: mock.headers });
  const list = (await response.json()) as { agents: { agentId: string }[] };
  return list.agents[0]?.agentId ?? '';
}

/** Waits until every test of the file has set its state (a file per test in BARRIER_DIR, set by the config). */
async function barrier(name: string): Promise<void> {
  const dir = process.env.BARRIER_DIR ?? '';
  await writeFile(join(dir, name.replace(/\W+/g, '-')), '');
  while ((await readdir(dir)).length < TESTS) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Calls the app's `action` on an agent then checks the output, again and again for HOLD_MS (each answer counts). */
async function holds(page: Page, action: keyof AppWindow, agentId: string, output: string, expected: RegExp) {
  await barrier(test.info().title);
  const end = Date.now() + HOLD_MS;
  do {
    await page.evaluate(([name, id]) => (window as unknown as AppWindow)[name](id), [action, agentId] as const);
    expect(await page.locator(output).textContent()).toMatch(expected);
    await page.waitForTimeout(100);
  } while (Date.now() < end);
}

test('a paused agent refuses tasks (409)', async ({ page, mock, appUrl }) => {
  const agentId = await sharedAgent(mock);
  await mock.setAgentStatus(agentId, 'paused');
  await openApp(page, mock, appUrl);
  await holds(page, 'runTask', agentId, '#task', /^409$/);
});

test('an active agent accepts tasks (200)', async ({ page, mock, appUrl }) => {
  const agentId = await sharedAgent(mock);
  await openApp(page, mock, appUrl);
  await holds(page, 'runTask', agentId, '#task', /^200$/);
});

test('a 500 scenario on getAgent shows the error', async ({ page, mock, appUrl }) => {
  const agentId = await sharedAgent(mock);
  await mock.setScenarios({ operations: { getAgent: { errorStatus: 500 } } });
  await openApp(page, mock, appUrl);
  await holds(page, 'loadAgent', agentId, '#agent', /^500 /);
});

test('an agent seeded by this test is there', async ({ page, mock, appUrl }) => {
  const seeded = await mock.seedAgent({ name: 'Seeded in this test' });
  await openApp(page, mock, appUrl);
  await holds(page, 'loadAgent', seeded.agentId, '#agent', /^200 Seeded in this test$/);
});
