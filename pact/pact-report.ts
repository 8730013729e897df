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
  /** Findings that fail the verdict, the first of them (see `counted`). */
  findings: PactFinding[];
  /** Findings of rules that are assumptions of the spec, under --seed-only: shown, never failing. */
  warnings: PactFinding[];
  /** How many of each the checkers found; those past the report's caps are counted, not listed. */
  counted: { findings: number; warnings: number };
}

/** Findings and warnings one interaction lists at most; the rest are counted. */
export const MAX_LISTED_PER_INTERACTION = 100;
/** Findings and warnings the whole report lists at most, so --json and --junit stay small whatever the pact. */
export const MAX_LISTED_FINDINGS = 5_000;
/** Characters of a finding's texts, a description, a path or a provider state's name that the report keeps. */
export const MAX_REPORT_TEXT = 512;

/** The whole report, as `--json` writes it. */
export interface PactReport {
  pact: { file: string; version: number; specification: string | undefined; consumer: string; provider: string };
  spec: { title: string; version: string };
  seedOnly: boolean;
  verdict: 'compatible' | 'incompatible';
  /** Counts over every finding, listed or not; `unlisted` is how many the caps left out of `interactions`. */
  summary: {
    interactions: number;
    checked: number;
    incompatible: number;
    seed: number;
    assumption: number;
    unlisted: number;
  };
  interactions: InteractionReport[];
}

function specTitle(): { title: string; version: string } {
  const info = openapiDocument.info as { title?: unknown; version?: unknown } | undefined;
  return { title: String(info?.title ?? ''), version: String(info?.version ?? '') };
}

/** Options of verifyPact. */
export interface VerifyOptions {
  file: string;
  seedOnly: boolean;
  /** Applied to every text before it is cut to MAX_REPORT_TEXT, so that no cut leaves part of a credential behind. */
  redact?: (text: string) => string;
}

/** What the report keeps of a text: redacted, then at most MAX_REPORT_TEXT characters. */
function keptText(text: string, redact: (text: string) => string): string {
  const safe = redact(text);
  if (safe.length <= MAX_REPORT_TEXT) return safe;
  return `${safe.slice(0, MAX_REPORT_TEXT - 40)}… (${safe.length} characters, cut)`;
}

function keptFinding(finding: PactFinding, redact: (text: string) => string): PactFinding {
  const kept: PactFinding = { ...finding };
  for (const key of ['rule', 'pointer', 'expected', 'found', 'specPointer', 'message', 'matcher'] as const) {
    const value = kept[key];
    if (value !== undefined) kept[key] = keptText(value, redact) as never;
  }
  return kept;
}

