// docs/development.md's "Project layout" table keeps step with the tree: every top-level folder git tracks (dot-folders
// aside) has exactly one row, and every folder a row names exists. A folder added, renamed or removed without its row
// fails here, so the page a newcomer reads first never describes a tree that is gone.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The folders the first column of the "Project layout" table names, in order, repeats kept: each row's first cell
 * is one folder in backticks with a trailing slash.
 * @example layoutFolders('## Project layout\n\n| Folder | What |\n|---|---|\n| `spec/` | the contract |\n'); // ['spec']
 */
function layoutFolders(markdown: string): string[] {
  const start = markdown.indexOf('\n## Project layout\n');
  if (start === -1) throw new Error('docs/development.md has no "## Project layout" section');
  const rest = markdown.slice(start + 1);
  const next = rest.indexOf('\n## ');
  const section = next === -1 ? rest : rest.slice(0, next);
  const folders: string[] = [];
  for (const line of section.split('\n')) {
    const cell = /^\|\s*`([^`]+)\/`\s*\|/.exec(line);
    if (cell?.[1] !== undefined) folders.push(cell[1]);
  }
  return folders;
}

/** The top-level folders that hold a file git tracks, dot-folders (.ci, .github, …) left out. */
function trackedTopFolders(): string[] {
  const paths = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0');
  const folders = new Set(paths.filter((path) => path.includes('/')).map((path) => path.slice(0, path.indexOf('/'))));
  return [...folders].filter((folder) => !folder.startsWith('.')).sort();
}

describe('the project layout in docs/development.md', () => {
  const table = layoutFolders(readFileSync(join(root, 'docs/development.md'), 'utf8'));

  it('reads the folders of a table, and only of that section', () => {
    const page = [
      '# Page',
      '## Project layout',
      '| Folder | What lives there |',
      '|---|---|',
      '| `spec/` | the contract |',
      '| `mocks/` | the fake |',
      '## Another section',
      '| `elsewhere/` | not a layout row |',
    ].join('\n');
    expect(layoutFolders(page)).toEqual(['spec', 'mocks']);
  });

  it('lists every top-level folder git tracks, each once', () => {
    const repeated = table.filter((folder, index) => table.indexOf(folder) !== index);
    expect(repeated, 'folders with more than one row').toEqual([]);
    const missing = trackedTopFolders().filter((folder) => !table.includes(folder));
    expect(missing, 'tracked folders without a row in the table').toEqual([]);
  });

  it('names only folders that exist and git tracks', () => {
    const tracked = trackedTopFolders();
    const absent = table.filter((folder) => !tracked.includes(folder) || !isDirectory(join(root, folder)));
    expect(absent, 'rows naming a folder the repository does not have').toEqual([]);
  });
});

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
