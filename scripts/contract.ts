// `agent-registry-kit contract` (and `npm run contract`): checks the server at API_BASE_URL against spec/openapi.yaml by
// running the contract suite (contract-tests/) with vitest, then prints a verdict grouped by operation and writes the
// JUnit and JSON reports asked for.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';
import { cliError } from './cli-error.ts';
import { parseCommandLine } from './command-line.ts';
import { defaultMaxWrites, generatedProperties, planRun, shrinkAllowance } from '../contract-tests/check-plan.ts';
import { ContractReporter } from '../contract-tests/contract-reporter.ts';
import { createRedactor, type Redact } from '../client/redaction.ts';
import {
  defaultRunOptions,
  normalizeToken,
  parseBaseUrl,
  RunOptionError,
  type RunOptions,
} from '../contract-tests/run-options.ts';
import { statusCoverageSection } from '../contract-tests/status-coverage.ts';

const help = `Usage: agent-registry-kit contract [options]   (in a clone: npm run contract -- [options])

Checks a live Agent Registry server against spec/openapi.yaml: conformance of every response, auth, request
validation, behaviour across calls, repeated requests and generated cases. Exit status 0 if and only if every
check passed.

Environment:
  API_BASE_URL        the server's {base_url}, without /v1 (required), e.g. https://api.example.com; no
                      user:password@, query or fragment; plain http:// beyond loopback warns (clear-text token)
  API_TOKEN           a bearer token (JWT) the server accepts (required), surrounding whitespace trimmed; it never
                      appears in any output, not even base64-, percent- or JSON-escaped
  API_AGENT_ID        an existing agent, required with --read-only

Options:
  --junit <file>      write a JUnit XML report (for CI)
  --json <file>       write every check, its outcome, violations and exchanges as JSON
  --max-writes <n>    cap on POST requests; checks the cap leaves out are reported as skipped and fail the run
                      (default: every named check once + every generated case + ${shrinkAllowance} for shrinking)
  --read-only         send only GETs and POSTs that two independent guards reject: bad credentials with an
                      invalid body or an unknown agent (needs API_AGENT_ID); checks one guard stops are skipped
  --seed-only         report failures of rules that are assumptions of the spec as warnings
  --runs <n>          generated cases per property (default ${defaultRunOptions.runs})
  --seed <n>          fast-check seed (default: random, printed)
  --replay <id:path>  replay one generated failure, as printed with it
  --timeout <ms>      per-request timeout (default ${defaultRunOptions.timeoutMs})
  -h, --help          show this help
`;

function parseCount(name: string, text: string | undefined, fallback: number, min = 0): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min)
    cliError(`--${name} must be a whole number${min > 0 ? ` of at least ${min}` : ''}, got "${text}"`);
  return Number(text);
}

function readArgs(args: string[]): {
  options: RunOptions;
  junit: string | undefined;
  json: string | undefined;
  maxWritesGiven: boolean;
} {
  const values = parseCommandLine(
    {
      junit: { type: 'string' },
      json: { type: 'string' },
      'max-writes': { type: 'string' },
      'read-only': { type: 'boolean' },
      'seed-only': { type: 'boolean' },
      runs: { type: 'string' },
      seed: { type: 'string' },
      replay: { type: 'string' },
      timeout: { type: 'string' },
    },
    { usage: 'usage: agent-registry-kit contract [options]; see agent-registry-kit contract --help', help },
    args,
  );
  let baseUrl: string;
  let token: string;
  try {
    const base = parseBaseUrl(process.env.API_BASE_URL);
    token = normalizeToken(process.env.API_TOKEN);
    baseUrl = base.baseUrl;
    for (const warning of base.warnings) process.stderr.write(`agent-registry-kit: ${warning}\n`);
  } catch (error) {
    if (error instanceof RunOptionError) cliError(error.message);
    throw error;
  }
  const readOnly = values['read-only'] === true;
  const agentId = process.env.API_AGENT_ID || undefined;
  if (readOnly && agentId === undefined)
    cliError('--read-only needs an existing agent; export API_AGENT_ID=<its agentId>');
  const runs = parseCount('runs', values.runs, defaultRunOptions.runs, 1);
  const seed =
    values.seed === undefined
      ? Math.floor(Math.random() * 2 ** 31)
      : /^-?\d+$/.test(values.seed)
        ? Number(values.seed)
        : cliError(`--seed must be an integer, got "${values.seed}"`);
  if (
    values.replay !== undefined &&
    !generatedProperties.some((property) => new RegExp(`^${property.id}:\\d+(:\\d+)*$`).test(values.replay ?? ''))
  ) {
    cliError(
      `--replay takes <property>:<path> as printed with a generated failure (properties: ${generatedProperties.map((p) => p.id).join(', ')}), got "${values.replay}"`,
    );
  }
  const options: RunOptions = {
    baseUrl,
    token,
    maxWrites: parseCount('max-writes', values['max-writes'], defaultMaxWrites(readOnly, runs)),
    readOnly,
    agentId,
    seedOnly: values['seed-only'] === true,
    runs,
    seed,
    timeoutMs: parseCount('timeout', values.timeout, defaultRunOptions.timeoutMs, 1),
    replay: values.replay,
  };
  return { options, junit: values.junit, json: values.json, maxWritesGiven: values['max-writes'] !== undefined };
}

