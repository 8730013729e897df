// What the fake served, counted against everything it could serve: the universe comes from spec/openapi.yaml (statuses,
// named examples), the scenario catalogue and the problem catalogue, so a new status or example shows up unseen at once.
import { operations, type OperationId } from '../../../spec/index.ts';
import type { MockRequest, MockResponse } from '../mock-http.ts';
import { documentedExamples } from '../documented-response.ts';
import { parsePrefer } from '../request/prefer.ts';
import { PROBLEMS, problemKindOf, type ProblemKind } from '../problems.ts';
import type { ScenarioDecision } from './scenarios.ts';

/** The kinds of things counted. `status` is the headline: the (operation, documented status) pairs of the contract. */
export const COVERAGE_CATEGORIES = ['status', 'example', 'prefer', 'scenario', 'problem'] as const;
export type CoverageCategory = (typeof COVERAGE_CATEGORIES)[number];

/** One thing the fake can serve, and how many times it did. */
export interface CoverageEntry {
  category: CoverageCategory;
  /** The operation it belongs to; null for problem kinds (counted whichever path they answered). */
  operationId: OperationId | null;
  /**
   * `status`: the status (`"413"`); `example`: `<status> <name>` (`"200 pausedAgent"`); `prefer`: `code=<status>`;
   * `scenario`: `latency`, `rate-limit` or `error <status>`; `problem`: the catalogue's kind (`agent-not-found`).
   */
  key: string;
  count: number;
  /** False only for a status the operation does not document (which the fake should never answer). */
  documented: boolean;
}

/** Covered out of total for one category; undocumented entries are not in either figure. */
export interface CoverageFigure {
  covered: number;
  total: number;
  /** covered / total × 100, one decimal; 100 when total is 0. */
  percent: number;
}

/** What GET /__mock/coverage answers (documented in mocks/control-plane/control-plane.yaml). */
export interface CoverageReport {
  /** What `percent` counts, in words. */
  definition: string;
  /** Documented (operation, status) pairs answered at least once ÷ all documented pairs, × 100, one decimal. */
  percent: number;
  /** /v1 requests counted since the last reset. */
  requests: number;
  categories: Record<CoverageCategory, CoverageFigure>;
  /** Every entry of the universe (count 0 when never served), then any undocumented status served. */
  entries: CoverageEntry[];
}

/** What `toJSON` keeps and `restore` takes back: the served entries only. */
export interface CoverageSnapshot {
  version: 1;
  requests: number;
  entries: { category: CoverageCategory; operationId: OperationId | null; key: string; count: number }[];
}

/** The sentence every output (JSON, table, HTML) uses to say what the headline percentage counts. */
const COVERAGE_DEFINITION =
  'contract coverage = documented (operation, response status) pairs of spec/openapi.yaml the fake answered at least once ÷ all documented pairs';

const entryId = (category: CoverageCategory, operationId: OperationId | null, key: string): string =>
  `${category} ${operationId ?? '-'} ${key}`;

/** Per operation, the entries the hot path bumps, found by number rather than by building a string key. */
interface OperationCounters {
  statuses: Map<number, CoverageEntry>;
  latency: CoverageEntry;
  rateLimit: CoverageEntry;
  errors: Map<number, CoverageEntry>;
  prefer: Map<number, CoverageEntry>;
  examples: Map<number, Map<string, CoverageEntry>>;
  /** First example of each status: what a forced status without a named example serves. */
  firstExample: Map<number, CoverageEntry>;
}

/**
 * The counter of what the fake served. One instance per core; `record` is called once per /v1 answer.
 * @example
 * const coverage = new Coverage();
 * coverage.record(operationId, request, response, undefined);
 * coverage.report().percent; // e.g. 4.5
 */
export class Coverage {
  readonly #entries: CoverageEntry[] = [];
  readonly #byId = new Map<string, CoverageEntry>();
  readonly #operations = new Map<OperationId, OperationCounters>();
  readonly #problems = new Map<ProblemKind, CoverageEntry>();
  #requests = 0;
  #changes = 0;

  /** Grows with every change of the counts: a persister writes the counts only when it moved since its last write. */
  get changes(): number {
    return this.#changes;
  }

