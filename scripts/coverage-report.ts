// How the coverage subcommand reads a fake's GET /__mock/coverage answer and shows it: a terminal table and one HTML page.
import {
  COVERAGE_CATEGORIES,
  type CoverageCategory,
  type CoverageEntry,
  type CoverageFigure,
  type CoverageReport,
} from '../mocks/core/steering/coverage.ts';

const CATEGORY_TITLES: Record<CoverageCategory, string> = {
  status: 'Responses (operation, status)',
  example: 'Named examples',
  prefer: 'Prefer codes',
  scenario: 'Scenario branches',
  problem: 'Problem kinds',
};

const isFigure = (value: unknown): value is CoverageFigure => {
  const figure = value as Partial<CoverageFigure> | null;
  return (
    typeof figure === 'object' &&
    figure !== null &&
    Number.isInteger(figure.covered) &&
    Number.isInteger(figure.total) &&
    typeof figure.percent === 'number'
  );
};

const isEntry = (value: unknown): value is CoverageEntry => {
  const entry = value as Partial<CoverageEntry> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    COVERAGE_CATEGORIES.includes(entry.category as CoverageCategory) &&
    (entry.operationId === null || typeof entry.operationId === 'string') &&
    typeof entry.key === 'string' &&
    Number.isInteger(entry.count) &&
    typeof entry.documented === 'boolean'
  );
};

/**
 * Checks that a body is what GET /__mock/coverage documents; returns undefined when it is not.
 * @example parseCoverageReport(await (await fetch(`${base}/__mock/coverage`)).json())?.percent
 */
export function parseCoverageReport(value: unknown): CoverageReport | undefined {
  const report = value as Partial<CoverageReport> | null;
  if (typeof report !== 'object' || report === null) return undefined;
  if (typeof report.definition !== 'string' || typeof report.percent !== 'number') return undefined;
  if (!Number.isInteger(report.requests) || !Array.isArray(report.entries) || !report.entries.every(isEntry))
    return undefined;
  const categories = report.categories as Record<string, unknown> | undefined;
  if (typeof categories !== 'object' || categories === null) return undefined;
  if (!COVERAGE_CATEGORIES.every((category) => isFigure(categories[category]))) return undefined;
  return report as CoverageReport;
}

/** The operations in the order the report lists them (the spec's). */
function operationsOf(report: CoverageReport): string[] {
  return [...new Set(report.entries.flatMap((e) => (e.operationId === null ? [] : [e.operationId])))];
}

/** Unseen documented statuses, grouped by operation: `<operationId> 401, 413; <operationId> 500`. */
function neverSeenStatuses(report: CoverageReport): string {
  return operationsOf(report)
    .map((operationId) => {
      const unseen = report.entries.filter(
        (e) => e.category === 'status' && e.operationId === operationId && e.documented && e.count === 0,
      );
      return unseen.length === 0 ? '' : `${operationId} ${unseen.map((e) => e.key).join(', ')}`;
    })
    .filter(Boolean)
    .join('; ');
}

const figureText = (figure: CoverageFigure): string =>
  `${figure.covered}/${figure.total} (${figure.percent.toFixed(1)}%)`;

const label = (entry: CoverageEntry): string => `${entry.operationId ? `${entry.operationId} ` : ''}${entry.key}`;

/**
 * The terminal table: per operation each documented status with its count (· when never seen), then the other
 * categories with what they never saw, undocumented statuses, and the headline percentage with what it counts.
 * @example process.stdout.write(formatCoverageTable(report, 'http://127.0.0.1:4010'));
 */
