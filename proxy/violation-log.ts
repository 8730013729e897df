// What the proxy keeps of the violations it saw: one group per distinct violation (counted, first and last seen), one
// printed line when a group is new and again when its count reaches 10, 100, 1000…, bounded in memory.
import { terminalSafe } from '../client/terminal-text.ts';
import type { ProxyViolation } from './exchange-check.ts';

/** Distinct violations kept; past it new ones are only counted in `dropped`. */
const MAX_VIOLATION_GROUPS = 1000;

/** One distinct violation and how often it was seen. */
export interface ViolationGroup {
  violation: ProxyViolation;
  count: number;
  firstSeen: string;
  lastSeen: string;
}

/** What GET /__mock/violations answers. */
export interface ViolationReport {
  /** Violations seen in all, repeats included. */
  total: number;
  /** Distinct violations not kept because MAX_VIOLATION_GROUPS were already. */
  dropped: number;
  /** Most frequent first. */
  groups: ViolationGroup[];
}

function keyOf(violation: ProxyViolation): string {
  const { check, rule, method, path, status, pointer, expected, found, specPointer, origin } = violation;
  return JSON.stringify([check, rule, method, path, status, pointer, expected, found, specPointer, origin]);
}

/**
 * The one line a violation is printed as, in the contract suite's words (check, rule, pointer, expectation, origin).
 * @example formatViolationLine(v, 1) // '✗ [conformance] GET /v1/agents/{agentId} → 200 body-schema at /tokenomics/price: …'
 */
export function formatViolationLine(violation: ProxyViolation, count: number): string {
  const at = violation.pointer === '' ? '' : ` at ${violation.pointer}`;
  const status = violation.status === undefined ? '' : ` → ${violation.status}`;
  const times = count > 1 ? ` (seen ${count} times)` : '';
  return terminalSafe(
    `✗ [${violation.check}] ${violation.method} ${violation.path}${status} ${violation.rule}${at}: ${violation.message}; expected ${violation.expected}, found ${violation.found} (spec ${violation.specPointer || '(document)'}, ${violation.origin})${times}`,
  );
}

/**
 * The violations of a proxy run.
 * @example const log = new ViolationLog((line) => console.error(line)); log.add(check.violations, new Date());
 */
export class ViolationLog {
  readonly #groups = new Map<string, ViolationGroup>();
  readonly #print: (line: string) => void;
  #total = 0;
  #dropped = 0;

  constructor(print: (line: string) => void = () => {}) {
    this.#print = print;
  }

  add(violations: readonly ProxyViolation[], at: Date): void {
    const when = at.toISOString();
    for (const violation of violations) {
      this.#total += 1;
      const key = keyOf(violation);
      const group = this.#groups.get(key);
      if (group) {
        group.count += 1;
        group.lastSeen = when;
        if (/^10*$/.test(String(group.count))) this.#print(formatViolationLine(group.violation, group.count));
        continue;
      }
      if (this.#groups.size >= MAX_VIOLATION_GROUPS) {
        this.#dropped += 1;
        continue;
      }
      this.#groups.set(key, { violation, count: 1, firstSeen: when, lastSeen: when });
      this.#print(formatViolationLine(violation, 1));
    }
  }

  report(): ViolationReport {
    const groups = [...this.#groups.values()].sort((a, b) => b.count - a.count).map((group) => ({ ...group }));
    return { total: this.#total, dropped: this.#dropped, groups };
  }

  /** The summary printed when the proxy stops: one line per distinct violation, most frequent first. */
  summary(): string[] {
    return this.report().groups.map((group) => formatViolationLine(group.violation, group.count));
  }

  clear(): void {
    this.#groups.clear();
    this.#total = 0;
    this.#dropped = 0;
  }
}
