// Launches Debian's Chromium for the browser tests through playwright-core (no tool may download its own browser here),
// headless, kept off the network, on a fresh profile; and says loudly when Chromium is absent so the skip is visible.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Where Chromium is looked for: `CHROMIUM_PATH`, else Debian's package. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether the browser tests can run on this machine. */
export const chromiumPresent = existsSync(chromiumPath);

/** The folder screenshots go to (git-ignored). */
export const artifactsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'artifacts', 'browser');

if (!chromiumPresent) {
  const message =
    `no Chromium at ${chromiumPath}. Install it with \`sudo apt-get install -y chromium\` ` +
    '(Debian/Ubuntu; .ci/run does this in CI), or set CHROMIUM_PATH to a Chromium binary.';
  // `npm run test:browser` asks for the browser tests only: running none of them would be a silent pass, so it fails.
  if (process.env.REQUIRE_CHROMIUM === '1') throw new Error(`[browser tests] cannot run: ${message}`);
  console.warn(`[browser tests] SKIPPED: ${message}`);
}

// Flags that keep Chromium quiet and off the network: no update checks, no sync, no QUIC, no GPU in a container.
const flags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

/** A headless Chromium on a fresh profile; `close()` also deletes the profile. */
export interface Browser {
  context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Starts Chromium headless with a temporary user-data dir (a persistent context is how playwright takes one).
 * @example const browser = await launchChromium(); const page = await browser.newPage(); await browser.close();
 */
export async function launchChromium(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'agent-registry-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: flags,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Saves a screenshot (the full page unless told otherwise) as artifacts/browser/NAME.png and returns its path.
 * @example await screenshot(page, 'demo-agent-detail');
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  mkdirSync(artifactsDir, { recursive: true });
  const path = join(artifactsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? true });
  return path;
}
