// `--state store.db`: the store's storage in SQLite (node:sqlite, WAL), one transaction per tick of mutations (group commit).
// Node only: the msw adapters never import this module, so browsers and jsdom never see node:sqlite.
// The parts: sqlite-state-file.ts (the path), sqlite-open.ts (lock, schema, content check), sqlite-batch-writer.ts
// (group commit and rollback), agent-cache.ts (parsed agents, LRU) and sqlite-tables.ts (the two table adapters).
import { resolve } from 'node:path';
import { AgentCache } from '../agent-cache.ts';
import { consoleLogger, type Logger } from '../../domain/logger.ts';
import { BatchWriter } from './sqlite-batch-writer.ts';
import { openStateDatabase, type StateExpectations } from './sqlite-open.ts';
import { SqliteAgentTable, sqliteTaskLog } from './sqlite-tables.ts';
import type { Storage } from '../../state/storage.ts';

export interface SqliteStorageOptions extends StateExpectations {
  /** Parsed agents kept in memory (default 5,000). */
  agentCacheSize?: number;
  logger?: Logger;
}

/** The SQLite storage, plus what only its owner needs. */
export interface SqliteStorage extends Storage {
  readonly path: string;
}

/**
 * Opens (or creates) a state database and checks all it holds; refuses, with one message saying what to do, a file that
 * is not one of ours, an old JSON state, a database another server has open, or content that breaks the spec's schemas.
 * @example const storage = openSqliteStorage('store.db', { seed: 42, catalogueSize: 36, maxTasks: 10_000 });
 */
export function openSqliteStorage(file: string, options: SqliteStorageOptions): SqliteStorage {
  const path = resolve(file);
  const { db, agentIndex } = openStateDatabase(path, options);
  const writer = new BatchWriter(db, path, options.logger ?? consoleLogger);
  const agents = new SqliteAgentTable(db, writer, new AgentCache(options.agentCacheSize), agentIndex);
  const tasks = sqliteTaskLog(db, writer);
  const getDocument = db.prepare('SELECT value FROM meta WHERE key = ?');
  return {
    durable: true,
    path,
    agents,
    tasks,
    readDocument(name) {
      const text = writer.pendingDocument(name) ?? (getDocument.get(name) as { value: string } | undefined)?.value;
      return text === undefined ? undefined : JSON.parse(text);
    },
    writeDocument: (name, value) => writer.writeDocument(name, JSON.stringify(value)),
    commit: () => writer.commit(),
    onRollback: (listener) => writer.onRollback(listener),
    async close() {
      if (!db.isOpen) return;
      writer.flush();
      db.close();
    },
  };
}