/** Passes every write to `stream` (stdout, stderr) through the redactor, whoever writes: the report, vitest, a crash. */
function redactWrites(stream: NodeJS.WriteStream, redact: Redact): void {
  const write = stream.write.bind(stream);
  const redacted = (
    chunk: string | Uint8Array,
    encoding?: BufferEncoding | ((error?: Error | null) => void),
    callback?: (error?: Error | null) => void,
  ): boolean => {
    const text = redact(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return typeof encoding === 'function' ? write(text, encoding) : write(text, encoding ?? 'utf8', callback);
  };
  stream.write = redacted as typeof stream.write;
}

/** Fails fast, with one line, when nothing answers at API_BASE_URL. */
async function probe(options: RunOptions, redact: Redact): Promise<void> {
  const url = `${options.baseUrl}/v1/agents/contract-probe`;
  try {
    await (
      await fetch(url, {
        headers: { authorization: `Bearer ${options.token}` },
        signal: AbortSignal.timeout(options.timeoutMs),
      })
    ).arrayBuffer();
  } catch (error) {
    const reason =
      error instanceof DOMException && error.name === 'TimeoutError'
        ? `no answer within ${options.timeoutMs} ms`
        : error instanceof Error && error.cause instanceof Error
          ? error.cause.message
          : String(error);
    cliError(
      `cannot reach the server at ${options.baseUrl} (${redact(reason)}); is it running, and is API_BASE_URL right?`,
      2,
    );
  }
}

/**
 * Runs the contract suite against API_BASE_URL with the options in `args` and exits 0 if and only if every check passed.
 * @example await main(['--junit', 'report.xml']); // with API_BASE_URL and API_TOKEN exported
 */
export async function main(args: string[]): Promise<void> {
  const { options, junit, json } = readArgs(args);
  // The one redactor of the run, from the one normalized token: everything this process prints goes through it.
  const redact = createRedactor(options.token);
  redactWrites(process.stdout, redact);
  redactWrites(process.stderr, redact);
  // Node prints an uncaught error past process.stderr.write; print it here instead, so it goes through the redactor too.
  // Only until vitest starts: from then on vitest catches errors and hands them to the (redacting) reporter.
  const crash = (error: unknown): never => {
    process.stderr.write(
      `agent-registry-kit: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  const plan = planRun({ maxWrites: options.maxWrites, readOnly: options.readOnly, runs: options.runs });
  // Hidden, for the project's self-check: setup files that put an in-process server (the msw interceptor) behind fetch.
  const setupFiles = (process.env.AGENT_REGISTRY_KIT_CONTRACT_SETUP ?? '')
    .split(',')
    .filter(Boolean)
    .map((file) => resolve(file));
  if (setupFiles.length === 0) await probe(options, redact);

  const generatedDeploys = [...plan.generated]
    .filter(([id]) => id === 'generated/deployAgent/valid')
    .reduce((sum, [, g]) => sum + g.runs, 0);
  const generatedExecutes = [...plan.generated]
    .filter(([id]) => id === 'generated/executeAgentTask/valid')
    .reduce((sum, [, g]) => sum + g.runs, 0);
  process.stdout.write(
    `${[
      `agent-registry-kit contract: checking ${options.baseUrl} against spec/openapi.yaml${options.readOnly ? ' (read-only)' : ''}${options.seedOnly ? ' (seed rules only)' : ''}`,
      `  writes: at most ${plan.totals.posts} POST requests (--max-writes ${plan.maxWrites}): up to ${plan.totals.deploys} deploys (${generatedDeploys} generated) and ${plan.totals.executes} task submissions (${generatedExecutes} generated) that a correct server accepts, up to ${plan.shrinkBudget} more while shrinking a generated failure; the rest are requests a correct server rejects`,
      `  generated cases: ${options.runs} per property, seed ${options.seed}${options.replay ? `, replaying ${options.replay}` : ''}; timeout ${options.timeoutMs} ms per request`,
      '',
    ].join('\n')}\n`,
  );

  const reporter = new ContractReporter({
    options,
    plan,
    redact,
    jsonFile: json,
    junitFile: junit === undefined ? undefined : resolve(junit),
    sections: [statusCoverageSection],
    write: (text) => process.stdout.write(text),
  });
  // Compiled into the package this module is .js, and so is the suite beside it.
  const ownExtension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  const configFile = fileURLToPath(new URL(`../contract-tests/vitest.config.${ownExtension}`, import.meta.url));
  process.off('uncaughtException', crash);
  process.off('unhandledRejection', crash);
  const vitest = await startVitest('test', [], {
    config: configFile,
    watch: false,
    run: true,
    reporters: [reporter],
    provide: { contractOptions: options },
    ...(setupFiles.length > 0 ? { setupFiles } : {}),
  });
  await vitest.close();
  const verdict = reporter.report?.verdict ?? 'failed';
  process.exit(verdict === 'passed' ? 0 : 1);
}

if (import.meta.main) await main(process.argv.slice(2));
