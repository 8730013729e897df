// `--state file.json`: the store kept in a file, written atomically (temp file, fsync, rename) with coalesced group commits.
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { clockOffsetProblem } from './clock.ts';
import type { MockCore } from './core.ts';
import { consoleLogger, type Logger } from './logger.ts';
import type { StoreSnapshot } from './store.ts';

/** A store kept in a file. */
export interface StateFile {
  readonly path: string;
  /** Restores the file's state into the core (if the file existed) and writes it once, so the file exists from the start. */
  attach(core: MockCore): Promise<void>;
  /**
   * Resolves once a write that holds every mutation made before the call has reached the disk. Calls made while a write
   * is in flight share the next write (group commit), so many concurrent mutations cost one write, not one each.
   */
  commit(): Promise<void>;
  /** Writes the final state and stops. */
  close(): Promise<void>;
}

function isSnapshot(value: unknown): value is StoreSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  const snapshot = value as Partial<StoreSnapshot>;
  return (
    snapshot.version === 2 &&
    typeof snapshot.seed === 'number' &&
    typeof snapshot.catalogueSize === 'number' &&
    typeof snapshot.randomState === 'number' &&
    typeof snapshot.clockOffset === 'number' &&
    typeof snapshot.failureRatio === 'number' &&
    Array.isArray(snapshot.agents) &&
    Array.isArray(snapshot.tasks) &&
    snapshot.agents.every(
      (entry) => typeof entry === 'object' && entry !== null && typeof entry.agent?.agentId === 'string',
    )
  );
}

/**
 * Writes `text` to `path` so that the file is, at every instant, either the old or the new content, never a mix.
 * @example await writeFileAtomic('.state/store.json', JSON.stringify(snapshot));
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w', 0o644);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
  // The rename itself is durable only once the directory entry is flushed.
  const directory = await open(dirname(path), 'r').catch(() => undefined);
  if (directory)
    await directory
      .sync()
      .catch(() => {})
      .finally(() => directory.close());
}

/**
 * Opens (or prepares) a state file; a file that is not a state this kit wrote is refused with a clear message.
 * @example const state = await openStateFile('.state/store.json'); await state.attach(core);
 */
export async function openStateFile(file: string, logger: Logger = consoleLogger): Promise<StateFile> {
  const path = resolve(file);
  let loaded: StoreSnapshot | undefined;
  let text: string | undefined;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT')
      throw new Error(`cannot read the state file ${path} (${code ?? 'error'}); check its permissions`);
  }
  if (text !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`the state file ${path} is not valid JSON; move it away (or delete it) to start from the seed`);
    }
    if (!isSnapshot(parsed))
      throw new Error(
        `the state file ${path} is not a state written by this kit; move it away (or delete it) to start from the seed`,
      );
    const offsetProblem = clockOffsetProblem(parsed.clockOffset);
    if (offsetProblem)
      throw new Error(
        `the state file ${path} has a clockOffset that ${offsetProblem}; fix it, or move the file away to start from the seed`,
      );
    loaded = parsed;
  }
  // Fail now, not at the first deploy, when the directory cannot be made or written.
  await mkdir(dirname(path), { recursive: true }).catch(() => {});
  await writeFileAtomic(`${path}.probe`, '')
    .then(() => unlink(`${path}.probe`))
    .catch((error: NodeJS.ErrnoException) => {
      throw new Error(
        `cannot write next to the state file ${path} (${error.code ?? 'error'}); pick another --state path`,
      );
    });

  let core: MockCore | undefined;
  let writing = false;
  let waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];

  const flush = (): void => {
    if (writing || waiting.length === 0 || !core) return;
    writing = true;
    const batch = waiting;
    waiting = [];
    // The snapshot is taken now: it holds every mutation whose caller is in `batch`.
    const snapshot = JSON.stringify(core.store.snapshot());
    writeFileAtomic(path, snapshot)
      .then(
        () => {
          for (const waiter of batch) waiter.resolve();
        },
        (error: unknown) => {
          logger.error(
            `could not write the state file ${path}: ${error instanceof Error ? error.message : String(error)}`,
          );
          for (const waiter of batch) waiter.reject(error);
        },
      )
      .finally(() => {
        writing = false;
        flush();
      });
  };

  const commit = (): Promise<void> =>
    new Promise<void>((resolvePromise, reject) => {
      waiting.push({ resolve: resolvePromise, reject });
      flush();
    });

  return {
    path,
    async attach(target) {
      core = target;
      if (loaded) {
        if (loaded.seed !== target.seed)
          logger.warn(`the state file ${path} was made with seed ${loaded.seed}; reset returns to seed ${target.seed}`);
        target.store.restore(loaded);
        target.clock.advance(loaded.clockOffset - target.clock.offset);
      }
      await commit();
    },
    commit,
    close: () => (core ? commit() : Promise.resolve()),
  };
}
