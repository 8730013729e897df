// The verdict of `pact verify`: every interaction of a pact checked against the spec, its findings counted by origin,
// and the one screen a terminal shows (the JSON report and the JUnit XML hold every finding).
import { getOperation, openapiDocument, type OperationId } from '../spec/index.ts';
import { checkInteraction, type PactFinding } from './interaction-check.ts';
import type { Pact, PactInteraction, ProviderState } from './pact-file.ts';

/** One interaction as the report states it. */
export interface InteractionReport {
  index: number;
  description: string;
  providerStates: ProviderState[];
  /** `HTTP` for the interactions the spec judges; a Pact 4 message type for those it cannot. */
  type: string;
  method: string | undefined;
  path: string | undefined;
  status: number | undefined;
  operationId: OperationId | undefined;
  /** Findings that fail the verdict. */
  findings: PactFinding[];
  /** Findings of rules that are assumptions of the spec, under --seed-only: shown, never failing. */
  warnings: PactFinding[];
}

/** The whole report, as `--json` writes it. */
export interface PactReport {
  pact: { file: string; version: number; specification: string | undefined; consumer: string; provider: string };
  spec: { title: string; version: string };
  seedOnly: boolean;
  verdict: 'compatible' | 'incompatible';
  summary: { interactions: number; checked: number; incompatible: number; seed: number; assumption: number };
  interactions: InteractionReport[];
}

function specTitle(): { title: string; version: string } {
  const info = openapiDocument.info as { title?: unknown; version?: unknown } | undefined;
  return { title: String(info?.title ?? ''), version: String(info?.version ?? '') };
}

function reportOf(interaction: PactInteraction, seedOnly: boolean): InteractionReport {
  const { operationId, findings } = checkInteraction(interaction);
  const failing = seedOnly ? findings.filter((finding) => finding.origin === 'seed') : findings;
  return {
    index: interaction.index,
    description: interaction.description,
    providerStates: interaction.providerStates,
    type: interaction.request === undefined ? interaction.type : 'HTTP',
    method: interaction.request?.method,
    path: interaction.request?.path,
    status: interaction.response?.status,
    operationId,
    findings: failing,
    warnings: seedOnly ? findings.filter((finding) => finding.origin !== 'seed') : [],
  };
}

/**
 * Checks every interaction of `pact` against the spec. With `seedOnly`, findings of rules that are decisions of the
 * spec (assumptions) are warnings and do not make the pact incompatible.
 * @example verifyPact(parsePact(text), { file: 'pact.json', seedOnly: false }).verdict // 'compatible'
 */
export function verifyPact(pact: Pact, options: { file: string; seedOnly: boolean }): PactReport {
  const interactions = pact.interactions.map((interaction) => reportOf(interaction, options.seedOnly));
  const all = interactions.flatMap((one) => one.findings);
  return {
    pact: {
      file: options.file,
      version: pact.version,
      specification: pact.specification,
      consumer: pact.consumer,
      provider: pact.provider,
    },
    spec: specTitle(),
    seedOnly: options.seedOnly,
    verdict: all.length > 0 ? 'incompatible' : 'compatible',
    summary: {
      interactions: interactions.length,
      checked: interactions.filter((one) => one.type === 'HTTP').length,
      incompatible: interactions.filter((one) => one.findings.length > 0).length,
      seed: all.filter((finding) => finding.origin === 'seed').length,
      assumption: all.filter((finding) => finding.origin === 'assumption').length,
    },
    interactions,
  };
}

/**
 * How a report names an interaction: its description in quotes and its provider states.
 * @example interactionName(report) // '"get a paused agent" (given agent agt_1 exists with status paused)'
 */
export function interactionName(interaction: Pick<InteractionReport, 'description' | 'providerStates'>): string {
  const states = interaction.providerStates.map((state) => state.name).join('; ');
  return `"${interaction.description}"${states === '' ? '' : ` (given ${states})`}`;
}

/** The place of a finding: the operation's template when the request is one, else the path as written. */
function exchangeText(interaction: InteractionReport): string {
  const path = interaction.operationId === undefined ? interaction.path : getOperation(interaction.operationId).path;
  return `${interaction.method ?? ''} ${path ?? ''} → ${interaction.status ?? ''}`;
}

/**
 * One line of a finding: side and pointer, rule and origin, what was expected and found, and the rule's place.
 * @example findingLine(finding) // 'response: /status must be one of active, paused, deprecated (found "retired") [body-schema, seed, …]'
 */
export function findingLine(finding: PactFinding): string {
  const matcher = finding.matcher === undefined ? '' : `; under matcher ${finding.matcher}, an example`;
  return `${finding.part}: ${finding.message} (found ${finding.found}) [${finding.rule}, ${finding.origin}, spec #${finding.specPointer}${matcher}]`;
}

/** How many finding lines one screen shows; --json and --junit hold every one. */
const screenFindings = 16;

/**
 * The one screen `pact verify` prints: a header, each incompatible interaction with its findings (at most 16 lines of
 * them in all), and the verdict.
 * @example process.stdout.write(formatPactReport(report));
 */
export function formatPactReport(report: PactReport): string {
  const { pact, summary } = report;
  const lines = [
    `agent-registry-kit pact verify: ${pact.file} (Pact ${pact.version}, ${pact.consumer} → ${pact.provider}, ${summary.interactions} interaction${summary.interactions === 1 ? '' : 's'}) against spec/openapi.yaml (${report.spec.title} ${report.spec.version})${report.seedOnly ? ', seed rules only' : ''}`,
  ];
  let shown = 0;
  let hidden = 0;
  for (const interaction of report.interactions) {
    const listed = [...interaction.findings, ...interaction.warnings];
    if (listed.length === 0) continue;
    lines.push(
      `${interaction.findings.length > 0 ? '✗' : '!'} ${interactionName(interaction)} ${exchangeText(interaction)}`,
    );
    for (const finding of listed) {
      if (shown >= screenFindings) {
        hidden += 1;
        continue;
      }
      const warning = interaction.warnings.includes(finding) ? 'warning (assumption, --seed-only): ' : '';
      lines.push(`    ${warning}${findingLine(finding)}`);
      shown += 1;
    }
  }
  if (hidden > 0) lines.push(`    … and ${hidden} more (--json FILE lists every finding)`);
  const passed = summary.checked - summary.incompatible;
  const skipped = summary.interactions - summary.checked;
  lines.push(
    `✓ ${passed} of ${summary.checked} HTTP interactions compatible${skipped > 0 ? ` (${skipped} not HTTP, not checked)` : ''}`,
  );
  const count = summary.seed + summary.assumption;
  lines.push(
    report.verdict === 'compatible'
      ? 'compatible: every interaction agrees with the spec'
      : `incompatible: ${count} finding${count === 1 ? '' : 's'} in ${summary.incompatible} interaction${summary.incompatible === 1 ? '' : 's'} (${summary.seed} seed, ${summary.assumption} assumption)`,
  );
  return `${lines.join('\n')}\n`;
}
