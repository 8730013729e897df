// The contract suite's runner: vitest started over contract-tests/ with the suite's own config, each run's options
// handed to every check through vitest's `provide`, each run reported by its own ContractReporter. The command line
// (scripts/commands/contract.ts) runs it once; the project's self-check runs it many times in one process, and with
// setup files of its own (an in-process server behind fetch), which are an option here and nothing the command reads.
import { dirname, join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Reporter } from 'vitest/node';
import type { Redact } from '../verifier-client/redaction.ts';
import type { RunPlan } from './check-plan.ts';
import type { ContractReport } from './report/contract-report.ts';
import { ContractReporter } from './report/contract-reporter.ts';
import { statusCoverageSection } from './report/status-coverage-section.ts';
import type { RunOptions } from './run-options.ts';

/** How the suite is started: once, for every run after. */
export interface SuiteSettings {
  /** Files vitest runs in each worker before the suite's (absolute, or relative to the working directory). */
  setupFiles?: string[];
  /**
   * Where the suite runs: a forked process (vitest's default, what the CLI uses), or a worker thread, for a caller
   * running many suites in one process (the project's broken-server matrix), where a fork per run costs more.
   */
  pool?: 'forks' | 'threads';
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
export async function openSuite(settings: SuiteSettings = {}): Promise<OpenSuite> {
  const { pool } = settings;
  const setupFiles = (settings.setupFiles ?? []).map((file) => resolve(file));
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
export async function runSuite(settings: SuiteRunSettings & SuiteSettings): Promise<ContractReport | undefined> {
  const suite = await openSuite(settings);
  try {
    return await suite.run(settings);
  } finally {
    await suite.close();
  }
}
