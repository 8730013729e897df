// The request journal: a ring buffer of the last N requests, so tests can check what a frontend sent without memory growing.

/** Default number of requests the journal keeps. */
export const DEFAULT_JOURNAL_SIZE = 1000;
/** Longest request body text kept per entry; longer bodies are cut (the entry says so). */
export const JOURNAL_BODY_LIMIT = 4096;

/** One request the fake answered. */
export interface JournalEntry {
  /** When it arrived, on the mock's clock (ISO 8601). */
  at: string;
  method: string;
  path: string;
  query: string;
  operationId: string | null;
  status: number;
  durationMs: number;
  /** The request body as text (cut at 4096 characters), or null when there was none or it was not text. */
  body: string | null;
  bodyTruncated: boolean;
}

/**
 * A fixed-capacity log; the oldest entry is overwritten once full.
 * @example const journal = new Journal(2); journal.add(a); journal.add(b); journal.add(c); journal.entries() // [b, c]
 */
export class Journal {
  readonly capacity: number;
  #items: (JournalEntry | undefined)[];
  #next = 0;
  #count = 0;

  constructor(capacity = DEFAULT_JOURNAL_SIZE) {
    this.capacity = Math.max(1, Math.floor(capacity));
    this.#items = new Array<JournalEntry | undefined>(this.capacity);
  }

  add(entry: JournalEntry): void {
    this.#items[this.#next] = entry;
    this.#next = (this.#next + 1) % this.capacity;
    if (this.#count < this.capacity) this.#count += 1;
  }

  /** The last `limit` entries, oldest first. */
  entries(limit = this.capacity): JournalEntry[] {
    const take = Math.min(Math.max(0, limit), this.#count);
    const result: JournalEntry[] = [];
    for (let index = this.#count - take; index < this.#count; index += 1) {
      const entry = this.#items[(this.#next - this.#count + index + this.capacity) % this.capacity];
      if (entry) result.push(entry);
    }
    return result;
  }

  clear(): void {
    this.#items = new Array<JournalEntry | undefined>(this.capacity);
    this.#next = 0;
    this.#count = 0;
  }
}
