// The JUnit XML of `pact verify`, for CI: one testcase per interaction, classed by its operation, failing with its
// first finding as the message and every finding in the body; a warning (--seed-only) is in the system-out.
import { findingLine, interactionName, type PactReport } from './pact-report.ts';
import { xmlText as xml } from '../client/xml-text.ts';

/**
 * The JUnit XML of a pact's verification.
 * @example writeFileSync('pact.xml', redact(formatPactJUnit(report)));
 */
export function formatPactJUnit(report: PactReport): string {
  const suite = `agent-registry-kit pact verify ${report.pact.consumer} → ${report.pact.provider}`;
  const cases = report.interactions.map((interaction) => {
    const open = `    <testcase classname="${xml(interaction.operationId ?? 'not an operation')}" name="${xml(interactionName(interaction))}" time="0"`;
    if (interaction.type !== 'HTTP')
      return `${open}>\n      <skipped message="${xml(`a ${interaction.type} interaction: not HTTP, nothing of the spec to check`)}"/>\n    </testcase>`;
    const out =
      interaction.warnings.length === 0
        ? ''
        : `\n      <system-out>${xml(interaction.warnings.map((warning) => `warning: ${findingLine(warning)}`).join('\n'))}</system-out>`;
    const first = interaction.findings[0];
    if (first === undefined) return out === '' ? `${open}/>` : `${open}>${out}\n    </testcase>`;
    const body = interaction.findings.map(findingLine).join('\n');
    return `${open}>\n      <failure message="${xml(first.message)}" type="${xml(first.rule)}">${xml(body)}</failure>${out}\n    </testcase>`;
  });
  const counts = `tests="${report.interactions.length}" failures="${report.summary.incompatible}" errors="0" skipped="${report.summary.interactions - report.summary.checked}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(suite)}" ${counts}>`,
    `  <testsuite name="${xml(suite)}" ${counts}>`,
    '    <properties>',
    `      <property name="pact" value="${xml(report.pact.file)}"/>`,
    `      <property name="spec" value="${xml(`${report.spec.title} ${report.spec.version}`)}"/>`,
    `      <property name="verdict" value="${report.verdict}"/>`,
    `      <property name="seedOnly" value="${String(report.seedOnly)}"/>`,
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
