// The report of a differential run: the JSON written by --json, the verdict behind the exit status, and the terminal
// text that shows each divergence with both exchanges side by side and the spec rule involved.
import { operations, type OperationId } from '../spec/index.ts';
import type { RecordedExchange } from '../verifier-client/check-record.ts';
import type { DiffResult, StepResult } from './diff-run.ts';
import type { Divergence } from './step-comparison.ts';
import { valueAt, valueRules, type ValueRule } from './response-shape.ts';

export interface DiffReport {
  tool: 'agent-registry-kit diff';
  fake: string;
  real: string;
  seed: number;
  readOnly: boolean;
  maxWrites: number;
  startedAt: string;
  durationMs: number;
  /**
   * `agree` only when no step diverged, none was left out by --max-writes and none was left unresolved;
   * `inconclusive` when nothing diverged but steps could not be compared (a deploy both servers refused).
   */
  verdict: 'agree' | 'diverged' | 'inconclusive';
  summary: {
    steps: number;
    compared: number;
    diverged: number;
    divergences: number;
    skipped: number;
    skippedByCap: number;
    /** Steps whose agent could not be deployed on one server or both. */
    unresolved: number;
    sharedFailures: number;
    /** Invariant checks made on each server's own answers (each rule at each step). */
    invariantsChecked: { fake: number; real: number };
    posts: { fake: number; real: number };
  };
  /** Per documented success answer: which values were compared across the servers and why the others were not. */
  valueRules: Array<ValueRule & { operationId: string; status: number }>;
  steps: StepResult[];
  sharedFailures: DiffResult['sharedFailures'];
  sameUnexpectedStatus: DiffResult['sameUnexpectedStatus'];
}

/**
 * Builds the report of a run.
 * @example buildDiffReport(result, { fake, real, seed, readOnly: false, maxWrites: 200, startedAt, durationMs }).verdict
 */
export function buildDiffReport(
  result: DiffResult,
  run: {
    fake: string;
    real: string;
    seed: number;
    readOnly: boolean;
    maxWrites: number;
    startedAt: Date;
    durationMs: number;
  },
): DiffReport {
  const count = (predicate: (step: StepResult) => boolean): number => result.steps.filter(predicate).length;
  const skippedByCap = count((s) => s.skipReason === 'max-writes');
  const unresolved = count((s) => s.outcome === 'unresolved');
  const rules: DiffReport['valueRules'] = [];
  for (const [operationId, operation] of operations)
    for (const status of operation.responses.keys())
      if (status < 300)
        for (const rule of valueRules(operationId as OperationId, status)) rules.push({ operationId, status, ...rule });
  return {
    tool: 'agent-registry-kit diff',
    fake: run.fake,
    real: run.real,
    seed: run.seed,
    readOnly: run.readOnly,
    maxWrites: run.maxWrites,
    startedAt: run.startedAt.toISOString(),
    durationMs: run.durationMs,
    verdict: result.divergences.length > 0 ? 'diverged' : skippedByCap > 0 || unresolved > 0 ? 'inconclusive' : 'agree',
    summary: {
      steps: result.steps.length,
      compared: count((s) => s.outcome === 'agree' || s.outcome === 'diverged'),
      diverged: count((s) => s.outcome === 'diverged'),
      divergences: result.divergences.length,
      skipped: count((s) => s.outcome === 'skipped' || s.outcome === 'unresolved'),
      skippedByCap,
      unresolved,
      sharedFailures: result.sharedFailures.length,
      invariantsChecked: { fake: result.invariants.fake.length, real: result.invariants.real.length },
      posts: result.posts,
    },
    valueRules: rules,
    steps: result.steps,
    sharedFailures: result.sharedFailures,
    sameUnexpectedStatus: result.sameUnexpectedStatus,
  };
}

