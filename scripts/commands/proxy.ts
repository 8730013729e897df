// `agent-registry-kit proxy --upstream <url>`: a validating proxy in front of a real server. The app points at it; every
// exchange is forwarded and checked against the spec, violations are printed, kept at /__mock/violations and, with
// --record, the exchanges are written (credentials removed) for spec-change --report and serve --from-recording.
import { cliError } from '../cli-error.ts';
import { numberFlag, parseCommandLine } from '../command-line.ts';
import { stopWithLauncher } from '../stop-with-launcher.ts';
import { MAX_CLI_INPUT_BYTES, readCappedFile } from '../../verifier-client/bounded-read.ts';
import { guardWrites } from '../../verifier-client/terminal-text.ts';

const usage =
  'usage: agent-registry-kit proxy --upstream <url> [--port <n>] [--host <addr>] [--timeout <ms>] [--fail-on-violation] [--record <file>] [--record-limit <n>] [--insecure] [--ca <file.pem>] [--allowed-host <name>]... [--control-token <secret>] [--unsafe-open-control-plane] [--help]';
const help = `${usage}

A validating proxy: point the app at it instead of the real server. Every request is forwarded (method, path, query,
headers, body, streamed) and both it and the answer are checked against spec/openapi.yaml: status documented, body and
headers valid, problem+json where the spec says so. Each violation is printed once, on one line, with its rule, JSON
Pointer and origin (seed: the service description's rule; assumption: the spec's own decision), and again at 10, 100…
repeats. See docs/proxy.md.

  --upstream <url>        the real server, http or https (required; a path prefix is kept)
  --port <n>              port to listen on; 0 picks a free one (env PORT, default 4010)
  --host <addr>           interface to bind (default 127.0.0.1)
  --timeout <ms>          time the upstream has for its whole answer, then 504 problem+json (default 30000)
  --fail-on-violation     answer 502 problem+json naming the violation instead of passing a violating answer on
  --record <file>         write every exchange, credentials removed, to this JSON file (docs/proxy.md has the format)
  --record-limit <n>      exchanges the recording keeps (default 1000; later ones are counted, not kept)
  --insecure              do not check the upstream's TLS certificate (it is checked by default)
  --ca <file.pem>         also trust these certificates for the upstream (a staging server's own CA)
  --allowed-host <name>   also accept requests whose Host is this name (repeatable; default loopback names only)
  --control-token <secret>  the control plane (/__mock/) requires it in X-Mock-Control-Token (env MOCK_CONTROL_TOKEN)
  --unsafe-open-control-plane  leave the control plane without a token on a non-loopback --host
  env API_TOKEN           a token to hide from every output even before the app first sends it

Control plane: GET /__mock/violations (grouped, counted), GET /__mock/coverage (what the app exercised of the contract;
agent-registry-kit coverage --base-url <proxy> reads it), DELETE either to start again, GET /__mock/health.

When listening, prints: agent-registry-kit: proxy listening on http://<host>:<port> → <upstream>
Exit status: 0 after SIGINT/SIGTERM, 2 on a usage mistake.`;