  constructor() {
    const add = (category: CoverageCategory, operationId: OperationId | null, key: string): CoverageEntry => {
      const entry: CoverageEntry = { category, operationId, key, count: 0, documented: true };
      this.#entries.push(entry);
      this.#byId.set(entryId(category, operationId, key), entry);
      return entry;
    };
    for (const [operationId, operation] of operations) {
      const counters: OperationCounters = {
        statuses: new Map(),
        latency: add('scenario', operationId, 'latency'),
        rateLimit: add('scenario', operationId, 'rate-limit'),
        errors: new Map(),
        prefer: new Map(),
        examples: new Map(),
        firstExample: new Map(),
      };
      for (const status of operation.responses.keys()) {
        counters.statuses.set(status, add('status', operationId, String(status)));
        counters.prefer.set(status, add('prefer', operationId, `code=${status}`));
        // The scenario endpoint accepts exactly the documented error statuses as errorStatus (mocks/core/steering/scenarios.ts).
        if (status >= 400) counters.errors.set(status, add('scenario', operationId, `error ${status}`));
        const named = new Map<string, CoverageEntry>();
        for (const example of documentedExamples(operationId, status)) {
          const entry = add('example', operationId, `${status} ${example.name}`);
          named.set(example.name, entry);
          if (!counters.firstExample.has(status)) counters.firstExample.set(status, entry);
        }
        if (named.size > 0) counters.examples.set(status, named);
      }
      this.#operations.set(operationId, counters);
    }
    for (const kind of Object.keys(PROBLEMS) as ProblemKind[]) this.#problems.set(kind, add('problem', null, kind));
    // Entries in a stable order: by category, then operation, then as the spec lists them.
    this.#entries.sort((a, b) => COVERAGE_CATEGORIES.indexOf(a.category) - COVERAGE_CATEGORIES.indexOf(b.category));
  }

  /**
   * Counts one answer of the API (not the control plane). `decision` is what the scenarios decided for the request,
   * when they were consulted. Of the request only its headers are read (`Prefer`), so a server that is not the fake
   * (the proxy) counts its exchanges without making up the rest of one. Cheap on the hot path: a success without
   * `Prefer` costs two map lookups.
   */
  record(
    operationId: OperationId | null,
    request: Pick<MockRequest, 'headers'>,
    response: MockResponse,
    decision: ScenarioDecision | undefined,
  ): void {
    this.#requests += 1;
    this.#changes += 1;
    const status = response.status;
    if (status >= 400) {
      const kind = problemKindOf(response);
      const problem = kind === undefined ? undefined : this.#problems.get(kind);
      if (problem) problem.count += 1;
    }
    if (operationId === null) return;
    const counters = this.#operations.get(operationId);
    if (!counters) return;
    const entry = counters.statuses.get(status);
    if (entry) entry.count += 1;
    else this.#undocumented(operationId, status).count += 1;

    if (decision !== undefined) {
      if (decision.latencyMs > 0) counters.latency.count += 1;
      if (decision.retryAfterSeconds !== undefined) counters.rateLimit.count += 1;
      else if (decision.errorStatus === status) {
        const forced = counters.errors.get(status);
        if (forced) forced.count += 1;
      }
    }
    const applied = response.headers['preference-applied'];
    if (request.headers.prefer !== undefined) {
      const preference = parsePrefer(request.headers.prefer);
      if (preference?.code === status) {
        const prefer = counters.prefer.get(status);
        if (prefer) prefer.count += 1;
      }
    }
    // A named example is served only on purpose: `Prefer: example=` names it; a forced status (a scenario's errorStatus,
    // `Prefer: code=`) serves the status's first example. Real answers never are examples: their errors are problems.
    if (applied !== undefined) {
      const named = /(?:^|,\s*)example=([^,]+)/.exec(applied)?.[1];
      if (named !== undefined) {
        const example = counters.examples.get(status)?.get(named);
        if (example) example.count += 1;
        return;
      }
    }
    if ((applied !== undefined || decision?.errorStatus === status) && problemKindOf(response) === undefined) {
      const first = counters.firstExample.get(status);
      if (first) first.count += 1;
    }
  }

