// Collapses the violations of a run: the same violation found by many checks (the same rule, place, expectation and
// finding) is one group with a count and the checks that saw it, so a broken server fills one screen, not hundreds.
import type { CheckRecord, CheckViolation, RecordedExchange } from './check-record.ts';

/** One distinct violation and everywhere it was seen. */
export interface ViolationGroup {
  violation: CheckViolation;
  /** How many times it was recorded, over all checks. */
  count: number;
  /** Ids of the checks that recorded it, in run order. */
  checkIds: string[];
  /** The exchange of its first occurrence, to show as the example. */
  example: RecordedExchange | undefined;
  /** Whether every occurrence said the same (otherwise the first message speaks only for itself). */
  sameMessage: boolean;
}

function keyOf(violation: CheckViolation): string {
  return JSON.stringify([
    violation.check,
    violation.rule,
    violation.pointer,
    violation.expected,
    violation.found,
    violation.specPointer,
    violation.origin,
  ]);
}

/**
 * Groups the violations of the failed checks, most frequent first (ties in run order).
 * @example groupViolations(report.checks)[0]?.count // 40
 */
export function groupViolations(records: readonly CheckRecord[]): ViolationGroup[] {
  const groups = new Map<string, ViolationGroup>();
  const ownFamily = new Set<string>();
  for (const record of records) {
    if (record.outcome !== 'failed') continue;
    for (const violation of record.violations) {
      const key = keyOf(violation);
      const exchange = violation.exchange === undefined ? undefined : record.exchanges[violation.exchange];
      const group = groups.get(key);
      if (group) {
        group.count += 1;
        if (!group.checkIds.includes(record.id)) group.checkIds.push(record.id);
        if (violation.message !== group.violation.message) group.sameMessage = false;
        // The clearest example is one from a check of the violation's own family (a conformance violation seen in
        // the conformance check's plain valid call, rather than in an auth check's deliberately broken request).
        if (exchange && !ownFamily.has(key) && record.check === violation.check) {
          group.example = exchange;
          ownFamily.add(key);
        }
        continue;
      }
      if (record.check === violation.check) ownFamily.add(key);
      groups.set(key, { violation, count: 1, checkIds: [record.id], example: exchange, sameMessage: true });
    }
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}
