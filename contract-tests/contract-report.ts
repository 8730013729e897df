// The report of a run, built from the check records: the JSON written by --json, the verdict that sets the exit status,
// and the console summary grouped by operation that explains every failure.
import { openapiDocument, isJsonObject, operations } from '../spec/index.ts';
import type { CheckName, CheckRecord } from './check-record.ts';
import { formatFailure } from './failure-text.ts';
import type { RunOptions } from './run-options.ts';
import type { RunPlan } from './check-plan.ts';
import { statusCoverage, statusCoverageLines, type StatusCoverage } from './status-coverage.ts';

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
    checks: records,
    statusCoverage: statusCoverage(records),
    errors,
  };
}

const families: CheckName[] = ['conformance', 'auth', 'request-validation', 'behaviour', 'generated'];

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `      ${line}`)
    .join('\n');
}

/**
 * The console summary: per operation, each check family's passed/total, then every failure explained, skips and warnings.
 * @example process.stdout.write(formatConsoleReport(report));
 */
export function formatConsoleReport(report: ContractReport): string {
  const lines: string[] = [];
  for (const operationId of operations.keys()) {
    const mine = report.checks.filter((r) => r.operationId === operationId);
    if (mine.length === 0) continue;
    const tallies = families
      .map((family) => {
        const of = mine.filter((r) => r.check === family);
        if (of.length === 0) return undefined;
        const ran = of.filter((r) => r.outcome !== 'skipped');
        const mark = of.some((r) => r.outcome === 'failed') ? '✗' : ran.length === of.length ? '✓' : '~';
        return `${mark} ${family} ${ran.filter((r) => r.outcome === 'passed').length}/${of.length}`;
      })
      .filter((tally): tally is string => tally !== undefined);
    lines.push(`${operationId.padEnd(17)} ${tallies.join('   ')}`);
    for (const record of mine) {
      if (record.outcome === 'failed') {
        lines.push(`  ✗ ${record.check}: ${record.title}  [${record.id}]`);
        lines.push(indent(formatFailure(record)));
      } else if (record.outcome === 'skipped' || record.skipReason === 'max-writes') {
        const why =
          record.skipReason === 'max-writes'
            ? 'the --max-writes cap left no room (this does not count as a pass)'
            : record.skipReason === 'read-only'
              ? '--read-only'
              : 'API_AGENT_ID is not set';
        const ran =
          record.generated && record.outcome !== 'skipped'
            ? ` (only ${record.generated.runs} of ${record.generated.requestedRuns} generated cases ran)`
            : '';
        lines.push(`  ↷ ${record.check}: ${record.title}: skipped, ${why}${ran}`);
      }
    }
    const warnings = mine.flatMap((r) => r.warnings);
    if (warnings.length > 0) {
      const distinct = [...new Set(warnings.map((w) => `[${w.check}] ${w.message} (${w.origin}, ${w.specPointer})`))];
      lines.push(
        `  ! ${warnings.length} warning(s): ${distinct.slice(0, 5).join('; ')}${distinct.length > 5 ? `; and ${distinct.length - 5} more` : ''}`,
      );
    }
  }
  for (const error of report.errors) lines.push(`suite error: ${error}`);
  lines.push('', ...statusCoverageLines(report.statusCoverage));
  const s = report.summary;
  const seconds = (report.durationMs / 1000).toFixed(1);
  lines.push('');
  lines.push(
    `${report.verdict === 'passed' ? 'PASSED' : 'FAILED'}: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped${s.skippedByCap > 0 ? ` (${s.skippedByCap} by --max-writes)` : ''}, ${s.warnings} warning(s) in ${seconds} s against ${report.baseUrl}`,
  );
  return `${lines.join('\n')}\n`;
}
