// The Markdown job summary of a run (`contract --summary FILE`, for GitHub's $GITHUB_STEP_SUMMARY): the verdict, one
// table with a row for every operation of the spec and a column per family of checks, then the first failures with
// their pointers. Everything a server or a user wrote is redacted and then escaped (markdownText), so it renders as
// text and the token is not in it in any form: escaping first would split a token's writings (`-` becomes `\-`) where
// the redactor could no longer find them.
import { operations } from '../../spec/index.ts';
import type { CheckName, CheckRecord } from '../../verifier-client/check-record.ts';
import { markdownText } from '../../verifier-client/markdown-text.ts';
import type { Redact } from '../../verifier-client/redaction.ts';
import type { ContractReport } from './contract-report.ts';

/** Text for the page: redacted, then escaped and cut. */
type Text = (text: string, length?: number) => string;

const families: CheckName[] = ['conformance', 'auth', 'request-validation', 'behaviour', 'reliability', 'generated'];

/** How many failed checks the summary details; the rest are counted, and are all in --junit and --json. */
const shownFailures = 10;

/** A family's cell for one operation: ✅ all passed, ❌ one failed, ⚪ some skipped, – none planned. */
function cell(checks: readonly CheckRecord[]): string {
  if (checks.length === 0) return '–';
  const passed = checks.filter((check) => check.outcome === 'passed').length;
  const mark = checks.some((check) => check.outcome === 'failed')
    ? '❌'
    : checks.some((check) => check.outcome === 'skipped')
      ? '⚪'
      : '✅';
  return `${mark} ${passed}/${checks.length}`;
}

/** One row per operation of the spec, whether or not the run checked it (an operation with no check shows so). */
function operationTable(report: ContractReport, md: Text): string[] {
  const rows = [...operations.values()].map((operation) => {
    const mine = report.checks.filter((check) => check.operationId === operation.operationId);
    const cells = [cell(mine), ...families.map((family) => cell(mine.filter((check) => check.check === family)))];
    return `| ${md(operation.operationId)} | ${md(`${operation.method.toUpperCase()} ${operation.path}`)} | ${cells.join(' | ')} |`;
  });
  return [
    `| operation | request | all checks | ${families.join(' | ')} |`,
    `|---|---|---|${families.map(() => '---|').join('')}`,
    ...rows,
  ];
}

/** The first failed checks, each with its first violation: the pointer, what was expected and found, the rule. */
function failureList(report: ContractReport, md: Text): string[] {
  const failed = report.checks.filter((check) => check.outcome === 'failed');
  if (failed.length === 0) return [];
  const items = failed.slice(0, shownFailures).map((check) => {
    const [first] = check.violations;
    const more = check.violations.length > 1 ? ` (+${check.violations.length - 1} more)` : '';
    const detail =
      first === undefined
        ? 'the check did not finish (see the console output)'
        : `${md(first.message)}${more} · at ${md(first.pointer === '' ? '(the whole response)' : first.pointer)}: expected ${md(first.expected)}, found ${md(first.found)}; rule ${md(first.rule)} (${md(first.origin)}), spec ${md(first.specPointer || '(document)')}`;
    return `- **${md(check.id)}**: ${detail}`;
  });
  const rest = failed.length - items.length;
  return [
    '',
    `#### ${failed.length === items.length ? 'Failures' : `First ${items.length} of ${failed.length} failures`}`,
    '',
    ...items,
    ...(rest > 0 ? [`- … and ${rest} more: every one is in the --junit and --json reports`] : []),
  ];
}

/**
 * The job summary of a run, as Markdown, every text of it through `redact` (the run's redactor) before it is escaped.
 * @example appendFileSync(process.env.GITHUB_STEP_SUMMARY, formatJobSummary(report, redact));
 */
export function formatJobSummary(report: ContractReport, redact: Redact): string {
  const md: Text = (text, length) => markdownText(redact(text), length);
  const s = report.summary;
  const verdict = report.verdict === 'passed' ? '✅ PASSED' : '❌ FAILED';
  const counts = `${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped${s.skippedByCap > 0 ? ` (${s.skippedByCap} by --max-writes)` : ''}, ${s.warnings} warning(s)`;
  const lines = [
    `### agent-registry-kit contract: ${verdict}`,
    '',
    `**${counts}** in ${(report.durationMs / 1000).toFixed(1)} s against ${md(report.baseUrl)}, checked against ${md(`${report.spec.title} ${report.spec.version}`)} (seed ${report.options.seed}${report.options.readOnly ? ', read-only' : ''}${report.options.seedOnly ? ', seed rules only' : ''})`,
    ...report.diagnosis.flatMap((line) => ['', `> **Diagnosis:** ${md(line, 600)}`]),
    ...report.errors.slice(0, 3).flatMap((error) => ['', `> **Suite error:** ${md(error, 600)}`]),
    '',
    ...operationTable(report, md),
    ...failureList(report, md),
    '',
  ];
  return `${lines.join('\n')}\n`;
}
