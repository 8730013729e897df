// The mutants the mutation run (stryker.config.mjs) leaves out, read from the `// Stryker disable` comments in the
// folders it mutates: each says which mutators of which line, and why (equivalent, or a behaviour the service
// description does not pin). Rendered into docs/mutation-exclusions.md by `npm run generate`, so the list and the
// comments Stryker obeys cannot drift apart.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folders Stryker mutates (stryker.config.mjs `mutate`), from the repository's root. */
export const mutatedFolders = ['mocks/operations', 'mocks/state', 'mocks/state/store', 'mocks/core/request'] as const;

/** One exclusion: where, which mutators, and why. */
export interface MutationExclusion {
  file: string;
  /** What the comment excludes: its next line (trimmed), or `lines a-b` of a `disable all` … `restore all` block. */
  code: string;
  mutators: string;
  reason: string;
}

const root = fileURLToPath(new URL('../', import.meta.url));
const nextLine = /^\/\/ Stryker disable next-line ([\w,]+): ((?:equivalent|not pinned|not reached): .+)$/;
const blockStart = /^\/\/ Stryker disable all: ((?:equivalent|not pinned|not reached): .+)$/;

/**
 * The files of the mutated folders that stryker.config.mjs leaves out of `mutate` (its `'!mocks/…'` entries): code
 * that only the control plane, the test API or the node adapter runs. Their comments exclude nothing and are not listed.
 * @example outOfScope().has('mocks/state/agent-seed.ts') // true
 */
export function outOfScope(): Set<string> {
  const config = readFileSync(join(root, 'stryker.config.mjs'), 'utf8');
  return new Set([...config.matchAll(/'!(mocks\/[\w/.-]+\.ts)'/g)].map((match) => match[1] ?? ''));
}

function sources(folder: string): string[] {
  const skipped = outOfScope();
  return readdirSync(join(root, folder), { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !/\.(test|generated)\.ts$/.test(entry.name))
    .map((entry) => join(root, folder, entry.name))
    .filter((path) => !skipped.has(relative(root, path)))
    .sort();
}

/** The exclusions of one file's lines. */
function exclusionsOf(file: string, lines: readonly string[]): MutationExclusion[] {
  const found: MutationExclusion[] = [];
  let open: { from: number; reason: string } | undefined;
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line.startsWith('// Stryker ')) continue;
    const single = nextLine.exec(line);
    const block = blockStart.exec(line);
    if (single?.[1] && single[2] && !open) {
      found.push({ file, code: (lines[index + 1] ?? '').trim(), mutators: single[1], reason: single[2] });
    } else if (block?.[1] && !open) {
      open = { from: index + 2, reason: block[1] };
    } else if (line === '// Stryker restore all' && open) {
      found.push({ file, code: `lines ${open.from}-${index}`, mutators: 'all', reason: open.reason });
      open = undefined;
    } else {
      throw new Error(
        `${file}:${index + 1}: a Stryker comment is "// Stryker disable next-line <mutators>: <class>: <reason>" or a "// Stryker disable all: <class>: <reason>" … "// Stryker restore all" block, <class> one of equivalent, not pinned, not reached`,
      );
    }
  }
  if (open)
    found.push({
      file,
      code: lines.slice(0, open.from - 2).every((l) => l.startsWith('//'))
        ? 'the whole file'
        : `lines ${open.from}-${lines.length}`,
      mutators: 'all',
      reason: open.reason,
    });
  return found;
}

/**
 * Every Stryker comment in the mutated folders. Each states its class (equivalent: no request can tell the mutant from
 * the fake; not pinned: the service description leaves the behaviour open; not reached: code the API never runs, such
 * as the control plane's) and one line of reason; any other form is an error, so no mutant is excluded silently.
 * @example mutationExclusions()[0] // { file: 'mocks/state/store/store.ts', code: '…', mutators: 'all', reason: 'not reached: …' }
 */
export function mutationExclusions(): MutationExclusion[] {
  return mutatedFolders
    .flatMap(sources)
    .flatMap((path) => exclusionsOf(relative(root, path), readFileSync(path, 'utf8').split('\n')));
}

/** The table of docs/mutation-exclusions.md. */
export function renderMutationExclusions(): string {
  const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('`', "'");
  const rows = mutationExclusions().map(
    ({ file, code, mutators, reason }) =>
      `| ${file} | \`${cell(code.length > 70 ? `${code.slice(0, 67)}...` : code)}\` | ${mutators.replaceAll(',', ', ')} | ${cell(reason)} |`,
  );
  return ['| file | code | mutators | why it is excluded |', '|---|---|---|---|', ...rows].join('\n');
}
