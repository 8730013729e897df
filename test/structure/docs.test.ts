// The README is the package user's guide and stays short; every relative link of the README, CONTRIBUTING.md and the
// guides of docs/ lands on a file that exists (and a heading there), and so does every repository path they name.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const README_MAX_LINES = 200;

/** The Markdown files whose links are checked, relative to the repository's root. */
const documents = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** A Markdown text without its fenced code blocks, which hold examples, not headings or links. */
function withoutCodeBlocks(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The targets of the inline links and images of a Markdown text, in order. */
function linkTargets(markdown: string): string[] {
  return [
    ...withoutCodeBlocks(markdown)
      .replace(/`[^`\n]*`/g, '')
      .matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g),
  ].map((match) => match[1] ?? '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens (repeats get -1, -2, …). */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutCodeBlocks(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const slug = (heading ?? '')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** What is wrong with one link of `document` (a path relative to the root), or undefined when it resolves. */
function brokenLink(document: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: …: not a file of this repository
  const [pathPart = '', anchor] = target.split('#', 2);
  const path = pathPart === '' ? join(root, document) : join(root, dirname(document), decodeURIComponent(pathPart));
  const shown = relative(root, path) || '.';
  if (!path.startsWith(root) && `${path}/` !== root) return `${target}: ${shown} is outside the repository`;
  if (!existsSync(path)) return `${target}: ${shown} does not exist`;
  if (anchor === undefined || anchor === '' || !path.endsWith('.md') || statSync(path).isDirectory()) return undefined;
  if (!headingAnchors(readFileSync(path, 'utf8')).has(decodeURIComponent(anchor).toLowerCase())) {
    return `${target}: ${shown} has no heading #${anchor}`;
  }
  return undefined;
}

describe('the README and the docs', () => {
  test(`README.md, the package user's guide, is at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').replace(/\n$/, '').split('\n').length;
    expect(lines, 'move detail to the page of docs/ that covers it, and link it').toBeLessThanOrEqual(README_MAX_LINES);
  });

  test.each(documents)('every relative link of %s resolves to an existing file (and heading)', (document) => {
    const targets = linkTargets(readFileSync(join(root, document), 'utf8'));
    expect(targets.map((target) => brokenLink(document, target)).filter(Boolean)).toEqual([]);
  });

  test('the link check can fail: a missing file, a missing heading and a path outside the repository', () => {
    expect(brokenLink('README.md', 'docs/no-such-page.md')).toMatch(/does not exist/);
    expect(brokenLink('README.md', 'docs/configuration.md#no-such-heading')).toMatch(/has no heading/);
    expect(brokenLink('docs/fake-backend.md', '../../outside.md')).toMatch(/outside the repository/);
    expect(brokenLink('docs/fake-backend.md', 'configuration.md#troubleshooting')).toBeUndefined();
    const heading = 'docs/configuration.md#control-plane-__mock';
    expect(brokenLink('README.md', heading)).toBeUndefined();
    expect(linkTargets(readFileSync(join(root, 'README.md'), 'utf8')).length).toBeGreaterThan(10);
    expect(linkTargets('see `[not](a-link.md)` and [one](b.md "title")\n```\n[nor](c.md)\n```')).toEqual(['b.md']);
    expect([...headingAnchors('## Control plane (`/__mock/`)\n## A\n## A')]).toEqual([
      'control-plane-__mock',
      'a',
      'a-1',
    ]);
  });
});

/** The folders .gitignore names: outputs a command writes (build/, dist/), not what a clone has. */
const ignoredFolders = readFileSync(join(root, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim().replace(/^\//, '').replace(/\/$/, ''))
  .filter((line) => line !== '' && !line.startsWith('#'));

/** The repository's top-level folders, whose paths the docs name in code spans (`mocks/core/router.ts`). */
const topFolders = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !ignoredFolders.includes(entry.name))
  .map((entry) => entry.name);

/** The paths into the repository a Markdown text names in code spans, outside its code blocks. */
function namedPaths(markdown: string): string[] {
  const paths = [...withoutCodeBlocks(markdown).matchAll(/`([a-z][\w.-]*\/[\w./{}-]*)`/g)].map(
    (match) => match[1] ?? '',
  );
  return paths.filter((path) => topFolders.includes(path.split('/')[0] ?? '') && !path.includes('{'));
}

/** CONTRIBUTING's worked example names the files it has a contributor add: those named after its operations. */
const walkOperations = [
  ...readFileSync(join(root, 'test/structure/contributing-walk.yaml'), 'utf8').matchAll(/operationId: (\w+)/g),
].map((match) => match[1] ?? '');

describe('the paths the docs name', () => {
  test.each(documents)('every repository path %s names in code exists', (document) => {
    const added = (path: string) =>
      document === 'CONTRIBUTING.md' && walkOperations.some((id) => path.split('/').at(-1)?.startsWith(id));
    const missing = namedPaths(readFileSync(join(root, document), 'utf8')).filter(
      (path) => !added(path) && !existsSync(join(root, path)),
    );
    expect(missing, 'a file moved or was renamed: name where it is now').toEqual([]);
  });

  test('the check reads code spans of repository paths only', () => {
    expect(
      namedPaths('`mocks/core/router.ts`, `npm test`, `node:http`, `a/b`, `docs/`\n```\n`spec/x.ts`\n```'),
    ).toEqual(['mocks/core/router.ts', 'docs/']);
    expect(walkOperations).toContain('listAgents');
  });
});

describe('docs/fake-backend.md', () => {
  /** The operationIds of spec/openapi.yaml, read from the document's text (this file imports nothing of the kit). */
  const operationIds = [
    ...readFileSync(join(root, 'spec/openapi.yaml'), 'utf8').matchAll(/^ {6}operationId: (\w+)$/gm),
  ].map((match) => match[1] ?? '');

  test('describes the behaviour of every operation of the spec, by its operationId', () => {
    const guide = readFileSync(join(root, 'docs/fake-backend.md'), 'utf8');
    const behaviour = guide.slice(
      guide.indexOf('## Behaviour'),
      guide.indexOf('\n## ', guide.indexOf('## Behaviour') + 1),
    );
    expect(operationIds.length).toBeGreaterThanOrEqual(3);
    expect(
      operationIds.filter((id) => !behaviour.includes(`(\`${id}\``)),
      'operations without a bullet under "Behaviour" in docs/fake-backend.md, named by operationId (CONTRIBUTING.md, "Adding an endpoint")',
    ).toEqual([]);
  });
});

