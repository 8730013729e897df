// `agent-registry-kit coverage` (npm run coverage): what a running fake answered of the contract, as a table, JSON or HTML.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cliError, runCommand } from '../cli-error.ts';
import { fakeCommandLine, readControlPlane, timeoutFlag } from '../control-plane-read.ts';
import { formatCoverageTable, parseCoverageReport, renderCoverageHtml } from '../coverage-report.ts';

/** A coverage report is a few hundred entries; more than this is not the fake. */
const maxCoverageBytes = 16 * 1024 * 1024;

const usage =
  'usage: agent-registry-kit coverage --base-url <url> [--min <percent>] [--json <file>] [--html <file>] [--timeout <ms>]';
const help = `${usage}

Reads GET <url>/__mock/coverage from a running fake (npm start) and prints what the frontend's tests or a browser
session made it answer, and what they never did.

  --base-url <url>   the fake, e.g. http://127.0.0.1:4010 (required)
  --min <percent>    exit 1 when contract coverage is below this, 0..100 (for CI)
  --json <file>      write the fake's coverage report as JSON
  --html <file>      write a one-page HTML report
  --timeout <ms>     how long to wait for the fake (default 5000)

Environment:
  MOCK_CONTROL_TOKEN  the fake's --control-token, sent as X-Mock-Control-Token (never printed)

Contract coverage = documented (operation, response status) pairs of spec/openapi.yaml the fake answered at least once,
divided by all documented pairs. Named examples, Prefer codes, scenario branches and problem kinds are shown beside it
and do not count towards it. Counts add up until DELETE /__mock/coverage; POST /__mock/reset keeps them.

Exit status: 0, or 1 below --min, or 2 on a usage mistake or when the fake cannot be read.`;

/**
 * Runs the coverage subcommand.
 * @example await main(['--base-url', 'http://127.0.0.1:4010', '--min', '80']);
 */
export async function main(args: string[]): Promise<void> {
  const { values, baseUrl } = fakeCommandLine(
    { min: { type: 'string' }, json: { type: 'string' }, html: { type: 'string' } },
    { usage, help },
    args,
  );
  let min: number | undefined;
  if (values.min !== undefined) {
    min = Number(values.min);
    if (values.min.trim() === '' || !Number.isFinite(min) || min < 0 || min > 100)
      cliError(`--min must be a percentage from 0 to 100, got "${values.min}"`);
  }
  const timeoutMs = timeoutFlag(values.timeout);

  const url = `${baseUrl}/__mock/coverage`;
  const body = await readControlPlane(baseUrl, '/__mock/coverage', {
    timeoutMs,
    maxBytes: maxCoverageBytes,
  });
  const report = parseCoverageReport(body);
  if (!report) cliError(`${url} did not answer a coverage report; is ${baseUrl} the kit's fake backend (npm start)?`);

  process.stdout.write(formatCoverageTable(report, baseUrl));
  if (values.json !== undefined) writeFileSync(resolve(values.json), `${JSON.stringify(report, null, 2)}\n`);
  if (values.html !== undefined) writeFileSync(resolve(values.html), renderCoverageHtml(report, baseUrl, new Date()));
  if (min !== undefined && report.percent < min) {
    process.stderr.write(
      `agent-registry-kit: contract coverage ${report.percent.toFixed(1)}% is below --min ${min}%\n`,
    );
    process.exitCode = 1;
  }
}

if (import.meta.main) await runCommand(main, process.argv.slice(2));
