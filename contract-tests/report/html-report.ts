// `contract --html FILE`: the run's report as one self-contained HTML file a CI artifact can carry and a browser open
// from disk: the console's report script (dist/console/report.js, built from console/report/) and style sheet inlined,
// the report itself as JSON data beside them. A CSP allows exactly those two inline texts, so nothing a server sent
// (the exchanges hold its bytes) can run or load anything, even if it slipped past the page's rendering as text.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContractReport } from './contract-report.ts';

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The built console files the report inlines, from the kit's package root (a clone after `npm run build`, or installed). */
function builtAsset(name: string): string {
  const root = dirname(fileURLToPath(import.meta.resolve('agent-registry-kit/package.json')));
  const file = join(root, 'dist', 'console', name);
  if (!existsSync(file)) throw new Error(`the HTML report needs ${file}: run \`npm run build\``);
  return readFileSync(file, 'utf8');
}

/**
 * JSON that is safe inside a `<script type="application/json">`: `<` is written as its escape, so no `</script>` or
 * `<!--` a server put in a body can end the element.
 */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value).replaceAll('<', '\\u003c').replaceAll('\u2028', '\\u2028').replaceAll('\u2029', '\\u2029');

/**
 * The whole HTML page of a report; `redact` is the run's redactor (the token in no form).
 * @example const page = htmlReport(report, redact);
 */
function htmlReport(report: ContractReport, redact: (text: string) => string): string {
  const script = builtAsset('report.js');
  const style = builtAsset('console.css');
  const data = redact(scriptJson(report));
  const policy = `default-src 'none'; script-src ${sha256(script)}; style-src ${sha256(style)}; img-src data:; base-uri 'none'; form-action 'none'`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Contract report: ${report.verdict}</title>`,
    `<style>${style}</style>`,
    '</head>',
    '<body>',
    `<div id="report"><p>Contract report: ${report.verdict}. The details need JavaScript.</p></div>`,
    `<script type="application/json" id="report-data">${data}</script>`,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * Writes the HTML report of a run to `file`.
 * @example writeHtmlReport('report.html', report, redact);
 */
export function writeHtmlReport(file: string, report: ContractReport, redact: (text: string) => string): void {
  writeFileSync(file, htmlReport(report, redact));
}