function exchangeLines(exchange: RecordedExchange | undefined, pointers: string[]): string[] {
  if (!exchange) return ['(not sent)'];
  const lines = [`${exchange.request.method} ${new URL(exchange.request.url).pathname.slice(0, 60)}`];
  if (exchange.request.headers.authorization) lines.push(`authorization: ${exchange.request.headers.authorization}`);
  if (!exchange.response) return [...lines, `→ no answer: ${exchange.error ?? ''}`];
  lines.push(`→ ${exchange.response.status} ${exchange.response.headers['content-type'] ?? '(no Content-Type)'}`);
  const header = pointers.find((pointer) => pointer.startsWith('/headers/'));
  if (header)
    lines.push(`${header.slice('/headers/'.length)}: ${exchange.response.headers[header.slice(9)] ?? '(absent)'}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(exchange.response.body);
  } catch {
    return [...lines, ...exchange.response.body.split('\n').slice(0, 6)];
  }
  // The diverging fields first, so they sit side by side whatever the bodies' lengths; then the start of the body.
  for (const pointer of pointers.filter((p) => p !== '' && !p.startsWith('/headers/'))) {
    const value = valueAt(parsed, pointer);
    lines.push(`${pointer} = ${value === undefined ? '(absent)' : JSON.stringify(value)}`);
  }
  const bodyLines = JSON.stringify(parsed, null, 1).split('\n');
  lines.push(...bodyLines.slice(0, 10));
  if (bodyLines.length > 10) lines.push(`… ${bodyLines.length - 10} more lines (--json has the whole body)`);
  return lines;
}

function cut(text: string, width: number): string {
  const chars = [...text];
  return chars.length > width ? `${chars.slice(0, width - 1).join('')}…` : text + ' '.repeat(width - chars.length);
}

/**
 * Two exchanges as two columns, fake on the left and real on the right.
 * @example sideBySide(step.fake, step.real, 120)
 */
function sideBySide(
  fake: RecordedExchange | undefined,
  real: RecordedExchange | undefined,
  width = 120,
  pointers: string[] = [],
): string {
  const column = Math.floor((width - 7) / 2);
  const left = exchangeLines(fake, pointers);
  const right = exchangeLines(real, pointers);
  const lines = [`    ${cut('fake', column)} │ real`, `    ${'─'.repeat(column)}─┼─${'─'.repeat(column)}`];
  for (let index = 0; index < Math.max(left.length, right.length); index += 1)
    lines.push(`    ${cut(left[index] ?? '', column)} │ ${cut(right[index] ?? '', column).trimEnd()}`);
  return lines.join('\n');
}

function describeDivergence(d: Divergence): string[] {
  const spec =
    d.followsSpec === 'both'
      ? 'both follow the spec'
      : d.followsSpec === 'neither'
        ? 'neither follows the spec'
        : d.followsSpec === 'unknown'
          ? ''
          : `the ${d.followsSpec === 'fake' ? 'fake' : 'real server'} follows the spec`;
  return [
    `  ✗ ${d.kind}${d.pointer ? ` ${d.pointer}` : ''}: ${d.message}${spec ? `; ${spec}` : ''}`,
    `      spec rule: ${d.rule.specPointer || '(the whole API)'} (${d.rule.origin})${d.rule.text ? `: ${d.rule.text}` : ''}`,
  ];
}

/**
 * The terminal report: one line per step family, then every diverging step with its divergences and both exchanges.
 * @example process.stdout.write(formatDiffReport(report));
 */
export function formatDiffReport(report: DiffReport, width = 120): string {
  const lines: string[] = [];
  const families = new Map<string, StepResult[]>();
  for (const step of report.steps) {
    const family = step.id.split('/')[0] ?? step.id;
    families.set(family, [...(families.get(family) ?? []), step]);
  }
  for (const [family, steps] of families) {
    const compared = steps.filter((s) => s.outcome === 'agree' || s.outcome === 'diverged');
    const diverged = steps.filter((s) => s.outcome === 'diverged');
    const mark = diverged.length > 0 ? '✗' : compared.length === steps.length ? '✓' : '~';
    const skipped = steps.length - compared.length;
    lines.push(
      `${mark} ${family.padEnd(17)} ${compared.length - diverged.length}/${steps.length} agree${diverged.length > 0 ? `, ${diverged.length} diverge` : ''}${skipped > 0 ? `, ${skipped} not compared` : ''}`,
    );
  }
  // Steps that diverge the same way (same kinds, fields and values) are shown once, the others named after it.
  const blocks = new Map<string, { lines: string[]; others: string[] }>();
  const signature = (step: StepResult): string =>
    step.divergences.map((d) => `${d.kind} ${d.pointer} ${d.message.replace(/agt_\w+|tsk_\w+/g, '')}`).join('\n');
  for (const step of report.steps) {
    if (step.outcome !== 'diverged') continue;
    const block = blocks.get(signature(step));
    if (block) {
      block.others.push(step.id);
      continue;
    }
    const blockLines = ['', `✗ ${step.id}: ${step.title} (the spec says ${step.expectedStatus})`];
    for (const divergence of step.divergences) blockLines.push(...describeDivergence(divergence));
    blockLines.push(sideBySide(step.fake, step.real, width, [...new Set(step.divergences.map((d) => d.pointer))]));
    blocks.set(signature(step), { lines: blockLines, others: [] });
  }
  for (const { lines: blockLines, others } of blocks.values()) {
    lines.push(...blockLines);
    if (others.length > 0)
      lines.push(
        `    ↳ the same divergence in ${others.length} more step(s): ${others.slice(0, 8).join(', ')}${others.length > 8 ? ', …' : ''}`,
      );
  }
  const skipped = report.steps.filter((s) => s.skipReason !== undefined);
  if (skipped.length > 0) {
    lines.push('');
    const why = {
      'max-writes': 'left out by --max-writes (does not count as agreement)',
      'read-only': '--read-only',
      'no-agent': 'the deploy it needs failed on a server',
    };
    for (const reason of ['max-writes', 'read-only', 'no-agent'] as const) {
      const of = skipped.filter((s) => s.skipReason === reason);
      if (of.length > 0)
        lines.push(
          `↷ ${of.length} step(s) not compared, ${why[reason]}: ${of
            .slice(0, 6)
            .map((s) => s.id)
            .join(', ')}${of.length > 6 ? ', …' : ''}`,
        );
    }
  }
  if (report.sharedFailures.length > 0) {
    lines.push('', `! both servers break ${report.sharedFailures.length} rule(s) alike (not a divergence):`);
    for (const failure of report.sharedFailures.slice(0, 5))
      lines.push(
        `    ${failure.step} ${failure.pointer}: ${failure.description} (${failure.origin}, ${failure.specPointer})`,
      );
  }
  if (report.sameUnexpectedStatus.length > 0) {
    lines.push(
      '',
      `! both servers answer ${report.sameUnexpectedStatus.length} step(s) alike, but not as the spec says:`,
    );
    for (const same of report.sameUnexpectedStatus.slice(0, 5))
      lines.push(`    ${same.step}: both ${same.status}, the spec says ${same.expected}`);
    if (report.sameUnexpectedStatus.some((same) => same.status === 401 && same.expected !== 401))
      lines.push('    (401 where the spec expects a success: are FAKE_TOKEN / REAL_TOKEN tokens each server accepts?)');
  }
  const ignored = report.valueRules.filter((r) => !r.compared).map((r) => `${r.operationId} ${r.pointer}`);
  lines.push(
    '',
    `values compared across servers: those the spec pins (enum, const) and echoes of the request; each server's own (${ignored.length}): ${ignored.slice(0, 6).join(', ')}${ignored.length > 6 ? ', …' : ''} (see --json valueRules)`,
  );
  const s = report.summary;
  lines.push(
    `${report.verdict.toUpperCase()}: ${s.compared} of ${s.steps} steps compared, ${s.diverged} diverged (${s.divergences} divergence(s)), ${s.skipped} not compared; invariants checked: fake ${s.invariantsChecked.fake}, real ${s.invariantsChecked.real}${s.skippedByCap > 0 ? ` (${s.skippedByCap} by --max-writes)` : ''}; POSTs: fake ${s.posts.fake}, real ${s.posts.real}; ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  return `${lines.join('\n')}\n`;
}
