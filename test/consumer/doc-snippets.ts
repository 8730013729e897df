// Every TypeScript snippet of the user's guides, as the package ships them (README.md, docs/testing-your-app.md), type-
// checked in the scratch app against the packed kit: each fenced `ts`/`tsx` block becomes a module of its own under
// doc-snippets/, beside the fixture's prelude.d.ts, which declares only what a snippet takes from the text around it
// (the `server` of the setup, an `agent` seeded before, Testing Library's `screen`…). A snippet that calls an API the
// kit does not have, or calls it wrongly, fails this step.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { appBin, run, scratch } from './scratch-app.ts';

/** The guides whose snippets are checked, as the package ships them. */
const GUIDES = ['README.md', 'docs/testing-your-app.md'];

/** One fenced TypeScript block of a guide. */
interface DocSnippet {
  guide: string;
  /** The line of its opening fence (1-based). */
  line: number;
  language: 'ts' | 'tsx';
  code: string;
}

/**
 * The `ts` and `tsx` blocks of a markdown text.
 * @example docSnippets('README.md', '```ts\nconst a = 1;\n```\n') // [{ guide: 'README.md', line: 1, language: 'ts', … }]
 */
function docSnippets(guide: string, markdown: string): DocSnippet[] {
  const snippets: DocSnippet[] = [];
  // A block may be indented under a list item: its fence and lines are, by the same spaces.
  for (const match of markdown.matchAll(/^( *)```(tsx?)\n([\s\S]*?)^\1```$/gm)) {
    const line = markdown.slice(0, match.index).split('\n').length;
    const indent = match[1] ?? '';
    const code = (match[3] ?? '')
      .split('\n')
      .map((text) => (text.startsWith(indent) ? text.slice(indent.length) : text))
      .join('\n');
    snippets.push({ guide, line, language: match[2] as 'ts' | 'tsx', code });
  }
  return snippets;
}

/** Writes every snippet of the shipped guides into `<app>/doc-snippets/`, each a module; resolves with them. */
async function writeDocSnippets(app: string): Promise<DocSnippet[]> {
  const kit = join(app, 'node_modules', 'agent-registry-kit');
  const snippets = (
    await Promise.all(GUIDES.map(async (guide) => docSnippets(guide, await readFile(join(kit, guide), 'utf8'))))
  ).flat();
  await mkdir(join(app, 'doc-snippets'), { recursive: true });
  for (const snippet of snippets) {
    const name = `${snippet.guide.replace(/[/.]/g, '-')}-${snippet.line}.${snippet.language}`;
    await writeFile(
      join(app, 'doc-snippets', name),
      `// ${snippet.guide}, line ${snippet.line}\n${snippet.code}\nexport {};\n`,
    );
  }
  return snippets;
}

/** Registers the step; call it inside consumer.test.ts's describe. */
export function docSnippetSteps(): void {
  it('type-checks every TypeScript snippet of the README and docs/testing-your-app.md against the packed kit', async () => {
    const snippets = await writeDocSnippets(scratch.app);
    expect(snippets.length).toBeGreaterThan(20);
    const checked = await run(appBin('tsc'), ['-p', 'tsconfig.snippets.json'], scratch.app);
    expect(`${checked.stdout}${checked.stderr}`, 'tsc -p tsconfig.snippets.json').toBe('');
    expect(checked.status).toBe(0);
  });
}
