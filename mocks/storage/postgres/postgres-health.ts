// Whether the shared database answers, said once per change: an outage is logged when it starts and when it ends, a
// failing write once until one succeeds. Also the rate-limit counter every replica shares (one query, no memory).
import type pg from 'pg';
import type { Logger } from '../../domain/logger.ts';
import { StorageConflictError, StorageUnavailableError, StorageWriteError } from '../../state/storage.ts';
import { COUNT_REQUEST } from './postgres-schema.ts';
import type { MirrorRowError } from './postgres-mirror.ts';

export const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The outage and write-failure state of one replica's connection to the database, and the errors it turns failures into.
 * @example const health = new DatabaseHealth('postgres://fake@db/fake', logger); throw health.unavailable(error);
 */
export class DatabaseHealth {
  /** The URL without its password, for messages. */
  readonly location: string;
  #logger: Logger;
  #outage = false;
  /**
   * A write failed and none succeeded since: the failure is logged once, not once per batch (an outage would write the
   * same line for every batch of retried requests, each failing again).
   */
  #writeFailing = false;

  constructor(location: string, logger: Logger) {
    this.location = location;
    this.#logger = logger;
  }

  /** The database could not be reached: logged when an outage starts; the core answers 503 for the error. */
  unavailable(error: unknown): StorageUnavailableError {
    if (!this.#outage) this.#logger.error(`the state database ${this.location} cannot be reached (${message(error)})`);
    this.#outage = true;
    return new StorageUnavailableError(`the state database cannot be reached: ${message(error)}`);
  }

  /** A query went through: an outage, if one was logged, is over. */
  recovered(): void {
    if (this.#outage) this.#logger.info(`the state database ${this.location} is reachable again`);
    this.#outage = false;
  }

  /** A row memory cannot serve: logged, and answered 503. */
  unservable(error: MirrorRowError): StorageUnavailableError {
    this.#logger.error(`the state database ${this.location} ${error.message}`);
    return new StorageUnavailableError(`the state database ${error.message}`);
  }

  /** Why a batch was not written: a conflict (handled again), or a failure logged once until a write succeeds. */
  writeError(error: unknown): StorageWriteError {
    if (error instanceof StorageConflictError) return error;
    if ((error as { code?: unknown }).code === 'AR001') return new StorageConflictError(message(error));
    const why = message(error);
    if (!this.#writeFailing)
      this.#logger.error(
        `could not write the state database ${this.location} (${why}); the change was rolled back (logged once until a write succeeds)`,
      );
    this.#writeFailing = true;
    return new StorageWriteError(why);
  }

  /** A batch was written. */
  written(): void {
    this.#writeFailing = false;
  }
}

/**
 * Counts one request in the rate-limit window every replica shares (ReplicaStorage.countRequest).
 * @example const { start, count } = await countRequest(pool, health, Date.now(), 60_000, 'rate');
 */
export async function countRequest(
  pool: pg.Pool,
  health: DatabaseHealth,
  now: number,
  windowMs: number,
  key: string,
): Promise<{ start: number; count: number }> {
  let row: { start: string; count: string } | undefined;
  try {
    row = (await pool.query<{ start: string; count: string }>(COUNT_REQUEST, [now, windowMs, key])).rows[0];
  } catch (error) {
    throw health.unavailable(error);
  }
  return { start: Number(row?.start ?? now), count: Number(row?.count ?? 1) };
}
