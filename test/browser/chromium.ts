// Launches Chromium for the browser tests through playwright-core, headless, kept off the network, on a fresh profile:
// the system's Chromium when it has one, otherwise the headless Chromium the @sparticuz/chromium devDependency ships (no
// tool may download its own browser here); and says loudly when there is none, so a skip is visible.
import { randomUUID } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createBrotliDecompress } from 'node:zlib';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The folder screenshots go to (git-ignored). */
const artifactsDir = join(root, 'artifacts', 'browser');

/** The Chromium @sparticuz/chromium ships, brotli-compressed in its bin/ folder. */
export interface PackagedChromium {
  archive: string;
  version: string;
}

export type ChromiumChoice = { kind: 'system'; path: string } | ({ kind: 'packaged' } & PackagedChromium);

function packagedChromium(): PackagedChromium | undefined {
  try {
    const entry = createRequire(import.meta.url).resolve('@sparticuz/chromium');
    const packageDir = join(dirname(entry), '..');
    const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
    return { archive: join(packageDir, 'bin', 'chromium.br'), version };
  } catch {
    return undefined;
  }
}

/**
 * Which Chromium the tests use: `CHROMIUM_PATH` when set, and then only that one (a browser named by hand is never
 * silently replaced by another); otherwise Debian's /usr/bin/chromium when the system has it, else the packaged one.
 */
export function chooseChromium(
  chromiumPath: string | undefined,
  exists: (path: string) => boolean,
  packaged: PackagedChromium | undefined,
): ChromiumChoice | undefined {
  const system = chromiumPath ?? '/usr/bin/chromium';
  if (exists(system)) return { kind: 'system', path: system };
  if (chromiumPath !== undefined || packaged === undefined) return undefined;
  return { kind: 'packaged', ...packaged };
}

const chosen = chooseChromium(process.env.CHROMIUM_PATH, existsSync, packagedChromium());

/** Whether the browser tests can run on this machine. */
export const chromiumPresent = chosen !== undefined;

if (chosen === undefined) {
  const message =
    process.env.CHROMIUM_PATH === undefined
      ? 'no Chromium at /usr/bin/chromium and no @sparticuz/chromium in node_modules (a devDependency: npm ci)'
      : `no Chromium at CHROMIUM_PATH=${process.env.CHROMIUM_PATH}`;
  // `npm run test:browser` asks for the browser tests only: running none of them would be a silent pass, so it fails.
  if (process.env.REQUIRE_CHROMIUM === '1') throw new Error(`[browser tests] cannot run: ${message}`);
  console.warn(`[browser tests] SKIPPED: ${message}`);
}

/**
 * Unpacks the packaged Chromium once per version into node_modules/.cache, rather than through the package's own
 * `executablePath()`: that one writes a fixed /tmp/chromium and returns it as soon as the file exists, so a second test
 * worker starting at the same time would launch a binary the first is still writing. Here each process writes a file
 * of its own and renames it into place: a reader sees the whole binary or none.
 */
async function unpack({ archive, version }: PackagedChromium): Promise<string> {
  const target = join(root, 'node_modules', '.cache', `sparticuz-chromium-${version}`, 'chromium');
  if (existsSync(target)) return target;
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.${randomUUID()}.partial`;
  try {
    await pipeline(createReadStream(archive), createBrotliDecompress(), createWriteStream(partial, { mode: 0o755 }));
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
  return target;
}

let executable: Promise<string> | undefined;

/**
 * The path of the Chromium binary to launch (the packaged one is unpacked on first use, about 2 s).
 * @example const path = await chromiumExecutable();
 */
export function chromiumExecutable(): Promise<string> {
  if (chosen === undefined) return Promise.reject(new Error('[browser tests] no Chromium on this machine'));
  executable ??= chosen.kind === 'system' ? Promise.resolve(chosen.path) : unpack(chosen);
  return executable;
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
    executablePath: await chromiumExecutable(),
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
