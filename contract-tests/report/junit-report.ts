// The JUnit XML of a run, for CI (written by verifier-client/junit-xml.ts): one suite named after the kit, one testcase per check with its operation as the
// classname (CI groups by it), a one-line failure message (the first violation) and the full explanation in the body.
import type { CheckRecord } from '../../verifier-client/check-record.ts';
import type { ContractReport, ReportSection } from './contract-report.ts';
import { formatFailure } from '../../verifier-client/failure-text.ts';
import { formatJUnitXml, type JUnitCase } from '../../verifier-client/junit-xml.ts';

/** The suite name CI shows. */
export const junitSuiteName = 'agent-registry-kit contract';

function oneLine(text: string, length = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
}

function seconds(record: CheckRecord): string {
  return (record.exchanges.reduce((sum, exchange) => sum + exchange.durationMs, 0) / 1000).toFixed(3);
}

const skipText: Record<string, string> = {
  'max-writes': 'skipped: --max-writes left no room for it (this fails the run)',
  'read-only': 'skipped: --read-only',
  'no-agent': 'skipped: needs API_AGENT_ID under --read-only',
  'not-a-jwt': 'skipped: API_TOKEN is not a JWT, so no token can be derived from it',
};

function testcase(record: CheckRecord): JUnitCase {
  const entry: JUnitCase = {
    classname: record.operationId,
    name: `${record.check}: ${record.title} [${record.id}]`,
    time: seconds(record),
  };
  if (record.outcome === 'failed') {
    const first = record.violations[0];
    const more = record.violations.length > 1 ? ` (+${record.violations.length - 1} more)` : '';
    const message = oneLine(`${first?.message ?? 'failed'}${more}`);
    return { ...entry, failure: { message, type: first?.rule ?? 'failed', body: formatFailure(record) } };
  }
  if (record.outcome === 'skipped' || record.skipReason === 'max-writes')
    return { ...entry, skipped: skipText[record.skipReason ?? ''] ?? 'skipped' };
  return entry;
}

/**
 * The JUnit XML of a report; `sections` may add suite properties.
 * @example writeFileSync('contract.xml', redact(formatJUnit(report)));
 */
export function formatJUnit(report: ContractReport, sections: readonly ReportSection[] = []): string {
  const properties: Array<[string, string]> = [
    ['baseUrl', report.baseUrl],
    ['spec', `${report.spec.title} ${report.spec.version}`],
    ['verdict', report.verdict],
    ['seed', String(report.options.seed)],
    ['runs', String(report.options.runs)],
    ['maxWrites', String(report.plan.maxWrites)],
    ['readOnly', String(report.options.readOnly)],
    ['seedOnly', String(report.options.seedOnly)],
    ...report.diagnosis.map((line): [string, string] => ['diagnosis', line]),
    ...sections.flatMap((section) => section.junitProperties?.(report) ?? []),
  ];
  const cases = report.checks.map(testcase);
  // An error of the suite itself is a failed case of its own, so CI shows it rather than a green run with a log line.
  for (const error of report.errors)
    cases.push({
      classname: junitSuiteName,
      name: 'suite error',
      time: '0',
      error: { message: oneLine(error), body: error },
    });
  return formatJUnitXml({
    name: junitSuiteName,
    timestamp: report.startedAt,
    counts: {
      tests: report.checks.length + report.errors.length,
      failures: report.summary.failed,
      errors: report.errors.length,
      skipped: report.summary.skipped,
    },
    time: (report.durationMs / 1000).toFixed(3),
    properties,
    cases,
  });
}