export function formatCoverageTable(report: CoverageReport, baseUrl: string): string {
  const lines: string[] = [`agent-registry-kit coverage: ${baseUrl}, ${report.requests} API requests counted`, ''];
  lines.push(`${CATEGORY_TITLES.status}: ${figureText(report.categories.status)}`);
  for (const operationId of operationsOf(report)) {
    const cells = report.entries
      .filter((e) => e.category === 'status' && e.operationId === operationId && e.documented)
      .map((e) => `${e.key} ${e.count > 0 ? `×${e.count}` : '·'}`.padEnd(9));
    lines.push(`  ${operationId.padEnd(18)} ${cells.join(' ').trimEnd()}`);
  }
  for (const category of COVERAGE_CATEGORIES.filter((c) => c !== 'status')) {
    const unseen = report.entries.filter((e) => e.category === category && e.documented && e.count === 0);
    lines.push(`${`${CATEGORY_TITLES[category]}:`.padEnd(30)} ${figureText(report.categories[category])}`);
    // Grouped by operation (problem kinds have none), so a long list still reads as a table.
    for (const operationId of [...new Set(unseen.map((e) => e.operationId))]) {
      const keys = unseen.filter((e) => e.operationId === operationId).map((e) => e.key);
      lines.push(`  never seen${operationId ? ` ${operationId}` : ''}: ${keys.join(', ')}`);
    }
  }
  const undocumented = report.entries.filter((e) => !e.documented);
  if (undocumented.length > 0)
    lines.push(
      `Undocumented statuses answered (a fault of the fake): ${undocumented.map((e) => `${label(e)} ×${e.count}`).join(', ')}`,
    );
  lines.push('');
  const unseen = neverSeenStatuses(report);
  lines.push(unseen === '' ? 'never seen: nothing, every documented status was answered' : `never seen: ${unseen}`);
  const status = report.categories.status;
  lines.push(
    `contract coverage ${report.percent.toFixed(1)}%: ${status.covered} of ${status.total} documented (operation, status) pairs answered at least once`,
  );
  return `${lines.join('\n')}\n`;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function bar(figure: CoverageFigure): string {
  return `<div class="bar" role="img" aria-label="${figure.percent.toFixed(1)}%"><span style="width:${figure.percent}%"></span></div>`;
}

/**
 * One self-contained HTML page (no scripts, no external assets): the headline, one bar per category, a grid of
 * operations × statuses coloured seen/unseen, and the unseen entries of every other category.
 * @example writeFileSync('coverage.html', renderCoverageHtml(report, 'http://127.0.0.1:4010', new Date()));
 */
export function renderCoverageHtml(report: CoverageReport, baseUrl: string, at: Date): string {
  const operationIds = operationsOf(report);
  const statuses = [
    ...new Set(report.entries.filter((e) => e.category === 'status' && e.documented).map((e) => Number(e.key))),
  ].sort((a, b) => a - b);
  const find = (category: CoverageCategory, operationId: string | null, key: string): CoverageEntry | undefined =>
    report.entries.find((e) => e.category === category && e.operationId === operationId && e.key === key);
  const grid = operationIds
    .map((operationId) => {
      const cells = statuses.map((status) => {
        const entry = find('status', operationId, String(status));
        if (!entry) return '<td class="na" title="not documented">–</td>';
        return entry.count > 0
          ? `<td class="seen" title="${escapeHtml(`${operationId} ${status}: answered ${entry.count} times`)}">${entry.count}</td>`
          : `<td class="unseen" title="${escapeHtml(`${operationId} ${status}: never answered`)}">never</td>`;
      });
      return `<tr><th scope="row">${escapeHtml(operationId)}</th>${cells.join('')}</tr>`;
    })
    .join('\n');
  // The grid above already shows the statuses; the other categories get a bar and their entries.
  const categories = COVERAGE_CATEGORIES.filter((c) => c !== 'status')
    .map((category) => {
      const figure = report.categories[category];
      const entries = report.entries.filter((e) => e.category === category && e.documented);
      const chips = entries
        .map(
          (e) =>
            `<li class="${e.count > 0 ? 'seen' : 'unseen'}">${escapeHtml(label(e))}${e.count > 0 ? ` <b>${e.count}</b>` : ''}</li>`,
        )
        .join('');
      return `<section><h2>${escapeHtml(CATEGORY_TITLES[category])} <small>${figure.covered} of ${figure.total}</small></h2>${bar(figure)}<ul class="chips">${chips}</ul></section>`;
    })
    .join('\n');
  const undocumented = report.entries.filter((e) => !e.documented);
  const unseen = neverSeenStatuses(report);
  const headline = report.percent;
  const tone = headline >= 80 ? 'good' : headline >= 50 ? 'fair' : 'poor';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Contract coverage ${headline.toFixed(1)}% · ${escapeHtml(baseUrl)}</title>
<style>
  :root { --seen: #1a7f37; --seen-bg: #dafbe1; --unseen: #a40e26; --unseen-bg: #ffebe9; --ink: #1f2328; --muted: #656d76; }
  * { box-sizing: border-box; }
  body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 0; background: #f6f8fa; }
  main { max-width: 1040px; margin: 0 auto; padding: 28px 24px 48px; }
  header { display: flex; gap: 28px; align-items: center; background: #fff; border: 1px solid #d0d7de; border-radius: 10px; padding: 20px 24px; }
  .headline { font-size: 52px; font-weight: 700; letter-spacing: -1px; }
  .headline.good { color: var(--seen); } .headline.fair { color: #9a6700; } .headline.poor { color: var(--unseen); }
  header p { margin: 4px 0; color: var(--muted); }
  header strong { color: var(--ink); }
  h1 { font-size: 20px; margin: 0 0 4px; }
  h2 { font-size: 16px; margin: 0 0 8px; } h2 small { color: var(--muted); font-weight: 400; }
  section, .card { background: #fff; border: 1px solid #d0d7de; border-radius: 10px; padding: 16px 20px; margin-top: 16px; }
  table { border-collapse: separate; border-spacing: 4px; }
  th { text-align: left; font-weight: 600; padding: 4px 10px 4px 0; }
  thead th { text-align: center; color: var(--muted); font-weight: 500; }
  td { text-align: center; min-width: 58px; padding: 6px 8px; border-radius: 6px; font-variant-numeric: tabular-nums; }
  td.seen { background: var(--seen-bg); color: var(--seen); font-weight: 600; }
  td.unseen { background: var(--unseen-bg); color: var(--unseen); font-size: 12px; }
  td.na { color: #afb8c1; }
  .bar { height: 8px; background: var(--unseen-bg); border-radius: 4px; overflow: hidden; margin-bottom: 10px; }
  .bar span { display: block; height: 100%; background: var(--seen); }
  .chips { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 6px; }
  .chips li { font-size: 12.5px; padding: 2px 8px; border-radius: 999px; }
  .chips li.seen { background: var(--seen-bg); color: var(--seen); }
  .chips li.unseen { background: var(--unseen-bg); color: var(--unseen); }
  .never { color: var(--unseen); }
  .warn { border-color: var(--unseen); }
  footer { color: var(--muted); font-size: 13px; margin-top: 16px; }
</style>
</head>
<body>
<main>
<header>
  <div class="headline ${tone}">${headline.toFixed(1)}%</div>
  <div>
    <h1>Contract coverage of the fake backend</h1>
    <p><strong>${report.categories.status.covered} of ${report.categories.status.total}</strong> documented (operation, status) pairs answered at least once, over <strong>${report.requests}</strong> API requests.</p>
    <p>${escapeHtml(baseUrl)} · ${escapeHtml(at.toISOString())}</p>
  </div>
</header>
<div class="card">
  <h2>Responses: operation × documented status</h2>
  <table>
    <thead><tr><th></th>${statuses.map((s) => `<th scope="col">${s}</th>`).join('')}</tr></thead>
    <tbody>
${grid}
    </tbody>
  </table>
  <p class="never">${unseen === '' ? 'Every documented status was answered.' : `Never seen: ${escapeHtml(unseen)}`}</p>
</div>
${undocumented.length > 0 ? `<div class="card warn"><h2>Undocumented statuses answered</h2><p>${undocumented.map((e) => `${escapeHtml(label(e))} ×${e.count}`).join(', ')}</p></div>` : ''}
${categories}
<footer>${escapeHtml(report.definition)}. Generated by agent-registry-kit coverage.</footer>
</main>
</body>
</html>
`;
}