describe('the code the docs show', () => {
  /** The fenced code blocks of every checked document, each with where it is. */
  const blocks = documents.flatMap((document) =>
    [...readFileSync(join(root, document), 'utf8').matchAll(/^```[^\n]*\n([\s\S]*?)^```$/gm)].map((match) => ({
      document,
      code: match[1] ?? '',
    })),
  );

  test('every openapi-fetch client they create applies the Pitfalls fix (a fetch looked up at each call)', () => {
    const clients = blocks.filter(({ code }) => code.includes('createClient<'));
    expect(clients.length).toBeGreaterThan(0);
    const unfixed = clients.filter(
      ({ code }) => !/createClient<[^>]+>\(\{[\s\S]*?fetch: \(\.\.\.args\) => fetch\(\.\.\.args\)/.test(code),
    );
    expect(unfixed.map(({ document, code }) => `${document}: ${code.slice(0, 120)}`)).toEqual([]);
  });

  test('the README’s Vite entry is the guide’s: src/main.tsx, behind VITE_MOCK', () => {
    const vite = blocks.filter(({ code }) => code.includes("import('agent-registry-kit/browser')"));
    expect(vite.map(({ document }) => document).sort()).toEqual(['README.md', 'docs/testing-your-app.md']);
    for (const { code } of vite) {
      expect(code).toMatch(/src\/main\.tsx/);
      expect(code).toMatch(/import\.meta\.env\.VITE_MOCK === 'true'/);
    }
  });

  test('a Playwright config that sets the fixture’s options types them (defineConfig<MockFixtureOptions>)', () => {
    const configs = blocks.filter(({ code }) => /defineConfig/.test(code) && /mockUrl/.test(code));
    expect(configs.length).toBeGreaterThan(0);
    expect(
      configs.filter(({ code }) => !code.includes('defineConfig<MockFixtureOptions>')).map((b) => b.document),
    ).toEqual([]);
  });
});
