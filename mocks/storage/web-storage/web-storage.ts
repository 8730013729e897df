// The browser worker's storage: everything in memory, mirrored as one JSON snapshot in the page's Web Storage, so a reload
// resumes where the page left off. The snapshot is checked when loaded (mocks/storage/web-storage/web-storage-snapshot.ts); a quota error
// or a storage the page may not use leaves the fake running in memory, with one warning.
import { agentRecord, agentView } from '../../state/agent-record.ts';
import { consoleLogger, type Logger } from '../../domain/logger.ts';
import { createMemoryStorage, MemoryAgentTable } from '../memory/memory-storage.ts';
import type { AgentRecord, SavedTask, Storage } from '../../state/storage.ts';
import { checkSnapshot, SNAPSHOT_FORMAT, type SnapshotExpectations, type WebSnapshot } from './web-storage-snapshot.ts';

/** The part of the Web Storage API this module uses (`sessionStorage`, `localStorage`, or a fake in tests). */
export interface WebStorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface WebStorageOptions extends SnapshotExpectations {
  /** Where the snapshot lives. */
  store: WebStorageLike;
  logger?: Logger;
}

/**
 * The key a snapshot is kept under: one per seed and catalogue size, so pages started with different seeds never mix.
 * @example webStorageKey(42, 36) // 'agent-registry-kit:state:42:36'
 */
export function webStorageKey(seed: number, catalogueSize: number): string {
  return `agent-registry-kit:state:${seed}:${catalogueSize}`;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The memory table, which also remembers every record so a snapshot can list them; each change schedules a write. */
class MirroredAgentTable extends MemoryAgentTable {
  readonly all = new Map<string, AgentRecord>();
  /** Called on every change; a no-op while the saved snapshot is being loaded. */
  touched: () => void = () => {};
  override add(record: AgentRecord): void {
    super.add(record);
    this.all.set(record.agentId, record);
    this.touched();
  }
  override changed(record: AgentRecord): void {
    super.changed(record);
    this.touched();
  }
  override clear(): void {
    super.clear();
    this.all.clear();
    this.touched();
  }
}

/** Reads and checks the snapshot under `key`; anything unusable is dropped with a warning (the seed is used then). */
function loadSnapshot(options: WebStorageOptions, key: string, logger: Logger): WebSnapshot | undefined {
  let text: string | null;
  try {
    text = options.store.getItem(key);
  } catch (error) {
    logger.warn(`the page's storage cannot be read (${message(error)}); the fake starts from the seed`);
    return undefined;
  }
  if (text === null) return undefined;
  const checked = checkSnapshot(text, options);
  if (checked.ok) return checked.value;
  logger.warn(`the fake's saved state (${key}) ${checked.reason}; it is discarded and the fake starts from the seed`);
  try {
    options.store.removeItem(key);
  } catch {
    // Unreadable and unremovable: the next write replaces it, or the next load discards it again.
  }
  return undefined;
}

/**
 * Opens the storage over Web Storage: the saved state under the seed's key is checked and resumed, and each batch is
 * written back as one snapshot once the current tick's writes are done (`commit` resolves after it).
 * @example const storage = openWebStorage({ store: sessionStorage, seed: 42, catalogueSize: 36, maxTasks: 10_000 });
 */
export function openWebStorage(options: WebStorageOptions): Storage {
  const logger = options.logger ?? consoleLogger;
  const key = webStorageKey(options.seed, options.catalogueSize);
  const documents = new Map<string, unknown>();
  const tasks = new Map<string, SavedTask>();
  let writing: Promise<void> | undefined;
  let memoryOnly = false;
  const touched = (): void => {
    writing ??= Promise.resolve().then(() => {
      writing = undefined;
      flush();
    });
  };
  const agents = new MirroredAgentTable();
  const snapshot = (): WebSnapshot => ({
    format: SNAPSHOT_FORMAT,
    seed: options.seed,
    catalogueSize: options.catalogueSize,
    documents: Object.fromEntries(documents),
    agents: [...agents.all.values()].map((record) => ({
      agent: agentView(record),
      tasksFailed: record.tasksFailed,
      catalogueIndex: record.catalogueIndex ?? null,
    })),
    tasks: [...tasks.values()],
  });
  function flush(): void {
    if (memoryOnly) return;
    try {
      options.store.setItem(key, JSON.stringify(snapshot()));
    } catch (error) {
      // Most often the quota: the app keeps working on the state in memory, and a reload must not resume a stale one.
      memoryOnly = true;
      try {
        options.store.removeItem(key);
      } catch {}
      logger.warn(
        `the fake's state no longer fits in the page's storage (${message(error)}); it stays in memory until this page is closed, and a reload starts from the seed`,
      );
    }
  }

  const saved = loadSnapshot(options, key, logger);
  for (const [name, value] of Object.entries(saved?.documents ?? {})) documents.set(name, value);
  for (const task of saved?.tasks ?? []) tasks.set(task.task.taskId, task);
  for (const { agent, tasksFailed, catalogueIndex } of saved?.agents ?? [])
    agents.add(agentRecord(agent, tasksFailed, catalogueIndex ?? undefined));
  agents.touched = touched;

  return {
    durable: true,
    agents,
    tasks: {
      put: (task, inHistory) => {
        tasks.set(task.taskId, { task, inHistory });
        touched();
      },
      delete: (taskId) => {
        tasks.delete(taskId);
        touched();
      },
      clear: () => {
        tasks.clear();
        touched();
      },
      saved: () => [...tasks.values()].map(({ task, inHistory }) => ({ task: { ...task }, inHistory })),
    },
    readDocument: (name) => documents.get(name),
    writeDocument: (name, value) => {
      documents.set(name, structuredClone(value));
      touched();
    },
    commit: () => writing ?? Promise.resolve(),
    onRollback: () => {},
    close: () => writing ?? Promise.resolve(),
  };
}

/** Which page storage the browser worker keeps its state in; false keeps it in memory only (a reload starts over). */
export type PersistOption = 'session' | 'local' | false;

/**
 * The storage `setupMockWorker` uses: Web Storage of the kind asked for, or memory when the page may not use it (an
 * opaque origin, storage disabled), with a warning.
 * @example const storage = openPageStorage('session', { seed: 42, catalogueSize: 36, maxTasks: 10_000 });
 */
export function openPageStorage(persist: PersistOption, expected: SnapshotExpectations & { logger?: Logger }): Storage {
  if (persist === false) return createMemoryStorage();
  const logger = expected.logger ?? consoleLogger;
  let store: WebStorageLike | undefined;
  try {
    // Reading the property itself throws where the page may not use storage (sandboxed frames, blocked cookies).
    store = persist === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
  } catch (error) {
    logger.warn(`${persist}Storage cannot be used (${message(error)}); the fake keeps its state in memory only`);
    return createMemoryStorage();
  }
  if (store === undefined) {
    logger.warn(`this page has no ${persist}Storage; the fake keeps its state in memory only`);
    return createMemoryStorage();
  }
  return openWebStorage({ ...expected, store, logger });
}
