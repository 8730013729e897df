// Group commit for the SQLite storage: every write of one tick joins one transaction, committed once they are all in;
// a batch that fails is rolled back whole, and whoever keeps state in memory is told to rebuild it from the database.
import type { DatabaseSync, StatementResultingChanges, StatementSync } from 'node:sqlite';
import type { Logger } from '../../domain/logger.ts';
import { StorageWriteError } from '../../state/storage.ts';

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

type Value = string | number | null;

/**
 * The current batch of one database: writes, named documents written at its commit, waiters and rollback listeners.
 * @example const writer = new BatchWriter(db, path, logger); writer.write(insert, 'a'); await writer.commit();
 */
export class BatchWriter {
  #db: DatabaseSync;
  #path: string;
  #logger: Logger;
  #putDocument: StatementSync;
  /** A transaction is open: this tick's batch. */
  #open = false;
  #scheduled = false;
  /** The first write of this batch that failed: the batch is then rolled back whole, and later writes skipped. */
  #failure: unknown;
  /** Set when memory could not be rebuilt after a rollback: nothing more is written, every commit is refused. */
  #broken: string | undefined;
  #documents = new Map<string, string>();
  #waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  /** Run after a rollback, in order: the storage's own rebuild first, then the store's listeners. */
  #rollbackListeners: (() => void)[] = [];
  /** Run after every successful commit (the storage forgets what it would have undone). */
  #commitListeners: (() => void)[] = [];

  constructor(db: DatabaseSync, path: string, logger: Logger) {
    this.#db = db;
    this.#path = path;
    this.#logger = logger;
    this.#putDocument = db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
  }

  /** The named document as this batch will write it, or undefined when the batch does not touch it. */
  pendingDocument(name: string): string | undefined {
    return this.#documents.get(name);
  }

  writeDocument(name: string, text: string): void {
    this.#documents.set(name, text);
    this.#schedule();
  }

  /** Runs one statement in the current batch, opening it if needed; after a failure the rest of the batch is skipped. */
  write(statement: StatementSync, ...values: Value[]): StatementResultingChanges | undefined {
    let result: StatementResultingChanges | undefined;
    if (this.#broken || this.#failure !== undefined) return undefined;
    try {
      this.#begin();
      result = statement.run(...values);
    } catch (error) {
      this.#failure = error;
    }
    this.#schedule();
    return result;
  }

  commit(): Promise<void> {
    if (this.#broken) return Promise.reject(new StorageWriteError(this.#broken));
    if (!this.#open && this.#documents.size === 0 && this.#failure === undefined) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      this.#schedule();
    });
  }

  onRollback(listener: () => void): void {
    this.#rollbackListeners.push(listener);
  }

  onCommit(listener: () => void): void {
    this.#commitListeners.push(listener);
  }

  /** Writes what is pending now (at close). */
  flush(): void {
    this.#scheduled = false;
    // A flush scheduled before close() ran finds nothing left: close() flushed it.
    if (!this.#db.isOpen) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    try {
      if (this.#failure !== undefined) throw this.#failure;
      if (this.#documents.size > 0) {
        this.#begin();
        for (const [name, text] of this.#documents) this.#putDocument.run(name, text);
      }
      if (this.#open) this.#db.exec('COMMIT');
      this.#open = false;
      this.#documents.clear();
      for (const listener of this.#commitListeners) listener();
      for (const waiter of waiters) waiter.resolve();
    } catch (error) {
      const why = message(error);
      this.#logger.error(`could not write the state database ${this.#path} (${why}); the change was rolled back`);
      this.#rollback();
      for (const waiter of waiters) waiter.reject(new StorageWriteError(why));
    }
  }

  #begin(): void {
    if (this.#open) return;
    this.#db.exec('BEGIN');
    this.#open = true;
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // Every mutation of this tick joins the batch; the commit runs once they are all in (group commit).
    setImmediate(() => this.flush());
  }

  /** Undoes the batch on disk, then lets memory follow what is stored. */
  #rollback(): void {
    try {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
    } catch {
      // SQLite may have rolled back on its own (a full disk does); either way nothing of the batch is stored.
    }
    this.#open = false;
    this.#failure = undefined;
    this.#documents.clear();
    try {
      for (const listener of this.#rollbackListeners) listener();
    } catch (error) {
      this.#broken = `the state database could not be read back after a failed write (${message(error)}); restart the server`;
      this.#logger.error(this.#broken);
    }
  }
}
