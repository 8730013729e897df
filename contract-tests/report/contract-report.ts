// The report of a run, built from the check records: the JSON written by --json, the verdict that sets the exit status,
// and the console text that fits one screen: a diagnosis when all answers share a cause, each distinct violation once
// with a count, then the per-operation summary and the verdict.
import { openapiDocument, isJsonObject, operations } from '../../spec/index.ts';
import { diagnose } from '../../verifier-client/answer-diagnosis.ts';
import type { CheckName, CheckRecord } from '../../verifier-client/check-record.ts';
import { formatExchange, formatViolation } from '../../verifier-client/failure-text.ts';
import type { RunOptions } from '../run-options.ts';
import type { RunPlan } from '../check-plan.ts';
import { statusCoverage, type StatusCoverage } from './status-coverage.ts';
import { groupViolations, type ViolationGroup } from '../../verifier-client/violation-groups.ts';

/**
 * A part of the report another module adds (e.g. status coverage): lines printed after the failures, before the
 * per-operation summary, and properties of the JUnit suite.
 */
export interface ReportSection {
  name: string;
  consoleLines(report: ContractReport): string[];
  junitProperties?(report: ContractReport): Array<[name: string, value: string]>;
}

export interface ContractReport {
  tool: 'agent-registry-kit contract';
  spec: { title: string; version: string };
  baseUrl: string;
  startedAt: string;
  durationMs: number;
  options: Omit<RunOptions, 'token' | 'baseUrl'>;
  plan: { maxWrites: number; posts: number; deploys: number; executes: number };
  /** `passed` only when no check failed, none was skipped by --max-writes, and the suite itself raised no error. */
  verdict: 'passed' | 'failed';
  summary: {
    checks: number;
    passed: number;
    failed: number;
    skipped: number;
    skippedByCap: number;
    warnings: number;
    errors: number;
  };
  /** What all answers have in common, when that is the likely cause of every failure (wrong base URL, token, …). */
  diagnosis: string[];
  checks: CheckRecord[];
  /** Documented (operation, status) pairs the server was seen to answer, never provoked into, and undocumented ones. */
  statusCoverage: StatusCoverage;
  /** Errors of the suite itself (a crash, a setup failure), redacted. */
  errors: string[];
}

/**
 * Builds the report of a run.
 * @example buildReport({ records, errors: [], options, plan, startedAt, durationMs }).verdict // 'passed'
 */
export function buildReport(input: {
  records: CheckRecord[];
  errors: string[];
  options: RunOptions;
  plan: RunPlan;
  startedAt: Date;
  durationMs: number;
}): ContractReport {
  const { records, errors, options, plan } = input;
  const { token: _token, baseUrl, ...shown } = options;
  const count = (predicate: (record: CheckRecord) => boolean): number => records.filter(predicate).length;
  const summary = {
    checks: records.length,
    passed: count((r) => r.outcome === 'passed'),
    failed: count((r) => r.outcome === 'failed'),
    skipped: count((r) => r.outcome === 'skipped'),
    skippedByCap: count((r) => r.skipReason === 'max-writes'),
    warnings: records.reduce((sum, r) => sum + r.warnings.length, 0),
    errors: errors.length,
  };
  const info = isJsonObject(openapiDocument.info) ? openapiDocument.info : {};
  const verdict =
    summary.failed === 0 && summary.skippedByCap === 0 && errors.length === 0 && summary.passed > 0
      ? 'passed'
      : 'failed';
  return {
    tool: 'agent-registry-kit contract',
    spec: { title: String(info.title), version: String(info.version) },
    baseUrl,
    startedAt: input.startedAt.toISOString(),
    durationMs: input.durationMs,
    options: shown,
    plan: {
      maxWrites: plan.maxWrites,
      posts: plan.totals.posts,
      deploys: plan.totals.deploys,
      executes: plan.totals.executes,
    },
    verdict,
    summary,
    diagnosis: diagnose(records),
    checks: records,
    statusCoverage: statusCoverage(records),
    errors,
  };
}

const families: CheckName[] = ['conformance', 'auth', 'request-validation', 'behaviour', 'reliability', 'generated'];

/** Lines the failures may take; past it, each distinct violation gets one line, and then a count of the rest. */
const failureBudget = 28;
/** Bodies in the console are cut here, so an example stays on one line of a terminal. */
const consoleBodyLength = 96;

function indent(text: string, by = '    '): string {
  return text
    .split('\n')
    .map((line) => `${by}${line}`)
    .join('\n');
}

function listIds(ids: readonly string[], shown = 2): string {
  const head = ids.slice(0, shown).join(', ');
  return ids.length > shown ? `${head} and ${ids.length - shown} more` : head;
}

function answerOf(group: ViolationGroup): string {
  const response = group.example?.response;
  return response ? `${response.status} ${response.headers['content-type'] ?? ''} ${response.body}` : '';
}

/** Breaks a paragraph into lines of at most `width` characters, at spaces. */
function wrap(text: string, width = 118): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return line === '' ? lines : [...lines, line];
}

function groupHeadline(group: ViolationGroup): string {
  const { check, rule, message, expected, found } = group.violation;
  const times = group.count > 1 ? `  × ${group.count} in ${group.checkIds.length} check(s)` : '';
  // Occurrences that differ in wording (each names its own request) are summed up by what they share.
  const text = group.sameMessage ? message : `${rule}: expected ${expected}, found ${found}`;
  return `✗ [${check}] ${text}${times}`;
}

