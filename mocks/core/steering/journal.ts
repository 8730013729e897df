// The request journal: a ring buffer of the last N requests, so tests can check what a frontend sent without memory growing.
import type { components } from '../control-document/control-plane-types.generated.ts';

/** Default number of requests the journal keeps. */
export const DEFAULT_JOURNAL_SIZE = 1000;
/** Longest request body text kept per entry; longer bodies are cut (the entry says so). */
export const JOURNAL_BODY_LIMIT = 4096;

/**
 * `text` cut at `limit` characters, as a string of its own. A plain `slice` would be a view that keeps the whole request
 * string alive (V8's sliced strings): 1,000 entries of 1 MiB bodies would pin about 1-2 GB. Prefixing a character and
 * slicing it off again makes V8 flatten the short copy first, so the entry holds only what it shows.
 * @example journalText('x'.repeat(10_000)).length // 4096
 */
export function journalText(text: string, limit: number = JOURNAL_BODY_LIMIT): string {
  return text.length > limit ? ` ${text.slice(0, limit)}`.slice(1) : text;
}

/** One request the fake answered, as the control plane shows it (`JournalEntry` of mocks/control-plane/control-plane.yaml). */
export type JournalEntry = components['schemas']['JournalEntry'];

/** What the hot path records: the time stays a number until someone reads the journal, the number is its place. */
export type JournalRecord = Omit<JournalEntry, 'at' | 'seq'> & { atMs: number };

/**
 * Told of each entry as it is added, with what the caller attached for a live watcher (the console's stream shows an
 * ExchangeDetail, exchange-detail.ts); the detail is never kept.
 */
export type JournalListener = (entry: JournalEntry, detail: object | undefined) => void;

/**
 * A fixed-capacity log; the oldest entry is overwritten once full.
 * @example const journal = new Journal(2); journal.add(a); journal.add(b); journal.add(c); journal.entries() // [b, c]
 */
export class Journal {
  readonly capacity: number;
  #items: (JournalRecord | undefined)[];
  #next = 0;
  #count = 0;
  /** Requests added since the journal was made: the last one's `seq` (clearing does not restart it). */
  #added = 0;
  #listeners = new Set<JournalListener>();

  constructor(capacity = DEFAULT_JOURNAL_SIZE) {
    this.capacity = Math.max(1, Math.floor(capacity));
    this.#items = new Array<JournalRecord | undefined>(this.capacity);
  }

  /** Entries held now (at most `capacity`). */
  get size(): number {
    return this.#count;
  }

  /** Whether anyone watches (the caller builds an exchange's detail only then: the hot path pays one size check). */
  get watched(): boolean {
    return this.#listeners.size > 0;
  }

  add(entry: JournalRecord, detail?: object): void {
    this.#items[this.#next] = entry;
    this.#next = (this.#next + 1) % this.capacity;
    if (this.#count < this.capacity) this.#count += 1;
    this.#added += 1;
    if (this.#listeners.size === 0) return;
    const { atMs, ...rest } = entry;
    const view: JournalEntry = { seq: this.#added, at: new Date(atMs).toISOString(), ...rest };
    for (const listener of this.#listeners) listener(view, detail);
  }

  /**
   * Calls `listener` with every entry added from now on; returns the function that stops it.
   * @example const stop = journal.subscribe((entry) => console.log(entry.status)); stop();
   */
  subscribe(listener: JournalListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * The last `limit` entries, oldest first. Each entry's `seq` is its place among every request the journal was given
   * (1 for the first), never reused, not even after `clear`: a reader can tell the entries it has seen from new ones.
   */
  entries(limit = this.capacity): JournalEntry[] {
    const take = Math.min(Math.max(0, limit), this.#count);
    const result: JournalEntry[] = [];
    for (let index = this.#count - take; index < this.#count; index += 1) {
      const record = this.#items[(this.#next - this.#count + index + this.capacity) % this.capacity];
      if (!record) continue;
      const { atMs, ...rest } = record;
      result.push({ seq: this.#added - this.#count + index + 1, at: new Date(atMs).toISOString(), ...rest });
    }
    return result;
  }

  /** The entries whose seq is greater than `after`, oldest first (what is new since a reader's last look). */
  entriesAfter(after: number): JournalEntry[] {
    return this.entries(Math.max(0, this.#added - after));
  }

  clear(): void {
    this.#items = new Array<JournalRecord | undefined>(this.capacity);
    this.#next = 0;
    this.#count = 0;
  }
}
