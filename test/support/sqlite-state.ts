// The throwaway state database of the SQLite storage tests: a fresh folder and file for each test, every storage a
// test opened closed after it, and the fake's core assembled on a storage with the same seed and a fixed clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createMockCore, type MockCore } from '../../mocks/assembly/mock-core.ts';
import { createFixedClock } from '../../mocks/domain/clock.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';
import { openSqliteStorage, type SqliteStorage } from '../../mocks/storage/sqlite/sqlite-storage.ts';

const START = Date.parse('2026-11-20T12:00:00.000Z');

/** What a test of the SQLite storage works with; `file` and `directory` are the current test's. */
export interface SqliteTestState {
  readonly file: string;
  readonly directory: string;
  /** The storages open now, in the order they were opened. */
  readonly open: SqliteStorage[];
  openStorage(options?: { maxTasks?: number; catalogueSize?: number }): SqliteStorage;
  coreOn(storage: SqliteStorage | undefined): MockCore;
  close(storage: SqliteStorage): Promise<void>;
}

/**
 * Registers the hooks that give each test of the calling file its own state database, and returns what works on it.
 * @example const state = useSqliteState(); const core = state.coreOn(state.openStorage());
 */
export function useSqliteState(): SqliteTestState {
  let directory = '';
  const open: SqliteStorage[] = [];
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'agent-registry-sqlite-'));
  });
  afterEach(async () => {
    for (const storage of open.splice(0)) await storage.close();
    rmSync(directory, { recursive: true, force: true });
  });
  const state: SqliteTestState = {
    get file() {
      return join(directory, 'store.db');
    },
    get directory() {
      return directory;
    },
    open,
    openStorage(options = {}) {
      const storage = openSqliteStorage(state.file, {
        seed: 5,
        catalogueSize: options.catalogueSize ?? 36,
        maxTasks: options.maxTasks ?? 100,
        logger: silentLogger,
        agentCacheSize: 4,
      });
      open.push(storage);
      return storage;
    },
    coreOn(storage) {
      return createMockCore({
        seed: 5,
        clock: createFixedClock(START),
        logger: silentLogger,
        maxTasks: 100,
        failureRatio: 0,
        ...(storage && { storage }),
      });
    },
    async close(storage) {
      open.splice(open.indexOf(storage), 1);
      await storage.close();
    },
  };
  return state;
}