function groupDetail(
  group: ViolationGroup,
  records: ReadonlyMap<string, CheckRecord>,
  shownAnswers: ReadonlySet<string>,
): string[] {
  // formatViolation's first line is the message, which the headline repeats with the count.
  const [, ...rest] = formatViolation(group.violation).split('\n');
  const lines = [groupHeadline(group), ...rest, `    seen in ${listIds(group.checkIds)}`];
  // An answer already shown (every answer identical, say) is not shown again.
  if (group.example && !shownAnswers.has(answerOf(group)))
    lines.push(indent(formatExchange(group.example, consoleBodyLength)));
  for (const id of group.checkIds) {
    const generated = records.get(id)?.generated;
    if (generated?.counterexample !== undefined) lines.push(`    shrunk counterexample: ${generated.counterexample}`);
    if (generated?.replay !== undefined) lines.push(`    replay: ${generated.replay}`);
  }
  return lines;
}

/** Every distinct violation, most frequent first, in as much detail as the budget allows. */
function failureLines(report: ContractReport): string[] {
  const groups = groupViolations(report.checks);
  const records = new Map(report.checks.map((record) => [record.id, record]));
  const lines: string[] = [];
  const shownAnswers = new Set<string>();
  for (const [position, group] of groups.entries()) {
    const left = failureBudget - lines.length;
    const detail = groupDetail(group, records, shownAnswers);
    if (detail.length + 1 <= left) {
      lines.push(...detail);
      shownAnswers.add(answerOf(group));
    } else if (left > 1) lines.push(groupHeadline(group));
    else {
      lines.push(`… and ${groups.length - position} more distinct violation(s): every one is in --json and --junit`);
      break;
    }
  }
  return lines;
}

function skipLines(report: ContractReport): string[] {
  const why: Record<string, string> = {
    'max-writes': 'the --max-writes cap left no room (this does not count as a pass)',
    'read-only': '--read-only',
    'no-agent': 'API_AGENT_ID is not set',
    'not-a-jwt': 'API_TOKEN is not a JWT, so no token can be derived from it',
  };
  const lines: string[] = [];
  for (const [reason, text] of Object.entries(why)) {
    const skipped = report.checks.filter(
      (r) => r.skipReason === reason && (r.outcome === 'skipped' || reason === 'max-writes'),
    );
    if (skipped.length === 0) continue;
    const partial = skipped.filter((r) => r.outcome !== 'skipped' && r.generated);
    const cut =
      partial.length > 0
        ? ` (${partial.map((r) => `${r.id}: only ${r.generated?.runs} of ${r.generated?.requestedRuns} generated cases ran`).join('; ')})`
        : '';
    // Auth checks skipped by --read-only leave a hole the user must know of: say which operations went unchecked.
    const auth = reason === 'read-only' ? skipped.filter((r) => r.check === 'auth') : [];
    const rest = skipped.filter((r) => !auth.includes(r));
    if (auth.length > 0)
      lines.push(
        `↷ ${auth.length} auth check(s) could not run under --read-only (with a valid token their request would write, so a server that skips auth on ${[...new Set(auth.map((r) => r.operationId))].join(', ')} is not caught): ${listIds(auth.map((r) => r.id))}`,
      );
    if (rest.length > 0) lines.push(`↷ ${rest.length} skipped: ${text}: ${listIds(rest.map((r) => r.id))}${cut}`);
  }
  return lines;
}

function warningLines(report: ContractReport): string[] {
  const warnings = report.checks.flatMap((r) => r.warnings);
  if (warnings.length === 0) return [];
  const distinct = [...new Set(warnings.map((w) => `[${w.check}] ${w.message} (${w.origin}, ${w.specPointer})`))];
  return [
    `! ${warnings.length} warning(s): ${distinct.slice(0, 4).join('; ')}${distinct.length > 4 ? `; and ${distinct.length - 4} more` : ''}`,
  ];
}

function operationSummary(report: ContractReport): string[] {
  const lines: string[] = [];
  for (const operationId of operations.keys()) {
    const mine = report.checks.filter((r) => r.operationId === operationId);
    if (mine.length === 0) continue;
    const tallies = families.flatMap((family) => {
      const of = mine.filter((r) => r.check === family);
      if (of.length === 0) return [];
      const ran = of.filter((r) => r.outcome !== 'skipped');
      const mark = of.some((r) => r.outcome === 'failed') ? '✗' : ran.length === of.length ? '✓' : '~';
      return [`${mark} ${family} ${ran.filter((r) => r.outcome === 'passed').length}/${of.length}`];
    });
    lines.push(`${operationId.padEnd(17)} ${tallies.join('  ')}`);
  }
  return lines;
}

/**
 * The console text of a run, one screen even for a server that gets everything wrong: a diagnosis when all answers share
 * a cause, each distinct violation once (with a count, an example exchange and the checks that saw it), skips and
 * warnings collapsed, then `sections`, then the per-operation summary and the verdict.
 * @example process.stdout.write(formatConsoleReport(report));
 */
export function formatConsoleReport(report: ContractReport, sections: readonly ReportSection[] = []): string {
  const lines: string[] = [];
  for (const line of report.diagnosis) lines.push(...wrap(`Diagnosis: ${line}`), '');
  lines.push(...failureLines(report), ...skipLines(report), ...warningLines(report));
  for (const section of sections) lines.push(...section.consoleLines(report));
  for (const error of report.errors) lines.push(`suite error: ${error}`);
  if (lines.length > 0) lines.push('');
  lines.push(...operationSummary(report));
  const s = report.summary;
  const seconds = (report.durationMs / 1000).toFixed(1);
  lines.push(
    `${report.verdict === 'passed' ? 'PASSED' : 'FAILED'}: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped${s.skippedByCap > 0 ? ` (${s.skippedByCap} by --max-writes)` : ''}, ${s.warnings} warning(s) in ${seconds} s against ${report.baseUrl}`,
  );
  return `${lines.join('\n')}\n`;
}
