// The reference page as a reviewer opens it: built by `npm run docs`, opened from disk with every network request refused,
// it must show every operation of the spec with its parameters and responses, and the spec's assumptions.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  assumptions,
  getAtPointer,
  isJsonObject,
  openapiDocument,
  operations as specOperations,
  resolveRef,
  type OperationSpec,
} from '../../spec/index.ts';
import { chromiumPresent, launchChromium, screenshot, type Browser } from './chromium.ts';

// Redoc 3 renders one page per tag (#/agents, #/tasks), each operation has its own route, and it gives every operation,
// parameter and response an id. What to look for comes from the spec: every operation, its path parameters, its
// request body's properties and its documented statuses.
interface Expected {
  page: string;
  id: string;
  summary: string;
  path: string;
  parameters: string[];
  statuses: string[];
}

function expectedOf(operation: OperationSpec): Expected {
  const node = getAtPointer(openapiDocument, operation.pointer);
  const fields = isJsonObject(node) ? node : {};
  const tag = Array.isArray(fields.tags) ? String(fields.tags[0]).toLowerCase() : '';
  const id = `${tag}/${operation.operationId.toLowerCase()}`;
  const schema = operation.requestSchemaPointer
    ? resolveRef({ $ref: `#${operation.requestSchemaPointer}` }, operation.requestSchemaPointer).node
    : {};
  const properties = isJsonObject(schema.properties) ? Object.keys(schema.properties) : [];
  return {
    page: `#/${id}`,
    id,
    summary: String(fields.summary ?? ''),
    path: operation.path,
    parameters: [
      ...operation.pathParameters.map((name) => `t=request&in=path&path=${name.toLowerCase()}`),
      ...properties.map((name) => `t=request&path=${name.toLowerCase()}`),
    ],
    statuses: [...operation.responses.keys()].map(String),
  };
}

const operations: Array<[string, Expected]> = [...specOperations.values()].map((operation) => [
  operation.operationId,
  expectedOf(operation),
]);

describe.skipIf(!chromiumPresent)('the API reference page (npm run docs), opened from disk', () => {
  let outDir = '';
  let pagePath = '';
  let browser: Browser;
  let page: Page;
  const offDisk: string[] = [];

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'agent-registry-docs-'));
    const run = spawnSync(process.execPath, ['scripts/commands/docs.ts', '--out', outDir], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    pagePath = run.stdout.trim().split('\n').at(-1) ?? '';
    browser = await launchChromium();
    page = await browser.newPage();
    // No network: anything that is not the file itself is refused and remembered.
    await page.route(/^(?!file:|data:|blob:)/, async (route) => {
      offDisk.push(route.request().url());
      await route.abort('internetdisconnected');
    });
  });

  afterAll(async () => {
    await browser?.close();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('prints the page path as its last line', () => {
    expect(pagePath).toBe(join(outDir, 'index.html'));
  });

  it.each(operations)('renders %s with its summary, path, parameters and responses', async (operationId, want) => {
    await page.goto(`${pathToFileURL(pagePath).href}${want.page}`);
    const operation = page.locator(`[id="${want.id}"]`);
    await operation.waitFor();
    expect(await operation.textContent()).toContain(want.summary);
    expect(await page.locator('body').textContent()).toContain(want.path);
    for (const parameter of want.parameters)
      expect(await page.locator(`[id="${want.id}/${parameter}"]`).count(), parameter).toBe(1);
    const tabs = (await page.locator(`[id="${want.id}/responses"] button`).allTextContents()).map((label) =>
      label.trim(),
    );
    expect(tabs).toEqual(expect.arrayContaining(want.statuses));
    await operation.scrollIntoViewIfNeeded();
    await screenshot(page, `docs-${operationId}`, { fullPage: false });
  });

  it("lists every one of the spec's assumptions", async () => {
    await page.goto(`${pathToFileURL(pagePath).href}#/section/assumptions`);
    const text = (await page.locator('body').textContent()) ?? '';
    for (const assumption of assumptions) expect(text).toContain(assumption.pointer);
    await page.locator('[id="section/assumptions"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'docs-assumptions', { fullPage: false });
  });

  it('says how to measure coverage of the contract from both sides', async () => {
    await page.goto(`${pathToFileURL(pagePath).href}#/section/coverage-of-this-contract`);
    await page.locator('[id="section/coverage-of-this-contract"]').waitFor();
    const text = (await page.locator('body').textContent()) ?? '';
    expect(text).toContain('GET /__mock/coverage');
    expect(text).toContain('npm run coverage');
    expect(text).toContain('npm run contract');
  });

  it('links the diff and spec-change checks to their worked examples', async () => {
    await page.goto(`${pathToFileURL(pagePath).href}#/section/checking-the-fake-and-the-spec-against-reality`);
    const section = page.locator('[id="section/checking-the-fake-and-the-spec-against-reality"]');
    await section.waitFor();
    const text = (await page.locator('body').textContent()) ?? '';
    expect(text).toContain('agent-registry-kit diff --fake');
    expect(text).toContain('agent-registry-kit spec-change --base');
    const links = await page
      .locator('a[href*="agent-registry-kit#"]')
      .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
    // Every link lands on a heading of the README (npm renders it with GitHub's slugs), and every guide the page names
    // is a file of docs/ that the package ships.
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const slugs = [...readme.matchAll(/^#{2,3} (.+)$/gm)].map((match) => githubSlug(match[1] ?? ''));
    expect(links.length).toBeGreaterThan(0);
    for (const href of links) expect(slugs).toContain(href.split('#')[1]);
    expect(text).toContain('docs/spec-change-and-diff.md');
    for (const [, guide] of text.matchAll(/docs\/([\w-]+\.md)/g)) {
      expect(existsSync(new URL(`../../docs/${guide}`, import.meta.url)), guide).toBe(true);
    }
  });

  it('asked for nothing off the disk', () => {
    expect(offDisk).toEqual([]);
  });
});

/** GitHub's (and npm's) anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function githubSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}
