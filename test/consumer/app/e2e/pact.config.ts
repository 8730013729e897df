// Playwright for the pact step: the one test of pact.flow.ts against a serve the consumer test started (MOCK_URL), so
// the fake is still up afterwards for `agent-registry-kit pact export`.
import { defineConfig } from '@playwright/test';
import type { MockFixtureOptions } from 'agent-registry-kit/playwright';

export default defineConfig<MockFixtureOptions>({
  testDir: '.',
  testMatch: 'pact.flow.ts',
  workers: 1,
  retries: 0,
  timeout: 120_000,
  reporter: [['list']],
  use: {
    mockUrl: process.env.MOCK_URL,
    launchOptions: { executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] },
  },
});
