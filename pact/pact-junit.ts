// The JUnit XML of `pact verify`, for CI: one testcase per interaction, classed by its operation, failing with its
// first finding as the message and every finding in the body; a warning (--seed-only) is in the system-out. Written by verifier-client/junit-xml.ts.
import { junitXmlParts, type JUnitCase, type JUnitSuite } from '../verifier-client/junit-xml.ts';
import { findingLine, interactionName, type InteractionReport, type PactReport } from './pact-report.ts';

/** One interaction as a testcase: skipped when not HTTP, failing with its first finding, warnings in the system-out. */
function testcase(interaction: InteractionReport): JUnitCase {
  const entry: JUnitCase = {
    classname: interaction.operationId ?? 'not an operation',
    name: interactionName(interaction),
    time: '0',
  };
  if (interaction.type !== 'HTTP')
    return { ...entry, skipped: `a ${interaction.type} interaction: not HTTP, nothing of the spec to check` };
  if (interaction.warnings.length > 0)
    entry.systemOut = interaction.warnings.map((warning) => `warning: ${findingLine(warning)}`).join('\n');
  if (interaction.counted.findings === 0) return entry;
  const first = interaction.findings[0];
  const unlisted = interaction.counted.findings - interaction.findings.length;
  const lines = interaction.findings.map(findingLine);
  if (unlisted > 0) lines.push(`… and ${unlisted} more findings, counted, not listed (the report's cap)`);
  return {
    ...entry,
    failure: {
      message: first?.message ?? `${interaction.counted.findings} findings, not listed (the report's cap)`,
      type: first?.rule ?? 'unlisted',
      body: lines.join('\n'),
    },
  };
}

function suiteOf(report: PactReport): JUnitSuite {
  return {
    name: `agent-registry-kit pact verify ${report.pact.consumer} → ${report.pact.provider}`,
    counts: {
      tests: report.interactions.length,
      failures: report.summary.incompatible,
      errors: 0,
      skipped: report.summary.interactions - report.summary.checked,
    },
    properties: [
      ['pact', report.pact.file],
      ['spec', `${report.spec.title} ${report.spec.version}`],
      ['verdict', report.verdict],
      ['seedOnly', String(report.seedOnly)],
    ],
    // One testcase at a time, as the XML is written.
    cases: {
      *[Symbol.iterator]() {
        for (const interaction of report.interactions) yield testcase(interaction);
      },
    },
  };
}

/**
 * The JUnit XML of a pact's verification, in parts (a line each), for a writer that never holds it whole.
 * @example for (const part of pactJUnitParts(report)) writeSync(fd, redact(`${part}\n`));
 */
export function pactJUnitParts(report: PactReport): Generator<string> {
  return junitXmlParts(suiteOf(report));
}
