// One Playwright test whose requests become a pact: against a running serve (MOCK_URL), in a session of its own, the
// page loads an active agent and runs a task, loads an unknown agent, and runs a task on a paused one. The pact is
// exported afterwards with `agent-registry-kit pact export`: every session adds to the same pact.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'agent-registry-kit/playwright';

test('the app loads agents and runs tasks', async ({ page, mock }) => {
  const html = await readFile(new URL('./app.html', import.meta.url), 'utf8');
  const app = createServer((_request, response) => response.end(html)).listen(0, '127.0.0.1');
  await new Promise((resolve) => app.once('listening', resolve));
  try {
    const active = await mock.seedAgent({ name: 'Pact Active' });
    const paused = await mock.seedAgent({ name: 'Pact Paused', status: 'paused' });
    const appUrl = `http://localhost:${(app.address() as AddressInfo).port}`;
    await page.addInitScript((token) => sessionStorage.setItem('agent-registry-token', token), mock.token);
    await page.goto(`${appUrl}/?api=${encodeURIComponent(mock.url)}`);
    const call = (name: 'loadAgent' | 'runTask', id: string) =>
      page.evaluate(
        ([fn, agentId]) => (window as unknown as Record<string, (id: string) => Promise<void>>)[fn]?.(agentId),
        [name, id] as const,
      );
    await call('loadAgent', active.agentId);
    await expect(page.locator('#agent')).toHaveText('200 Pact Active');
    await call('runTask', active.agentId);
    await expect(page.locator('#task')).toHaveText('200');
    await call('runTask', paused.agentId);
    await expect(page.locator('#task')).toHaveText('409');
    await call('loadAgent', 'agt_unknown');
    await expect(page.locator('#agent')).toHaveText('404 Agent not found');
  } finally {
    app.close();
  }
});
