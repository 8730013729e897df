// `agent-registry-kit pact verify --pact FILE`: every interaction of a pact checked against spec/openapi.yaml with the
// spec's own request and response checkers; one screen, exit 1 on an incompatibility, --json and --junit for CI.
import { closeSync, openSync, writeSync } from 'node:fs';
import { MAX_CLI_INPUT_BYTES, readCappedFile } from '../../verifier-client/bounded-read.ts';
import { guardWrites } from '../../verifier-client/terminal-text.ts';
import { PactFileError, parsePact, type Pact } from '../../pact/pact-file.ts';
import { pactJUnitParts } from '../../pact/pact-junit.ts';
import { formatPactReport, pactReportJson, verifyPact } from '../../pact/pact-report.ts';
import type { Redact } from '../../verifier-client/redaction.ts';
import { pactRedactor } from '../../pact/pact-secrets.ts';
import { cliError } from '../cli-error.ts';
import { parseCommandLine } from '../command-line.ts';

const usage = 'usage: agent-registry-kit pact verify --pact <file> [--seed-only] [--json <file>] [--junit <file>]';

const help = `Usage: agent-registry-kit pact verify --pact <file> [options]

Checks every HTTP interaction of a Pact file (specification 2, 3 or 4, as pact-js writes them) against
spec/openapi.yaml with the spec's own request and response checkers: the operation, path parameters, the request
body and its Content-Type, the credential's form, the status, the response's Content-Type, headers and body. Read as
Pact means it: a response states what the consumer relies on, so a field it leaves out is no claim, and a field the
spec does not have is one the provider never promised. A value under a matcher is an example, checked like any value;
a regex matcher over an enum must accept only the enum's values. Each finding names the interaction (description and
provider states), the JSON Pointer, the rule and whether the rule is the service description's (seed) or a decision
of the spec (assumption). Exit status 1 when the pact is incompatible, 0 when compatible, 2 on a mistake.

Options:
  --pact <file>   the pact (JSON, at most 16 MiB)
  --seed-only     findings of rules that are assumptions of the spec are warnings, not failures
  --json <file>   write every interaction and finding as JSON
  --junit <file>  write a JUnit XML report (one testcase per interaction, for CI)
  -h, --help      show this help

Credentials the pact holds (an Authorization header) are never printed or written: every output is redacted.
`;

function readPact(file: string): Pact {
  let text: string;
  try {
    text = readCappedFile(file, MAX_CLI_INPUT_BYTES);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    cliError(`cannot read the pact ${file} (${message})`);
  }
  try {
    return parsePact(text);
  } catch (error) {
    if (error instanceof PactFileError) cliError(`${file} is not a Pact file: ${error.message}`);
    throw error;
  }
}

/** A report written in parts, each through the redactor, never as one string (a pact's report grows with the pact). */
function writeParts(file: string, parts: Iterable<string>, redact: Redact): void {
  const fd = openSync(file, 'w');
  try {
    let pending = '';
    for (const part of parts) {
      pending += redact(part);
      if (pending.length < 2 ** 20) continue;
      writeSync(fd, pending);
      pending = '';
    }
    writeSync(fd, pending);
  } finally {
    closeSync(fd);
  }
}

/**
 * Entry point of `pact verify`.
 * @example await main(['--pact', 'pacts/web-agent-registry.json', '--junit', 'pact.xml']);
 */
export async function main(args: string[]): Promise<void> {
  const values = parseCommandLine(
    {
      pact: { type: 'string' },
      'seed-only': { type: 'boolean' },
      json: { type: 'string' },
      junit: { type: 'string' },
    },
    { usage, help },
    args,
  );
  if (values.pact === undefined || values.pact === '') cliError(`--pact is required; ${usage}`);
  for (const flag of ['json', 'junit'] as const)
    if (values[flag] === '') cliError(`--${flag} needs a file name; ${usage}`);
  const pact = readPact(values.pact);
  const redact = pactRedactor(pact);
  // Whatever is printed from here on, the pact's credentials included, goes through the redactor.
  guardWrites(process.stdout, redact);
  guardWrites(process.stderr, redact);
  const report = verifyPact(pact, { file: values.pact, seedOnly: values['seed-only'] === true, redact });
  try {
    if (values.json !== undefined) writeParts(values.json, pactReportJson(report), redact);
    if (values.junit !== undefined)
      writeParts(
        values.junit,
        (function* () {
          for (const line of pactJUnitParts(report)) yield `${line}\n`;
        })(),
        redact,
      );
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    cliError(`cannot write the report (${message})`);
  }
  process.stdout.write(formatPactReport(report));
  process.exitCode = report.verdict === 'incompatible' ? 1 : 0;
}
