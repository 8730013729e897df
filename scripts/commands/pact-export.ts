// `agent-registry-kit pact export`: the Pact file of what a running fake (serve, a Playwright webServer) answered the
// app, read from GET /__mock/pact and written to a file, byte for byte what `api.writePact` writes in process.
import { cliError, runCommand } from '../cli-error.ts';
import { fakeCommandLine, readControlPlane, timeoutFlag } from '../control-plane-read.ts';
import { pactText } from '../../mocks/pact-export/pact-document.ts';
import {
  PactConflictError,
  PactFileError,
  writePactFile,
  type WrittenPactFile,
} from '../../mocks/pact-export/pact-file.ts';

/** A pact holds a few hundred interactions at most; more than this is not the fake. */
const maxPactBytes = 32 * 1024 * 1024;

const usage =
  'usage: agent-registry-kit pact export --base-url <url> --consumer <name> --provider <name> --out <file> [--pact-version 3|4] [--timeout <ms>]';
const help = `${usage}

Reads GET <url>/__mock/pact from a running fake (agent-registry-kit serve) and writes the Pact file of what the app
made it answer: one interaction per operation, answered status and provider state, with matchers from the spec.
Every session (X-Mock-Session, the Playwright fixture's) adds to the same pact; resets do not clear it.

  --base-url <url>      the fake, e.g. http://127.0.0.1:4010 (required)
  --consumer <name>     the app's name in the pact (required)
  --provider <name>     the API's name in the pact, as its verification and the broker know it (required)
  --out <file>          where to write the pact (required; its folder is created); a pact it holds for the
                        same consumer and provider is merged with this one, not replaced
  --pact-version 3|4    Pact specification (default 4)
  --timeout <ms>        how long to wait for the fake (default 5000)

Environment:
  MOCK_CONTROL_TOKEN  the fake's --control-token, sent as X-Mock-Control-Token (never printed)

The bearer token is never written: the Authorization header is a matcher. Verify the pact against the fake itself
with Pact's verifier and providerStatesSetupUrl <url>/__mock/provider-states.

Exit status: 0, 1 when the fake answered no request of the app (nothing written) or when the file holds an
interaction the fake answered differently (the file's kept, the rest written), 2 on a usage mistake, a file that
cannot be written (a folder, no permission, too long a name, another consumer's pact) or a fake that cannot be read.`;

const nameFlag = (flag: string, value: string | undefined): string => {
  if (value === undefined) cliError(`--${flag} is required; ${usage}`);
  if (value.trim() === '' || value.length > 256) cliError(`--${flag} must be a name of 1 to 256 characters`);
  return value;
};

/**
 * Runs `pact export`.
 * @example await main(['--base-url', 'http://127.0.0.1:4010', '--consumer', 'web', '--provider', 'api', '--out', 'pacts/web-api.json']);
 */
export async function main(args: string[]): Promise<void> {
  const { values, baseUrl } = fakeCommandLine(
    {
      consumer: { type: 'string' },
      provider: { type: 'string' },
      out: { type: 'string' },
      'pact-version': { type: 'string' },
    },
    { usage, help },
    args,
  );
  const consumer = nameFlag('consumer', values.consumer);
  const provider = nameFlag('provider', values.provider);
  const out = values.out;
  if (out === undefined || out === '') cliError(`--out is required (the pact file to write); ${usage}`);
  const version = values['pact-version'] ?? '4';
  if (version !== '3' && version !== '4') cliError(`--pact-version must be 3 or 4, got "${version}"`);
  const timeoutMs = timeoutFlag(values.timeout);

  const query = new URLSearchParams({ consumer, provider, version });
  const pact = await readControlPlane(baseUrl, `/__mock/pact?${query}`, {
    timeoutMs,
    maxBytes: maxPactBytes,
  });
  const interactions = (pact as { interactions?: unknown } | null)?.interactions;
  if (!Array.isArray(interactions))
    cliError(
      `${baseUrl}/__mock/pact did not answer a pact; is ${baseUrl} the kit's fake backend (agent-registry-kit serve)?`,
    );
  if (interactions.length === 0) {
    process.stderr.write(
      `agent-registry-kit: ${baseUrl} answered no request of the app yet (or DELETE /__mock/pact cleared them); nothing written\n`,
    );
    process.exitCode = 1;
    return;
  }
  let written: WrittenPactFile;
  try {
    written = await writePactFile(out, pactText(pact as Parameters<typeof pactText>[0]));
  } catch (error) {
    if (error instanceof PactFileError) cliError(error.message);
    if (!(error instanceof PactConflictError)) throw error;
    process.stderr.write(`agent-registry-kit: ${error.message}\n`);
    process.exitCode = 1;
    return;
  }
  const merged = written.interactions === interactions.length ? '' : ` (${written.interactions} in the file)`;
  process.stdout.write(`wrote ${interactions.length} interaction(s), Pact V${version}, to ${out}${merged}\n`);
}

if (import.meta.main) await runCommand(main, process.argv.slice(2));
