// What the proxy keeps of the violations it saw: one group per rule and place (its check, rule, operation, JSON Pointer
// and spec rule), counted, with the distinct values found counted and the first examples kept; one printed line when a
// group is new and again when its count reaches 10, 100, 1000…. Grouping by place, not by value, is what keeps every
// kind visible: a server whose every body is invalid JSON makes one group, however many different bodies it sends.
// Memory is bounded per rule, so a flood of one rule never crowds out another.
import { terminalSafe } from '../verifier-client/terminal-text.ts';
import type { ProxyViolation } from './exchange-check.ts';

/** Groups kept per rule; past it a new place of that rule is only counted in `dropped`, other rules unaffected. */
const MAX_GROUPS_PER_RULE = 100;
/** Distinct values counted per group; the rest are counted together in `otherValues`. */
const MAX_VALUES = 10;
/** Violations kept whole per group, the first ones seen. */
const MAX_EXAMPLES = 3;

/** One rule broken at one place, how often, with what values. */
export interface ViolationGroup {
  /** The first violation of the group. */
  violation: ProxyViolation;
  count: number;
  firstSeen: string;
  lastSeen: string;
  /** The distinct values found (`found`), each with its count, most frequent first. */
  values: Array<{ found: string; count: number }>;
  /** Occurrences whose value was not among the first MAX_VALUES distinct ones. */
  otherValues: number;
  /** The first few violations whole (their messages and, across exchanges, both exchanges). */
  examples: ProxyViolation[];
}

/** What GET /__mock/violations answers. */
export interface ViolationReport {
  /** Violations seen in all, repeats included. */
  total: number;
  /** Violations not kept because their rule already had MAX_GROUPS_PER_RULE groups. */
  dropped: number;
  /** Most frequent first. */
  groups: ViolationGroup[];
}

/**
 * The group of a violation: its rule and place. The status, expectation and value are left out (they are the group's
 * values); array indices are folded (`/capabilities/3` is `/capabilities/-`); a path no operation has is one place, so
 * an app calling many undocumented paths makes one group.
 */
function keyOf(violation: ProxyViolation): string {
  const { check, rule, part, method, path, pointer, specPointer, origin } = violation;
  const place = rule === 'operation-documented' ? '' : path;
  return JSON.stringify([
    check,
    rule,
    part,
    method,
    place,
    pointer.replace(/\/\d+(?=\/|$)/g, '/-'),
    specPointer,
    origin,
  ]);
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

function countValue(group: ViolationGroup, violation: ProxyViolation): void {
  const value = group.values.find((v) => v.found === violation.found);
  if (value) value.count += 1;
  else if (group.values.length < MAX_VALUES) group.values.push({ found: violation.found, count: 1 });
  else group.otherValues += 1;
  if (group.examples.length < MAX_EXAMPLES && !group.examples.some((e) => e.message === violation.message))
    group.examples.push(violation);
}

/**
 * The violations of a proxy run.
 * @example const log = new ViolationLog((line) => console.error(line)); log.add(check.violations, new Date());
 */
export class ViolationLog {
  readonly #groups = new Map<string, ViolationGroup>();
  readonly #groupsPerRule = new Map<string, number>();
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
        countValue(group, violation);
        if (/^10*$/.test(String(group.count))) this.#print(formatViolationLine(group.violation, group.count));
        continue;
      }
      const ofRule = this.#groupsPerRule.get(violation.rule) ?? 0;
      if (ofRule >= MAX_GROUPS_PER_RULE) {
        this.#dropped += 1;
        continue;
      }
      this.#groupsPerRule.set(violation.rule, ofRule + 1);
      this.#groups.set(key, {
        violation,
        count: 1,
        firstSeen: when,
        lastSeen: when,
        values: [{ found: violation.found, count: 1 }],
        otherValues: 0,
        examples: [violation],
      });
      this.#print(formatViolationLine(violation, 1));
    }
  }

  report(): ViolationReport {
    const groups = [...this.#groups.values()]
      .sort((a, b) => b.count - a.count)
      .map((group) => ({
        ...group,
        values: [...group.values].sort((a, b) => b.count - a.count),
        examples: [...group.examples],
      }));
    return { total: this.#total, dropped: this.#dropped, groups };
  }

  /** The summary printed when the proxy stops: one line per distinct violation, most frequent first. */
  summary(): string[] {
    return this.report().groups.map((group) => formatViolationLine(group.violation, group.count));
  }

  clear(): void {
    this.#groups.clear();
    this.#groupsPerRule.clear();
    this.#total = 0;
    this.#dropped = 0;
  }
}
