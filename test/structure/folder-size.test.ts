// No folder holds more than 20 files directly (generated files aside): past that a newcomer can no longer name the
// folder a change goes to from the sentence "where does this change go", and the folder wants subfolders by concern.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const MAX_FILES = 20;

/**
 * The folders holding more than `max` of the given files directly, with their counts.
 * @example crowdedFolders(['a/x.ts', 'a/y.ts'], 1); // [['a', 2]]
 */
function crowdedFolders(files: readonly string[], max: number): [string, number][] {
  const counts = new Map<string, number>();
  for (const file of files) {
    if (file.endsWith('.generated.ts')) continue;
    const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.';
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  return [...counts].filter(([folder, count]) => folder !== '.' && count > max);
}

describe('folders', () => {
  it(`hold at most ${MAX_FILES} files each, generated files aside`, () => {
    const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files.length).toBeGreaterThan(100);
    expect(crowdedFolders(files, MAX_FILES)).toEqual([]);
  });

  it('are counted one level at a time, generated files aside', () => {
    const files = ['a/1.ts', 'a/2.ts', 'a/b/3.ts', 'a/x.generated.ts', 'top.ts', 'other.ts'];
    expect(crowdedFolders(files, 1)).toEqual([['a', 2]]);
    expect(crowdedFolders(files, 2)).toEqual([]);
  });
});
