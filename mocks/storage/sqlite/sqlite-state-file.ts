// What a `--state` path is before SQLite touches it: nothing yet, an SQLite file we may write, or something refused with
// one line saying what to do (a directory, a dangling symlink, a read-only file or folder, JSON, another format).
import { accessSync, closeSync, constants, lstatSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** Thrown for a path the fake will not use; its message is the one line the CLI prints. */
export class StateRefusal extends Error {
  override readonly name = 'StateRefusal';
}

const code = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? 'error';
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Whether this process may write `path` (the file, or the folder where SQLite puts its WAL file beside it). */
function writable(path: string): string | undefined {
  try {
    accessSync(path, constants.W_OK);
    return undefined;
  } catch (error) {
    return code(error);
  }
}

/** What the file starts with: an SQLite database, an old JSON state, nothing at all, or something else. */
function sniff(path: string): 'empty' | 'sqlite' | 'json' | 'other' {
  const descriptor = openSync(path, 'r');
  try {
    const head = Buffer.alloc(16);
    const length = readSync(descriptor, head, 0, 16, 0);
    if (length === 0) return 'empty';
    if (head.subarray(0, length).toString('latin1') === 'SQLite format 3\0') return 'sqlite';
    return /^\s*\{/.test(head.subarray(0, length).toString('latin1')) ? 'json' : 'other';
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Checks the path a state database is opened at, creating its folder when missing. Resolves to `new` (SQLite creates
 * it) or `existing` (an SQLite file this process may write); anything else throws a StateRefusal.
 * @example inspectStateFile('/tmp/store.db') // 'new'
 */
export function inspectStateFile(path: string): 'new' | 'existing' {
  const refuse = (why: string): never => {
    throw new StateRefusal(`the state database ${path} ${why}`);
  };
  let link: ReturnType<typeof lstatSync> | undefined;
  try {
    link = lstatSync(path);
  } catch (error) {
    if (code(error) !== 'ENOENT') refuse(`cannot be looked at (${code(error)}); check the path and its permissions`);
  }
  if (link?.isSymbolicLink()) {
    // SQLite would create the link's target, somewhere the user never named.
    try {
      statSync(path);
    } catch {
      refuse('is a symbolic link to a file that does not exist; point --state at a real path, or remove the link');
    }
  }
  if (link !== undefined) {
    if (statSync(path).isDirectory())
      refuse('is a directory; pass the path of a file in it (e.g. --state <dir>/store.db)');
    let kind: ReturnType<typeof sniff> = 'other';
    try {
      kind = sniff(path);
    } catch (error) {
      refuse(`cannot be read (${code(error)}); check its permissions`);
    }
    if (kind === 'json')
      refuse(
        'is JSON, not SQLite: JSON state files of earlier versions are not read (the state is kept in SQLite now); pass a new path (e.g. --state store.db) to start from the seed',
      );
    if (kind === 'other') refuse('is not an SQLite database; pass another --state path (or move this file away)');
    const fileDenied = writable(path);
    if (fileDenied)
      refuse(
        `is read-only for this process (${fileDenied}): the fake writes every change to it; make it writable (chmod u+w), or copy it to a writable path`,
      );
    const folderDenied = writable(dirname(path));
    if (folderDenied)
      refuse(
        `is in a folder this process cannot write (${folderDenied}): SQLite keeps its write-ahead log beside the file; make the folder writable, or copy the file elsewhere`,
      );
    if (kind === 'sqlite') return 'existing';
  }
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    refuse(`cannot be created (${message(error)}); pick another --state path`);
  }
  return 'new';
}
