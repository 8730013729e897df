// Writing a pact to disk, for the test APIs that run under Node (setupMockServer's, connectTestApi's) and `pact export`:
// kept apart so the browser entry, whose test API has no file system, never imports node:fs. One writer for all:
// merged into what the file holds (pact-merge.ts), under a lock file beside it so several vitest workers writing one
// pact at once lose nothing, and written to a temporary file beside it then renamed, so a reader never sees half a pact.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { JsonObject, JsonValue } from '../../spec/index.ts';
import { pactText } from './pact-document.ts';
import { mergePact, PactMergeRefusal } from './pact-merge.ts';

/** A pact the fake writes is a few hundred interactions; a file far larger is not one to merge into. */
const MAX_EXISTING_BYTES = 64 * 1024 * 1024;
/** How long a writer waits for another's lock before it gives up. */
const LOCK_WAIT_MS = 30_000;
/** A lock older than this was left by a writer that died (a write takes milliseconds): it is taken over. */
const STALE_LOCK_MS = 10_000;

/** Why a pact could not be written: one line naming the file and the cause; nothing was changed. */
export class PactFileError extends Error {
  override readonly name = 'PactFileError';
}

/** Thrown after a merge kept the file's answer where the new pact answers a key differently (everything else written). */
export class PactConflictError extends Error {
  override readonly name = 'PactConflictError';
  readonly conflicts: string[];
  constructor(file: string, conflicts: string[]) {
    const listed = conflicts
      .slice(0, 3)
      .map((key) => JSON.stringify(key))
      .join(', ');
    super(
      `${shown(file)} already holds ${conflicts.length} interaction(s) these tests answered differently (${listed}${conflicts.length > 3 ? ', …' : ''}); the file's were kept. Give the tests the same data for one interaction, or remove the file before the run`,
    );
    this.conflicts = conflicts;
  }
}

/** What a write did. */
export interface WrittenPactFile {
  /** Interactions in the file now. */
  interactions: number;
  /** Interactions this write added to what the file held. */
  added: number;
}

/** A file name as an error shows it: quoted, control characters escaped, at most 200 characters. */
function shown(file: string): string {
  return JSON.stringify(file.length > 200 ? `${file.slice(0, 200)}…` : file);
}

/** The one line of a failed file operation, by its code. */
function fileError(file: string, error: unknown): PactFileError {
  const code = (error as { code?: unknown }).code;
  const causes: Record<string, string> = {
    EISDIR: 'is a folder; give a file name',
    ENOTDIR: 'has a part that is not a folder',
    EACCES: 'cannot be written: permission denied',
    EPERM: 'cannot be written: not permitted',
    EROFS: 'is on a read-only file system',
    ENOSPC: 'cannot be written: no space left on the device',
    EDQUOT: 'cannot be written: the disk quota is exceeded',
    ENAMETOOLONG: 'is too long a name for the file system',
    ELOOP: 'goes through too many symbolic links',
  };
  const cause =
    typeof code === 'string' && causes[code] !== undefined
      ? causes[code]
      : `cannot be written (${typeof code === 'string' ? code : String(error).slice(0, 200)})`;
  return new PactFileError(`the pact file ${shown(file)} ${cause}`);
}

const pause = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Takes the lock beside `path` (created exclusively), waiting for another writer's; resolves with its release. */
async function lock(file: string, path: string): Promise<() => Promise<void>> {
  const lockPath = `${path}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const handle = await open(lockPath, 'wx');
      await handle.write(`${process.pid}\n`);
      await handle.close();
      return () => rm(lockPath, { force: true });
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw fileError(file, error);
    }
    const held = await stat(lockPath).catch(() => undefined);
    if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) {
      await rm(lockPath, { force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new PactFileError(
        `the pact file ${shown(file)} stays locked by another writer (${shown(basename(lockPath))} for ${LOCK_WAIT_MS / 1000} s)`,
      );
    await pause(5 + Math.min(attempt, 10) * 5 * Math.random());
  }
}

/** What the file holds now, parsed; undefined when there is none. */
async function readExisting(file: string, path: string): Promise<JsonValue | undefined> {
  let text: string;
  try {
    const size = (await stat(path)).size;
    if (size > MAX_EXISTING_BYTES)
      throw new PactFileError(`the pact file ${shown(file)} is larger than 64 MiB; remove it or write another file`);
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof PactFileError) throw error;
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw fileError(file, error);
  }
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    throw new PactFileError(`the pact file ${shown(file)} holds no pact (not JSON); remove it or write another file`);
  }
}

/** Writes `text` to a temporary file beside `path`, then renames it over `path`; nothing is left behind on failure. */
async function replaceAtomically(file: string, path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(temporary, 'wx');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw fileError(file, error);
  }
}

/**
 * Writes a pact's text to `file` (relative to the working directory), creating its folder, merged into the pact the
 * file already holds for the same consumer and provider. Throws a PactFileError (one line, nothing changed) for a name
 * that is a folder, cannot be written or holds something else, and a PactConflictError after writing when the file
 * answered a key differently (the file's interaction kept).
 * @example await writePactFile('pacts/web-app-agent-registry.json', pactText(pact)); // { interactions: 7, added: 7 }
 */
export async function writePactFile(file: string, text: string): Promise<WrittenPactFile> {
  if (file === '' || /[/\\]$/.test(file))
    throw new PactFileError(
      `the pact file ${shown(file)} names a folder; give a file name, such as pacts/web-app.json`,
    );
  const path = resolve(file);
  const pact = JSON.parse(text) as JsonObject;
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (error) {
    throw fileError(file, error);
  }
  if ((await stat(path).catch(() => undefined))?.isDirectory())
    throw fileError(file, Object.assign(new Error('folder'), { code: 'EISDIR' }));
  const release = await lock(file, path);
  let conflicts: string[];
  let written: WrittenPactFile;
  try {
    let merged: ReturnType<typeof mergePact>;
    try {
      merged = mergePact(await readExisting(file, path), pact);
    } catch (error) {
      if (error instanceof PactMergeRefusal) throw new PactFileError(`the pact file ${shown(file)} ${error.message}`);
      throw error;
    }
    await replaceAtomically(file, path, pactText(merged.pact));
    conflicts = merged.conflicts;
    const interactions = merged.pact.interactions;
    written = { interactions: Array.isArray(interactions) ? interactions.length : 0, added: merged.added };
  } finally {
    await release();
  }
  if (conflicts.length > 0) throw new PactConflictError(file, conflicts);
  return written;
}
