// `agent-registry-kit spec-change`: classifies what changed between a base version of spec/openapi.yaml and the current
// one, and replays recorded traffic (base examples, a fake's journal, a contract report) through the new version.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cliError, runCommand } from '../cli-error.ts';
import { parseCommandLine } from '../command-line.ts';
import { requirePeers } from '../optional-peers.ts';
import { fakeBaseUrl, streamControlPlane } from '../control-plane-read.ts';
import { guardWrites } from '../../verifier-client/terminal-text.ts';
import type { JsonObject } from '../../spec/index.ts';
import { classifyChanges } from '../../spec-change/change-classifier.ts';
import { buildSpecChangeReport, formatSpecChangeReport } from '../../spec-change/spec-change-report.ts';
import { loadSpecVersion, SpecVersionError } from '../../spec-change/spec-versions.ts';
import { streamJournal, streamReportFile } from '../../spec-change/evidence-stream.ts';
import { examplesOf } from '../../spec-change/example-evidence.ts';
import { EvidenceError, Replayer, type ReplayResult } from '../../spec-change/traffic-replay.ts';

// The package's own export, so the same line finds spec/openapi.yaml in a clone and in an installed package (whose
// compiled code sits in dist/, beside no copy of the spec).
const currentSpec = fileURLToPath(import.meta.resolve('agent-registry-kit/openapi.yaml'));

const help = `Usage: agent-registry-kit spec-change --base <file or git ref> [options]   (npm run spec-change -- …)

Compares a base version of the spec with the current one (or --head): every change, classified as breaking for
clients, breaking for servers, or compatible, with its JSON Pointer. Then replays recorded evidence through the new
version's validators: every example of the base version, every request in a running fake's journal, every exchange of
a contract run's --json report or of a proxy's recording (proxy --record); each request or answer the base version accepted and the new one rejects is listed.
Exit status 1 when anything breaks, 0 otherwise.

Options:
  --base <file|ref>   the base version: a YAML or JSON file, or a git ref (read with git show <ref>:spec/openapi.yaml)
  --head <file>       the new version (default: ${currentSpec})
  --journal <url>     a running fake's base URL; its GET /__mock/journal is replayed (repeatable)
  --report <file>     a contract run's --json report, or a recording of proxy --record; its exchanges are replayed
                      (repeatable)
  --json <file>       write every change and every replay finding as JSON (the first 10,000 findings; all are counted)

Journals, reports and recordings of any size are read as a stream, entry by entry (one entry at most 16 MiB).

Environment:
  MOCK_CONTROL_TOKEN  the fake's --control-token, sent as X-Mock-Control-Token with --journal (never printed)
  -h, --help          show this help
`;

const usage =
  'usage: agent-registry-kit spec-change --base <file or git ref> [--head <file>] [--journal <url>] [--report <file>] [--json <file>]';

/**
 * Replays every source into one Replayer, each streamed entry by entry: no source is ever held whole, so a journal or a
 * report of any size is replayed in bounded memory. A source that is not what it should be is one line and exit 2.
 */
async function replayAll(
  base: JsonObject,
  head: JsonObject,
  values: { journal?: string[]; report?: string[] },
  sources: string[],
): Promise<ReplayResult> {
  const replayer = new Replayer(base, head);
  const add = replayer.add.bind(replayer);
  for (const example of examplesOf(base)) add(example);
  for (const url of values.journal ?? []) {
    const baseUrl = fakeBaseUrl('--journal', url);
    const body = await streamControlPlane(baseUrl, '/__mock/journal', { timeoutMs: 10_000 });
    try {
      await streamJournal(body, base, add);
    } catch (error) {
      if (error instanceof EvidenceError) cliError(`GET ${baseUrl}/__mock/journal: ${error.message}`);
      throw error;
    }
    sources.push(`journal of ${baseUrl}`);
  }
  for (const file of values.report ?? []) {
    try {
      streamReportFile(file, base, add);
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      // EvidenceError and fs errors (missing file, a directory) alike: the user's file, named, in one line.
      if (error instanceof EvidenceError || (error instanceof Error && 'code' in error))
        cliError(`cannot read the report ${file} (${message})`);
      throw error;
    }
    sources.push(`contract report ${file}`);
  }
  return replayer.result();
}

/**
 * Entry point of the `spec-change` subcommand.
 * @example await main(['--base', 'main', '--journal', 'http://127.0.0.1:4010', '--json', 'spec-change.json']);
 */
export async function main(args: string[]): Promise<void> {
  // Server text (bodies, names, paths) reaches stdout and stderr: never with its control characters raw.
  guardWrites(process.stdout);
  guardWrites(process.stderr);
  const values = parseCommandLine(
    {
      base: { type: 'string' },
      head: { type: 'string' },
      journal: { type: 'string', multiple: true },
      report: { type: 'string', multiple: true },
      json: { type: 'string' },
    },
    { usage, help },
    args,
  );
  if (values.base === undefined || values.base === '') cliError(`--base is required; ${usage}`);
  // Another version of the spec has no generated validators: ajv compiles them, an optional peer of the kit.
  requirePeers('spec-change', ['ajv', 'ajv-formats']);
  let base: Awaited<ReturnType<typeof loadSpecVersion>>;
  let head: Awaited<ReturnType<typeof loadSpecVersion>>;
  try {
    base = await loadSpecVersion(values.base);
    head = await loadSpecVersion(values.head ?? currentSpec);
  } catch (error) {
    if (error instanceof SpecVersionError) cliError(error.message);
    throw error;
  }
  if (values.head === undefined) head.label = 'spec/openapi.yaml';
  const sources = ['examples of the base version'];
  const replayed = await replayAll(base.document, head.document, values, sources);
  const report = buildSpecChangeReport({
    base: base.label,
    head: head.label,
    changes: classifyChanges(base.document, head.document),
    replay: replayed,
    sources,
  });
  process.stdout.write(formatSpecChangeReport(report));
  if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  process.exitCode = report.verdict === 'breaking' ? 1 : 0;
}

if (import.meta.main) await runCommand(main, process.argv.slice(2));
