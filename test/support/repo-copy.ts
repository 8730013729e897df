// A copy of the repository in the temp directory, for the tests that change the spec or the code of a copy and run the
// kit's own commands in it (an added operation, a bad keyword): every tracked file, node_modules linked, not copied.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './spawned-server.ts';

/**
 * Copies the repository's tracked files into `root` (an empty directory) and links its node_modules there; resolves to
 * the files copied, relative to the root.
 * @example const copy = mkdtempSync(join(tmpdir(), 'agent-registry-x-')); await copyTrackedFiles(copy);
 */
export async function copyTrackedFiles(root: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)('git', ['ls-files', '-z'], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
  const files = stdout.split('\0').filter((path) => path !== '');
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    cpSync(join(repoRoot, file), join(root, file));
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  return files;
}
