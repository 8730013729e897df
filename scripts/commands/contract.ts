// `agent-registry-kit contract` (and `npm run contract`): checks the server at API_BASE_URL against spec/openapi.yaml by
// running the contract suite (contract-tests/suite-runner.ts), then prints a verdict grouped by operation and writes the
// JUnit, JSON and Markdown job-summary reports asked for.
import { resolve } from 'node:path';
import { cliError, crashed, runCommand } from '../cli-error.ts';
import { parseCommandLine } from '../command-line.ts';
import { requirePeers } from '../optional-peers.ts';
import { guardWrites } from '../../verifier-client/terminal-text.ts';
import {
  defaultMaxWrites,
  generatedProperties,
  planRun,
  readOnlySkippedAuth,
  shrinkAllowance,
} from '../../contract-tests/check-plan.ts';
import { acceptedWrites } from '../../verifier-client/requests/linked-operations.ts';
import { createRedactor, type Redact } from '../../verifier-client/redaction.ts';
import { runSuite } from '../../contract-tests/suite-runner.ts';
import {
  defaultRunOptions,
  normalizeToken,
  parseBaseUrl,
  RunOptionError,
  type RunOptions,
} from '../../contract-tests/run-options.ts';

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
  --summary <file>    append a Markdown job summary: the verdict, a table of every operation, the first failures
                      (for CI: --summary "$GITHUB_STEP_SUMMARY")
  --html <file>       write a self-contained HTML report (per operation, each failing exchange, the coverage matrix)
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

/**
 * The run's options from the command line and the environment (API_BASE_URL, API_TOKEN, API_AGENT_ID); a mistake is
 * one line on stderr and exit status 2.
 * @example const { options } = readArgs(['--runs', '5'], { API_BASE_URL: url, API_TOKEN: token });
 */
export function readArgs(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): {
  options: RunOptions;
  junit: string | undefined;
  json: string | undefined;
  summary: string | undefined;
  html: string | undefined;
  maxWritesGiven: boolean;
} {
  const values = parseCommandLine(
    {
      junit: { type: 'string' },
      json: { type: 'string' },
      summary: { type: 'string' },
      html: { type: 'string' },
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
    const base = parseBaseUrl(env.API_BASE_URL);
    token = normalizeToken(env.API_TOKEN);
    baseUrl = base.baseUrl;
    for (const warning of base.warnings) process.stderr.write(`agent-registry-kit: ${warning}\n`);
  } catch (error) {
    if (error instanceof RunOptionError) cliError(error.message);
    throw error;
  }
  const readOnly = values['read-only'] === true;
  const agentId = env.API_AGENT_ID || undefined;
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
  return {
    options,
    junit: values.junit,
    json: values.json,
    summary: values.summary,
    html: values.html,
    maxWritesGiven: values['max-writes'] !== undefined,
  };
}

/** Fails fast, with one line, when nothing answers at API_BASE_URL. */
async function probe(options: RunOptions, redact: Redact): Promise<void> {
  const url = `${options.baseUrl}/v1/agents/contract-probe`;
  try {
    const answer = await fetch(url, {
      headers: { authorization: `Bearer ${options.token}` },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    // Only that something answers matters: the body is never read (an endless one would fill the memory).
    await answer.body?.cancel();
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

/** Under --read-only: which auth checks cannot run, and what that leaves unchecked. */
function readOnlyAuthLine(): string {
  const skipped = readOnlySkippedAuth();
  const operations = [...new Set(skipped.map((id) => id.split('/')[1]))];
  return `  auth checks that cannot run (--read-only): ${skipped.length}, those of ${operations.join(', ')}: their bad credentials come with a request that would write if accepted, so a server that skips auth there is not caught`;
}

/**
 * Runs the contract suite against API_BASE_URL with the options in `args` and exits 0 if and only if every check passed.
 * @example await main(['--junit', 'report.xml']); // with API_BASE_URL and API_TOKEN exported
 */
export async function main(args: string[]): Promise<void> {
  const { options, junit, json, summary, html } = readArgs(args);
  // The suite's runner and its property-based generator are optional peers of the kit: an app that only mocks the API
  // installs neither.
  requirePeers('contract', ['vitest', 'fast-check']);
  // The one redactor of the run, from the one normalized token: everything this process prints goes through it.
  const redact = createRedactor(options.token);
  // …and then through terminalSafe: a server's escape sequences never reach the terminal raw.
  guardWrites(process.stdout, redact);
  guardWrites(process.stderr, redact);
  // Node prints an uncaught error past process.stderr.write; print it here instead, so it goes through the redactor too.
  // Only until vitest starts: from then on vitest catches errors and hands them to the (redacting) reporter.
  const crash = crashed;
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  const plan = planRun({ maxWrites: options.maxWrites, readOnly: options.readOnly, runs: options.runs });
  await probe(options, redact);

  // What each generated valid case creates comes from the links (verifier-client/requests/linked-operations.ts), not from its id.
  const generatedWrites = (kind: 'deploys' | 'executes'): number =>
    generatedProperties
      .filter((property) => property.valid)
      .reduce((sum, p) => sum + acceptedWrites(p.operationId)[kind] * (plan.generated.get(p.id)?.runs ?? 0), 0);
  const generatedDeploys = generatedWrites('deploys');
  const generatedExecutes = generatedWrites('executes');
  process.stdout.write(
    `${[
      `agent-registry-kit contract: checking ${options.baseUrl} against spec/openapi.yaml${options.readOnly ? ' (read-only)' : ''}${options.seedOnly ? ' (seed rules only)' : ''}`,
      `  writes: at most ${plan.totals.posts} POST requests (--max-writes ${plan.maxWrites}): up to ${plan.totals.deploys} deploys (${generatedDeploys} generated) and ${plan.totals.executes} task submissions (${generatedExecutes} generated) that a correct server accepts, up to ${plan.shrinkBudget} more while shrinking a generated failure; the rest are requests a correct server rejects`,
      `  generated cases: ${options.runs} per property, seed ${options.seed}${options.replay ? `, replaying ${options.replay}` : ''}; timeout ${options.timeoutMs} ms per request`,
      ...(options.readOnly ? [readOnlyAuthLine()] : []),
      '',
    ].join('\n')}\n`,
  );

  process.off('uncaughtException', crash);
  process.off('unhandledRejection', crash);
  const report = await runSuite({
    options,
    plan,
    redact,
    jsonFile: json,
    junitFile: junit === undefined ? undefined : resolve(junit),
    summaryFile: summary === undefined ? undefined : resolve(summary),
    write: (text) => process.stdout.write(text),
  });
  if (html !== undefined && report) {
    const { writeHtmlReport } = await import('../../contract-tests/report/html-report.ts');
    writeHtmlReport(resolve(html), report, redact);
  }
  const verdict = report?.verdict ?? 'failed';
  process.exit(verdict === 'passed' ? 0 : 1);
}

if (import.meta.main) await runCommand(main, process.argv.slice(2));
