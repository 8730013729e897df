// The report of a spec-change check: the JSON written by --json, the verdict behind the exit status, and the terminal
// table of classified changes and of the recorded calls the new version would reject.
import type { Impact, SpecChange } from './change-classifier.ts';
import type { ReplayResult } from './traffic-replay.ts';

export interface SpecChangeReport {
  tool: 'agent-registry-kit spec-change';
  base: string;
  head: string;
  /** `breaking` when a change breaks clients or servers, or a recorded call or answer the base accepted is now rejected. */
  verdict: 'breaking' | 'compatible';
  summary: Record<Impact, number> & { newlyRejected: number; alreadyRejected: number };
  changes: SpecChange[];
  replay: ReplayResult & { sources: string[] };
}

/**
 * Builds the report.
 * @example buildSpecChangeReport({ base: 'main:spec/openapi.yaml', head: 'spec/openapi.yaml', changes, replay, sources }).verdict
 */
export function buildSpecChangeReport(input: {
  base: string;
  head: string;
  changes: SpecChange[];
  replay: ReplayResult;
  sources: string[];
}): SpecChangeReport {
  const count = (impact: Impact): number => input.changes.filter((c) => c.impact === impact).length;
  // Counted by the replay, not from its list of findings: that list stops at MAX_KEPT_FINDINGS.
  const { newlyRejected, alreadyRejected } = input.replay;
  const summary = {
    'breaking-for-clients': count('breaking-for-clients'),
    'breaking-for-servers': count('breaking-for-servers'),
    'breaking-for-both': count('breaking-for-both'),
    compatible: count('compatible'),
    newlyRejected,
    alreadyRejected,
  };
  const breaking =
    summary['breaking-for-clients'] + summary['breaking-for-servers'] + summary['breaking-for-both'] + newlyRejected >
    0;
  return {
    tool: 'agent-registry-kit spec-change',
    base: input.base,
    head: input.head,
    verdict: breaking ? 'breaking' : 'compatible',
    summary,
    changes: input.changes,
    replay: { ...input.replay, sources: input.sources },
  };
}

const labels: Record<Impact, string> = {
  'breaking-for-both': '✗ both   ',
  'breaking-for-clients': '✗ clients',
  'breaking-for-servers': '✗ servers',
  compatible: '✓ compat ',
};

/**
 * The terminal text: one line per change (breaking first), then each newly rejected recording with its reasons.
 * @example process.stdout.write(formatSpecChangeReport(report));
 */
export function formatSpecChangeReport(report: SpecChangeReport, limit = 60): string {
  const lines = [`agent-registry-kit spec-change: ${report.base} → ${report.head}`, ''];
  const s = report.summary;
  lines.push(
    `Changes: ${report.changes.length} (${s['breaking-for-clients']} breaking for clients, ${s['breaking-for-servers']} for servers, ${s['breaking-for-both']} for both, ${s.compatible} compatible)`,
  );
  for (const change of report.changes.slice(0, limit)) {
    const uses =
      change.usedBy.length > 0
        ? `  [${change.usedBy.slice(0, 3).join('; ')}${change.usedBy.length > 3 ? '; …' : ''}]`
        : '';
    lines.push(
      `  ${labels[change.impact]} ${change.kind.padEnd(26)} ${change.in === 'base' ? '(base) ' : ''}${change.pointer}`,
    );
    lines.push(`              ${change.message}${uses}`);
  }
  if (report.changes.length > limit) lines.push(`  … ${report.changes.length - limit} more (see --json)`);
  const r = report.replay;
  lines.push(
    '',
    `Replayed through the new version: ${r.counts.example} base example(s), ${r.counts.journal} journal entr${r.counts.journal === 1 ? 'y' : 'ies'}, ${r.counts.report} report exchange(s) (${r.requests} requests, ${r.responses} responses${r.incomplete > 0 ? `; ${r.incomplete} part(s) not replayed, their body was cut when recorded` : ''})`,
  );
  const newly = r.findings.filter((f) => f.verdict === 'newly-rejected');
  for (const finding of newly.slice(0, limit)) {
    lines.push(
      `  ✗ ${finding.source} ${finding.where}: ${finding.method} ${finding.path}${finding.status !== undefined && finding.part === 'response' ? ` → ${finding.status}` : ''} ${finding.part} now rejected`,
    );
    for (const reason of finding.reasons.slice(0, 4)) lines.push(`      ${reason}`);
    if (finding.reasons.length > 4) lines.push(`      … ${finding.reasons.length - 4} more`);
  }
  if (s.newlyRejected > Math.min(limit, newly.length))
    lines.push(`  … ${s.newlyRejected - Math.min(limit, newly.length)} more (see --json)`);
  if (r.findingsOmitted > 0)
    lines.push(`  (--json lists the first ${r.findings.length} findings; ${r.findingsOmitted} more are only counted)`);
  if (s.alreadyRejected > 0)
    lines.push(
      `  (${s.alreadyRejected} recorded part(s) the base version already rejected are listed in --json, not counted)`,
    );
  lines.push(
    '',
    report.verdict === 'breaking'
      ? `BREAKING: ${s['breaking-for-clients'] + s['breaking-for-both']} change(s) break clients, ${s['breaking-for-servers'] + s['breaking-for-both']} break servers, ${s.newlyRejected} recorded call(s) or answer(s) would be rejected`
      : `COMPATIBLE: ${s.compatible} compatible change(s); every recorded call and answer passes the new version`,
  );
  return `${lines.join('\n')}\n`;
}
