// Status coverage of a contract run: which documented (operation, status) pairs the live server was seen to answer,
// which it was never provoked into, and which undocumented statuses it answered; derived from spec/, never from mocks/.
import { operations } from '../../spec/index.ts';
import type { CheckRecord } from '../../verifier-client/check-record.ts';

/** One (operation, status) pair and how many responses of the run had it. */
interface StatusCount {
  operationId: string;
  status: number;
  count: number;
}

/** What --json carries under `statusCoverage`. */
export interface StatusCoverage {
  /** What `percent` counts, in words. */
  definition: string;
  /** Documented pairs seen ÷ documented pairs × 100, one decimal. */
  percent: number;
  seen: StatusCount[];
  neverSeen: { operationId: string; status: number }[];
  /** Statuses the spec does not document for the operation: each is also a conformance failure of the run. */
  undocumented: StatusCount[];
}

const STATUS_COVERAGE_DEFINITION =
  'status coverage = documented (operation, response status) pairs of spec/openapi.yaml the server answered at least once during the run ÷ all documented pairs';

/**
 * Tallies every response recorded by the run's checks against the statuses the spec documents.
 * @example statusCoverage(report.checks).neverSeen // [{ operationId, status: 413 }, ...]
 */
export function statusCoverage(records: readonly CheckRecord[]): StatusCoverage {
  const counts = new Map<string, StatusCount>();
  for (const record of records) {
    for (const exchange of record.exchanges) {
      if (!exchange.response) continue;
      const key = `${exchange.operationId} ${exchange.response.status}`;
      const entry = counts.get(key) ?? {
        operationId: exchange.operationId,
        status: exchange.response.status,
        count: 0,
      };
      entry.count += 1;
      counts.set(key, entry);
    }
  }
  const seen: StatusCount[] = [];
  const neverSeen: StatusCoverage['neverSeen'] = [];
  for (const [operationId, operation] of operations) {
    for (const status of [...operation.responses.keys()].sort((a, b) => a - b)) {
      const entry = counts.get(`${operationId} ${status}`);
      if (entry) seen.push(entry);
      else neverSeen.push({ operationId, status });
      counts.delete(`${operationId} ${status}`);
    }
  }
  const documented = seen.length + neverSeen.length;
  return {
    definition: STATUS_COVERAGE_DEFINITION,
    percent: documented === 0 ? 100 : Math.round((seen.length / documented) * 1000) / 10,
    seen,
    neverSeen,
    undocumented: [...counts.values()].sort(
      (a, b) => a.operationId.localeCompare(b.operationId) || a.status - b.status,
    ),
  };
}

/** `<operationId> 201, 400; <operationId> 404` from pairs, grouped by operation in the spec's order. */
function grouped(pairs: readonly { operationId: string; status: number; count?: number }[]): string {
  const byOperation = new Map<string, string[]>();
  for (const pair of pairs) {
    const list = byOperation.get(pair.operationId) ?? [];
    list.push(pair.count === undefined ? String(pair.status) : `${pair.status} ×${pair.count}`);
    byOperation.set(pair.operationId, list);
  }
  return [...byOperation].map(([operationId, statuses]) => `${operationId} ${statuses.join(', ')}`).join('; ');
}

/**
 * The console lines of the terminal summary.
 * @example lines.push(...statusCoverageLines(report.statusCoverage));
 */
export function statusCoverageLines(coverage: StatusCoverage): string[] {
  const documented = coverage.seen.length + coverage.neverSeen.length;
  const lines = [
    `status coverage ${coverage.percent.toFixed(1)}%: ${coverage.seen.length} of ${documented} documented (operation, status) pairs answered by the server`,
    `  seen: ${grouped(coverage.seen) || 'none'}`,
    `  never provoked: ${grouped(coverage.neverSeen) || 'none'}`,
  ];
  if (coverage.undocumented.length > 0)
    lines.push(`  undocumented statuses answered: ${grouped(coverage.undocumented)}`);
  return lines;
}

/**
 * The JUnit properties: the percentage and each list, so CI can chart or grep them.
 * @example statusCoverageProperties(coverage)[0] // ['statusCoverage.percent', '63.6']
 */
export function statusCoverageProperties(coverage: StatusCoverage): Array<[name: string, value: string]> {
  return [
    ['statusCoverage.percent', coverage.percent.toFixed(1)],
    ['statusCoverage.seen', grouped(coverage.seen)],
    ['statusCoverage.neverSeen', grouped(coverage.neverSeen)],
    ['statusCoverage.undocumented', grouped(coverage.undocumented)],
    ['statusCoverage.definition', coverage.definition],
  ];
}
