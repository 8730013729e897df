// CONTRIBUTING.md's worked example compiles as written. Its `ts` blocks are the handler and the test of an operation
// the product spec does not have (listAgents), so they are type-checked in memory against the live spec with the
// example's fragment merged in (contributing-walk.yaml): the generated types are rendered from that variant as
// `npm run generate` would, and each block is placed at the path its step names, with the repository's tsconfig. Its
// `yaml` blocks are the fragment's, entry for entry. Nothing is written to disk and no process is started.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { renderSpecFiles } from '../../tools/generated-files.ts';
import { repoRoot } from '../support/spawned-server.ts';

/** One fenced block of CONTRIBUTING.md, with the file its step names (the last bold `path` before it). */
interface Block {
  line: number;
  language: string;
  code: string;
  file: string | undefined;
}

function blocks(markdown: string): Block[] {
  const found: Block[] = [];
  // A block may be indented under a list item: its fence and lines are, by the same spaces.
  for (const match of markdown.matchAll(/^( *)```(\w+)\n([\s\S]*?)^\1```$/gm)) {
    const before = markdown.slice(0, match.index);
    const indent = match[1] ?? '';
    found.push({
      line: before.split('\n').length,
      language: match[2] ?? '',
      code: (match[3] ?? '')
        .split('\n')
        .map((text) => (text.startsWith(indent) ? text.slice(indent.length) : text))
        .join('\n'),
      file: [...before.matchAll(/\*\*`([\w./-]+\.ts)`\*\*/g)].at(-1)?.[1],
    });
  }
  return found;
}

type Fragment = { paths: Record<string, unknown>; components: Record<string, Record<string, unknown>> };

const contributing = blocks(readFileSync(join(repoRoot, 'CONTRIBUTING.md'), 'utf8'));
const fragment = parse(readFileSync(new URL('./contributing-walk.yaml', import.meta.url), 'utf8')) as Fragment;

/** spec/openapi.yaml with the example's paths and components added. */
function walkedSpec(): string {
  const spec = parse(readFileSync(join(repoRoot, 'spec/openapi.yaml'), 'utf8')) as Fragment;
  Object.assign(spec.paths, fragment.paths);
  for (const [section, entries] of Object.entries(fragment.components))
    spec.components[section] = { ...spec.components[section], ...entries };
  return stringify(spec);
}

describe("CONTRIBUTING.md's worked example", () => {
  it('shows the spec fragment it was walked with', () => {
    const yamlBlocks = contributing.filter((block) => block.language === 'yaml');
    expect(yamlBlocks.length).toBeGreaterThan(0);
    for (const block of yamlBlocks)
      for (const [section, entries] of Object.entries(parse(block.code) as Record<string, Record<string, unknown>>))
        for (const [name, entry] of Object.entries(entries))
          expect(
            entry,
            `CONTRIBUTING.md line ${block.line}: components/${section}/${name} differs from test/structure/contributing-walk.yaml`,
          ).toEqual(fragment.components[section]?.[name]);
  });

  it('type-checks every ts block at the path its step names, against the spec with the fragment', async () => {
    const tsBlocks = contributing.filter((block) => block.language === 'ts');
    expect(tsBlocks.map((block) => block.file)).toEqual(tsBlocks.map(() => expect.stringMatching(/^mocks\/.+\.ts$/)));
    const overlay = new Map<string, string>();
    for (const [relative, content] of await renderSpecFiles(walkedSpec()))
      if (relative.endsWith('.ts')) overlay.set(join(repoRoot, relative), content);
    for (const block of tsBlocks) overlay.set(join(repoRoot, block.file ?? ''), block.code);

    const config = ts.getParsedCommandLineOfConfigFile(
      join(repoRoot, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
          throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
        },
      },
    );
    if (!config) throw new Error('tsconfig.json did not parse');
    const host = ts.createCompilerHost(config.options);
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    host.readFile = (name) => overlay.get(name) ?? readFile(name);
    host.fileExists = (name) => overlay.has(name) || fileExists(name);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (name, language, ...rest) => {
      const text = overlay.get(name);
      return text === undefined ? getSourceFile(name, language, ...rest) : ts.createSourceFile(name, text, language);
    };
    const roots = tsBlocks.map((block) => join(repoRoot, block.file ?? ''));
    const program = ts.createProgram({ rootNames: roots, options: { ...config.options, noEmit: true }, host });
    const errors = roots.flatMap((root) =>
      ts.getPreEmitDiagnostics(program, program.getSourceFile(root)).map((diagnostic) => {
        const where = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        const block = tsBlocks.find((candidate) => join(repoRoot, candidate.file ?? '') === diagnostic.file?.fileName);
        return `CONTRIBUTING.md line ${(block?.line ?? 0) + 1 + (where?.line ?? 0)} (${block?.file}): ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
      }),
    );
    expect(errors).toEqual([]);
  }, 60_000);
});