const flags = {
  upstream: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  timeout: { type: 'string' },
  'fail-on-violation': { type: 'boolean' },
  record: { type: 'string' },
  'record-limit': { type: 'string' },
  insecure: { type: 'boolean' },
  ca: { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'control-token': { type: 'string' },
  'unsafe-open-control-plane': { type: 'boolean' },
} as const;

/** What `proxy` was asked for, checked: one line and exit 2 for each mistake before anything starts. */
interface ProxySettings {
  upstream: string;
  port: number;
  host: string;
  timeoutMs: number;
  recordLimit: number;
  record: string | undefined;
  controlToken: string | undefined;
  ca: string | undefined;
}

function readSettings(values: ReturnType<typeof parseCommandLine<typeof flags>>): ProxySettings {
  if (values.upstream === undefined || values.upstream === '')
    cliError(`--upstream is required (the real server, e.g. https://staging.example.com); ${usage}`);
  const port = numberFlag(
    'port',
    values.port ?? process.env.PORT ?? '4010',
    { integer: true, min: 0, max: 65535 },
    usage,
  );
  const timeoutMs = numberFlag('timeout', values.timeout ?? '30000', { integer: true, min: 1 }, usage);
  const recordLimit = numberFlag(
    'record-limit',
    values['record-limit'] ?? '1000',
    { integer: true, min: 1, max: 1_000_000 },
    usage,
  );
  const host = values.host ?? '127.0.0.1';
  if (host === '') cliError('--host must not be empty');
  if (values.record === '') cliError(`--record needs a file name; ${usage}`);
  const controlToken = values['control-token'] ?? (process.env.MOCK_CONTROL_TOKEN || undefined);
  if (controlToken !== undefined && !/^\S+$/.test(controlToken))
    cliError('--control-token (or MOCK_CONTROL_TOKEN) must be a non-empty value without spaces');
  return {
    upstream: values.upstream,
    port,
    host,
    timeoutMs,
    recordLimit,
    record: values.record,
    controlToken,
    ca: values.ca === undefined ? undefined : readCa(values.ca),
  };
}

function readCa(file: string): string {
  try {
    // Capped like every file a CLI reads: `--ca /dev/zero` would otherwise take the machine's memory.
    const pem = readCappedFile(file, MAX_CLI_INPUT_BYTES);
    // Node ignores what is not a PEM certificate: the flag would then trust nothing and say nothing.
    if (!pem.includes('-----BEGIN CERTIFICATE-----'))
      cliError(`--ca ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
    return pem;
  } catch (error) {
    return cliError(
      `cannot read --ca ${file} (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
  }
}

/**
 * Entry point of the `proxy` subcommand; runs until SIGINT or SIGTERM.
 * @example await main(['--upstream', 'https://staging.example.com', '--port', '0', '--record', 'staging.json']);
 */
export async function main(args: string[]): Promise<void> {
  const values = parseCommandLine(flags, { usage, help }, args);
  const settings = readSettings(values);
  const [
    { createUpstream, UpstreamUrlError },
    { startProxyServer },
    { RecordingWriter },
    { SecretSet },
    { consoleLogger },
  ] = await Promise.all([
    import('../../proxy/upstream.ts'),
    import('../../proxy/proxy-server.ts'),
    import('../../proxy/recording.ts'),
    import('../../proxy/secrets.ts'),
    import('../../mocks/domain/logger.ts'),
  ]);
  let upstream: ReturnType<typeof createUpstream>;
  try {
    const { ca } = settings;
    upstream = createUpstream(settings.upstream, {
      insecure: values.insecure === true,
      ...(ca !== undefined && { ca }),
    });
  } catch (error) {
    if (error instanceof UpstreamUrlError) cliError(error.message);
    throw error;
  }
  const apiToken = process.env.API_TOKEN?.trim();
  const secrets = new SecretSet(apiToken ? [apiToken] : []);
  // Whatever is printed from here on (violation lines, errors on the way out) is redacted, then made terminal-safe.
  guardWrites(process.stdout, secrets.redact);
  guardWrites(process.stderr, secrets.redact);
  const { record } = settings;
  const recording =
    record === undefined
      ? undefined
      : new RecordingWriter(record, upstream.baseUrl, {
          limit: settings.recordLimit,
          onError: (error) =>
            consoleLogger.warn(
              `could not write the recording ${record}: ${error instanceof Error ? error.message : String(error)}`,
            ),
        });
  try {
    // Written once before the port opens: a directory that does not exist shows now, not at the first exchange.
    recording?.flush();
  } catch (error) {
    cliError(
      `cannot write --record ${record} (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
  }
  const running = await startProxyServer({
    upstream,
    port: settings.port,
    host: settings.host,
    timeoutMs: settings.timeoutMs,
    failOnViolation: values['fail-on-violation'] === true,
    ...(recording && { recording }),
    secrets,
    allowedHosts: values['allowed-host'] ?? [],
    ...(settings.controlToken !== undefined && { controlToken: settings.controlToken }),
    unsafeOpenControlPlane: values['unsafe-open-control-plane'] ?? false,
  }).catch((error: unknown) => cliError(error instanceof Error ? error.message : String(error)));
  if (values.insecure) consoleLogger.warn(`--insecure: the certificate of ${upstream.baseUrl} is not checked`);
  consoleLogger.info(`proxy listening on ${running.url} → ${upstream.baseUrl}`);
  consoleLogger.info(
    `console: ${running.url}/__mock/ui/ (the findings, grouped as GET /__mock/violations groups them)`,
  );
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    const summary = running.violations.summary();
    consoleLogger.info(
      summary.length === 0
        ? 'no violation seen'
        : `${summary.length} distinct violation(s) seen:\n${summary.join('\n')}`,
    );
    try {
      recording?.flush();
    } catch (error) {
      consoleLogger.error(`could not write the recording: ${error instanceof Error ? error.message : String(error)}`);
    }
    void running.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  stopWithLauncher(stop);
}

if (import.meta.main) await main(process.argv.slice(2));