/** The findings a report lists: each interaction's first ones, up to what the whole report has left. */
class Listing {
  #left = MAX_LISTED_FINDINGS;
  readonly #redact: (text: string) => string;
  constructor(redact: (text: string) => string) {
    this.#redact = redact;
  }
  take(findings: readonly PactFinding[]): PactFinding[] {
    const count = Math.min(findings.length, this.#left);
    this.#left -= count;
    return findings.slice(0, count).map((finding) => keptFinding(finding, this.#redact));
  }
}

function reportOf(
  interaction: PactInteraction,
  seedOnly: boolean,
  listing: Listing,
  redact: (text: string) => string,
): { report: InteractionReport; seed: number; assumption: number } {
  const { operationId, findings } = checkInteraction(interaction);
  const failing = seedOnly ? findings.filter((finding) => finding.origin === 'seed') : findings;
  const warnings = seedOnly ? findings.filter((finding) => finding.origin !== 'seed') : [];
  const listedFailing = listing.take(failing.slice(0, MAX_LISTED_PER_INTERACTION));
  const listedWarnings = listing.take(warnings.slice(0, MAX_LISTED_PER_INTERACTION - listedFailing.length));
  const report: InteractionReport = {
    index: interaction.index,
    description: keptText(interaction.description, redact),
    providerStates: interaction.providerStates.map((state) => ({ ...state, name: keptText(state.name, redact) })),
    type: keptText(interaction.request === undefined ? interaction.type : 'HTTP', redact),
    method: interaction.request === undefined ? undefined : keptText(interaction.request.method, redact),
    path: interaction.request === undefined ? undefined : keptText(interaction.request.path, redact),
    status: interaction.response?.status,
    operationId,
    findings: listedFailing,
    warnings: listedWarnings,
    counted: { findings: failing.length, warnings: warnings.length },
  };
  const seed = failing.filter((finding) => finding.origin === 'seed').length;
  return { report, seed, assumption: failing.filter((finding) => finding.origin === 'assumption').length };
}

/**
 * Checks every interaction of `pact` against the spec. With `seedOnly`, findings of rules that are decisions of the
 * spec (assumptions) are warnings and do not make the pact incompatible. Every finding is counted; the report lists at
 * most MAX_LISTED_PER_INTERACTION of an interaction and MAX_LISTED_FINDINGS in all, each text cut to MAX_REPORT_TEXT,
 * so that what it holds is bounded by the pact's size and not by how many findings a hostile pact can make.
 * @example verifyPact(parsePact(text), { file: 'pact.json', seedOnly: false }).verdict // 'compatible'
 */
export function verifyPact(pact: Pact, options: VerifyOptions): PactReport {
  const redact = options.redact ?? ((text: string) => text);
  const listing = new Listing(redact);
  const summary = { interactions: 0, checked: 0, incompatible: 0, seed: 0, assumption: 0, unlisted: 0 };
  const interactions = pact.interactions.map((interaction) => {
    // Counted from the checkers' findings: the listed ones may be fewer.
    const { report, seed, assumption } = reportOf(interaction, options.seedOnly, listing, redact);
    summary.interactions += 1;
    if (report.type === 'HTTP') summary.checked += 1;
    if (report.counted.findings > 0) summary.incompatible += 1;
    summary.seed += seed;
    summary.assumption += assumption;
    summary.unlisted +=
      report.counted.findings + report.counted.warnings - report.findings.length - report.warnings.length;
    return report;
  });
  return {
    pact: {
      file: keptText(options.file, redact),
      version: pact.version,
      specification: pact.specification === undefined ? undefined : keptText(pact.specification, redact),
      consumer: keptText(pact.consumer, redact),
      provider: keptText(pact.provider, redact),
    },
    spec: specTitle(),
    seedOnly: options.seedOnly,
    verdict: summary.incompatible > 0 ? 'incompatible' : 'compatible',
    summary,
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
    const count = interaction.counted.findings + interaction.counted.warnings;
    if (count === 0) continue;
    // Past the screen's lines, an interaction is only counted: the screen is a few lines whatever the pact holds.
    if (shown >= screenFindings) {
      hidden += count;
      continue;
    }
    lines.push(
      `${interaction.counted.findings > 0 ? '✗' : '!'} ${interactionName(interaction)} ${exchangeText(interaction)}`,
    );
    hidden += count - listed.length;
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
  if (hidden > 0)
    lines.push(
      `    … and ${hidden} more (--json FILE lists ${summary.unlisted > 0 ? `up to ${MAX_LISTED_FINDINGS}` : 'every finding'})`,
    );
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

/**
 * The report as `--json` writes it, in parts: the summary first, then one line of compact JSON per interaction, so
 * that the file is never one string in memory and its size follows the pact's (no indentation multiplies a deep
 * provider-state parameter). Joined, the parts are the JSON of `report`.
 * @example for (const part of pactReportJson(report)) writeSync(fd, redact(part));
 */
export function* pactReportJson(report: PactReport): Generator<string> {
  const { interactions, ...head } = report;
  yield '{\n';
  for (const [key, value] of Object.entries(head)) yield `  ${JSON.stringify(key)}: ${JSON.stringify(value)},\n`;
  yield '  "interactions": [';
  let first = true;
  for (const interaction of interactions) {
    yield `${first ? '' : ','}\n    ${JSON.stringify(interaction)}`;
    first = false;
  }
  yield '\n  ]\n}\n';
}
