// Writing a pact to disk, for the test APIs that run under Node (setupMockServer's, connectTestApi's): kept apart so the
// browser entry, whose test API has no file system, never imports node:fs.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * Writes a pact's text to `file` (relative to the working directory), creating its folder.
 * @example await writePactFile('pacts/web-app-agent-registry.json', pactText(pact));
 */
export async function writePactFile(file: string, text: string): Promise<void> {
  const path = resolve(file);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}
