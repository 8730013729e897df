// Playwright in the scratch app: 4 workers, every test in parallel, against ONE fake started by `webServer` on the port
// the consumer test chose (MOCK_PORT). MOCK_SESSIONS=off runs the same tests without sessions, to show they collide.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import type { MockFixtureOptions } from 'agent-registry-kit/playwright';

// The tests meet at a barrier (files in this directory); made once, by the runner, and inherited by its workers. It is
// made inside the scratch app (Playwright runs there), which the consumer test removes: nothing is left in the temp
// directory.
process.env.BARRIER_DIR ??= mkdtempSync(join(process.cwd(), '.sessions-barrier-'));

const port = Number(process.env.MOCK_PORT ?? '4010');
const mockUrl = `http://127.0.0.1:${port}`;

// The fixture's options typed as Playwright's own: `use: { mockUrl }` type-checks (tsconfig.node.json covers e2e/).
export default defineConfig<MockFixtureOptions>({
  testDir: '.',
  testMatch: '*.pw.ts',
  workers: 4,
  fullyParallel: true,
  retries: 0,
  // Four browsers at once on a small, loaded CI machine: starting them alone can take half a minute.
  timeout: 120_000,
  reporter: [['list'], ['json', { outputFile: process.env.PW_JSON ?? 'playwright-results.json' }]],
  webServer: {
    command: `${process.env.MOCK_SERVE ?? 'npx agent-registry-kit serve'} --port ${port}`,
    url: `${mockUrl}/__mock/health`,
    reuseExistingServer: false,
    stdout: 'ignore',
  },
  use: {
    mockUrl,
    // No browser download: the consumer test passes the Chromium it chose (test/browser/chromium.ts) as CHROMIUM.
    launchOptions: { executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] },
  },
});
