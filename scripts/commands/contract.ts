// `agent-registry-kit contract` (and `npm run contract`): checks the server at API_BASE_URL against spec/openapi.yaml by
// running the contract suite (contract-tests/) with vitest, then prints a verdict grouped by operation and writes the
// JUnit, JSON and Markdown job-summary reports asked for.
import { dirname, join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Reporter } from 'vitest/node';
import { cliError, crashed, runCommand } from '../cli-error.ts';
import { parseCommandLine } from '../command-line.ts';
import { requirePeers } from '../optional-peers.ts';
import { guardWrites } from '../../verifier-client/terminal-text.ts';
import {
  defaultMaxWrites,
  generatedProperties,
  planRun,
  readOnlySkippedAuth,
  type RunPlan,
  shrinkAllowance,
} from '../../contract-tests/check-plan.ts';
import type { ContractReport } from '../../contract-tests/report/contract-report.ts';
import { ContractReporter } from '../../contract-tests/report/contract-reporter.ts';
import { acceptedWrites } from '../../verifier-client/requests/linked-operations.ts';
import { createRedactor, type Redact } from '../../verifier-client/redaction.ts';
import {
  defaultRunOptions,
  normalizeToken,
  parseBaseUrl,
  RunOptionError,
  type RunOptions,
} from '../../contract-tests/run-options.ts';
import { statusCoverageSection } from '../../contract-tests/report/status-coverage-section.ts';

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

/** What one run of the suite reports to, and where. */
export interface SuiteRunSettings {
  options: RunOptions;
  plan: RunPlan;
  redact: Redact;
  jsonFile: string | undefined;
  junitFile: string | undefined;
  summaryFile?: string | undefined;
  write: (text: string) => void;
}

/** A vitest instance over contract-tests/, ready to run the suite once per set of options. */
export interface OpenSuite {
  /** One run against `settings.options`, reported by its own ContractReporter; runs follow one another. */
  run(settings: SuiteRunSettings): Promise<ContractReport | undefined>;
  close(): Promise<void>;
}

/** How long closing the suite may take once its reports are written. */
const CLOSE_GRACE_MS = 10_000;

/**
 * Starts vitest over contract-tests/ once, for one or many runs of the suite in this process. Each run gets its options
 * through vitest's `provide` and starts fresh workers (each file's session is built from them at import), so runs share
 * only vitest itself, its config and its transformed files: what a caller running many suites (the project's
 * broken-server matrix) would otherwise pay again for each run: starting vitest is most of a run's cost.
 * @example const suite = await openSuite(); const report = await suite.run(settings); await suite.close();
 */
export async function openSuite(
  settings: {
    setupFiles?: string[];
    /**
     * Where the suite runs: a forked process (vitest's default, what the CLI uses), or a worker thread, for a caller
     * running many suites in one process (the project's broken-server matrix), where a fork per run costs more.
     */
    pool?: 'forks' | 'threads';
  } = {},
): Promise<OpenSuite> {
  const { setupFiles = [], pool } = settings;
  // Built into the package this module is .js in a chunk of dist/, and the suite is in dist/contract-tests/; found from
  // the package's root, which the package resolves by its own name in a clone and installed alike.
  const built = !import.meta.url.endsWith('.ts');
  const configFile = join(
    dirname(fileURLToPath(import.meta.resolve('agent-registry-kit/package.json'))),
    built ? 'dist/contract-tests/vitest.config.js' : 'contract-tests/vitest.config.ts',
  );
  let current: ContractReporter | undefined;
  // vitest takes its reporters once; each run's own reporter is reached through this one.
  const relay: Reporter = {
    onTestRunEnd: (modules, errors) => current?.onTestRunEnd(modules, errors),
  };
  // Loaded here, not at the top: a run stopped by a mistake in its options (exit 2) or --help never needs vitest, which
  // is most of such a process's start (0.5 of 0.85 CPU-s).
  const { createVitest, TestsNotFoundError } = await import('vitest/node');
  const vitest = await createVitest({
    config: configFile,
    watch: false,
    run: true,
    reporters: [relay],
    ...(setupFiles.length > 0 ? { setupFiles } : {}),
    ...(pool ? { pool } : {}),
  });
  return {
    async run(runSettings) {
      const reporter = new ContractReporter({ ...runSettings, sections: [statusCoverageSection] });
      current = reporter;
      vitest.provide('contractOptions', runSettings.options);
      try {
        await vitest.start();
      } catch (error) {
        // As vitest's own startVitest does: a suite with no files ends with no report; anything else is printed.
        if (!(error instanceof TestsNotFoundError))
          vitest.logger.printError(error, { fullStack: true, type: 'Unhandled Error' });
      } finally {
        current = undefined;
      }
      return reporter.report;
    },
    // Every report is written by the time close is called. vitest's pool teardown has been seen to hang after many
    // runs in one process (a worker that never answers the close), which would hold the process for ever: past the
    // grace period the suite counts as closed, and the caller's process.exit ends what is left.
    async close() {
      const grace = new AbortController();
      const closing = vitest.close().finally(() => grace.abort());
      // A close that fails after the grace period has nobody left to tell; one that fails before it still throws.
      closing.catch(() => {});
      await Promise.race([closing, delay(CLOSE_GRACE_MS, undefined, { signal: grace.signal }).catch(() => {})]);
    },
  };
}

/**
 * One run of the suite in this process: vitest over contract-tests/ with `options` provided to every check, reported
 * by one ContractReporter.
 * @example const report = await runSuite({ options, plan, redact, jsonFile: 'c.json', write: (t) => process.stdout.write(t) });
 */
export async function runSuite(
  settings: SuiteRunSettings & { setupFiles?: string[] },
): Promise<ContractReport | undefined> {
  const suite = await openSuite({ setupFiles: settings.setupFiles ?? [] });
  try {
    return await suite.run(settings);
  } finally {
    await suite.close();
  }
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
  // Hidden, for the project's self-check: setup files that put an in-process server (the msw interceptor) behind fetch.
  const setupFiles = (process.env.AGENT_REGISTRY_KIT_CONTRACT_SETUP ?? '')
    .split(',')
    .filter(Boolean)
    .map((file) => resolve(file));
  if (setupFiles.length === 0) await probe(options, redact);

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
    setupFiles,
  });
  if (html !== undefined && report) {
    const { writeHtmlReport } = await import('../../contract-tests/report/html-report.ts');
    writeHtmlReport(resolve(html), report, redact);
  }
  const verdict = report?.verdict ?? 'failed';
  process.exit(verdict === 'passed' ? 0 : 1);
}

if (import.meta.main) await runCommand(main, process.argv.slice(2));
