// What one check of the suite found, as it travels from the test (vitest task meta) to the reporters.
import type { Violation } from '../spec/index.ts';

/** The families of checks; each is named after the rule it enforces. */
export type CheckName = 'conformance' | 'auth' | 'request-validation' | 'behaviour' | 'reliability' | 'generated';

/**
 * One way the server departed from the contract: a spec Violation (pointer, expected, found, origin, specPointer,
 * message) placed in the check that found it. `rule` is wider than the spec's response rules, since behaviour
 * checks name their own (`new-task-queued`, ...).
 */
export interface CheckViolation extends Omit<Violation, 'operationId' | 'status' | 'rule'> {
  /** The check that enforces the broken rule (a behaviour test can report a conformance violation). */
  check: CheckName;
  rule: string;
  /** Index into the check's exchanges of the request/response it is about. */
  exchange: number | undefined;
}

/** One request the suite sent and what came back; the token is already redacted. */
export interface RecordedExchange {
  operationId: string;
  request: { method: string; url: string; headers: Record<string, string>; body: string | undefined };
  response: { status: number; headers: Record<string, string>; body: string } | undefined;
  /** Set when no response arrived (timeout, connection refused). */
  error: string | undefined;
  durationMs: number;
}

type CheckOutcome = 'passed' | 'failed' | 'skipped';

/** `not-a-jwt`: the check derives its token from API_TOKEN, which is not a three-segment JWT. */
type SkipReason = 'max-writes' | 'read-only' | 'no-agent' | 'not-a-jwt';

export interface CheckRecord {
  /** Stable id, `<area>/<operationId>/<case>`, e.g. `request-validation/<operationId>/revenueShare-maximum`. */
  id: string;
  check: CheckName;
  operationId: string;
  title: string;
  outcome: CheckOutcome;
  /** Why a check did not run; `max-writes` skips make the run fail, the others do not. */
  skipReason: SkipReason | undefined;
  violations: CheckViolation[];
  /** Undocumented fields, and assumption-rule failures under --seed-only. */
  warnings: CheckViolation[];
  exchanges: RecordedExchange[];
  /** For generated checks: the seed, run count, shrunk counterexample and the command that replays it. */
  generated:
    | {
        seed: number;
        runs: number;
        requestedRuns: number;
        counterexample: string | undefined;
        replay: string | undefined;
      }
    | undefined;
}