  #undocumented(operationId: OperationId, status: number): CoverageEntry {
    const id = entryId('status', operationId, String(status));
    let entry = this.#byId.get(id);
    if (!entry) {
      entry = { category: 'status', operationId, key: String(status), count: 0, documented: false };
      this.#byId.set(id, entry);
      this.#entries.push(entry);
    }
    return entry;
  }

  /** Back to nothing served (DELETE /__mock/coverage). */
  reset(): void {
    this.#requests = 0;
    this.#changes += 1;
    for (const entry of this.#entries) entry.count = 0;
    for (let index = this.#entries.length - 1; index >= 0; index -= 1) {
      const entry = this.#entries[index] as CoverageEntry;
      if (!entry.documented) {
        this.#entries.splice(index, 1);
        this.#byId.delete(entryId(entry.category, entry.operationId, entry.key));
      }
    }
  }

  /** The report GET /__mock/coverage answers. */
  report(): CoverageReport {
    const categories = {} as Record<CoverageCategory, CoverageFigure>;
    for (const category of COVERAGE_CATEGORIES) {
      const mine = this.#entries.filter((entry) => entry.category === category && entry.documented);
      const covered = mine.filter((entry) => entry.count > 0).length;
      categories[category] = { covered, total: mine.length, percent: percentOf(covered, mine.length) };
    }
    return {
      definition: COVERAGE_DEFINITION,
      percent: categories.status.percent,
      requests: this.#requests,
      categories,
      entries: this.#entries.map((entry) => ({ ...entry })),
    };
  }

  /** The served entries, for a state file. */
  toJSON(): CoverageSnapshot {
    return {
      version: 1,
      requests: this.#requests,
      entries: this.#entries
        .filter((entry) => entry.count > 0)
        .map(({ category, operationId, key, count }) => ({ category, operationId, key, count })),
    };
  }

  /**
   * Takes back what `toJSON` wrote. Throws on anything that is not such a snapshot; an entry the spec no longer has
   * (the spec changed between runs) is dropped, since counting it would claim coverage of a contract that is gone.
   */
  restore(value: unknown): void {
    const snapshot = parseSnapshot(value);
    this.reset();
    this.#requests = snapshot.requests;
    for (const saved of snapshot.entries) {
      const entry = this.#byId.get(entryId(saved.category, saved.operationId, saved.key));
      if (entry) entry.count = saved.count;
      else if (saved.category === 'status' && saved.operationId !== null && this.#operations.has(saved.operationId))
        this.#undocumented(saved.operationId, Number(saved.key)).count = saved.count;
    }
  }
}

function percentOf(covered: number, total: number): number {
  return total === 0 ? 100 : Math.round((covered / total) * 1000) / 10;
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * Checks a coverage snapshot read from a state file; throws with the first thing wrong.
 * @example parseSnapshot({ version: 1, requests: 0, entries: [] }).entries // []
 */
export function parseSnapshot(value: unknown): CoverageSnapshot {
  const fail = (what: string): never => {
    throw new Error(`the coverage snapshot ${what}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('is not an object');
  const snapshot = value as Record<string, unknown>;
  if (snapshot.version !== 1) fail('has no version 1');
  if (!isCount(snapshot.requests)) fail('has no whole, non-negative request count');
  if (!Array.isArray(snapshot.entries)) return fail('has no entries array');
  const entries: CoverageSnapshot['entries'] = [];
  for (const [index, raw] of snapshot.entries.entries()) {
    const entry = raw as Record<string, unknown> | null;
    if (
      typeof entry !== 'object' ||
      entry === null ||
      !COVERAGE_CATEGORIES.includes(entry.category as CoverageCategory) ||
      !(entry.operationId === null || typeof entry.operationId === 'string') ||
      typeof entry.key !== 'string' ||
      !isCount(entry.count) ||
      (entry.category === 'status' && !/^[1-5]\d\d$/.test(entry.key))
    ) {
      return fail(`has an invalid entry at /entries/${index}`);
    }
    entries.push({
      category: entry.category as CoverageCategory,
      operationId: entry.operationId as OperationId | null,
      key: entry.key,
      count: entry.count,
    });
  }
  return { version: 1, requests: snapshot.requests as number, entries };
}
