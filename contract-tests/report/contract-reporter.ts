// The vitest reporter of a contract run: gathers each test's check record, then prints the console report and writes
// --json, --junit and --summary.
import { appendFileSync, writeFileSync } from 'node:fs';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';
import type { CheckRecord } from '../../verifier-client/check-record.ts';
import { buildReport, formatConsoleReport, type ContractReport, type ReportSection } from './contract-report.ts';
import { formatJobSummary } from './job-summary.ts';
import { formatJUnit } from './junit-report.ts';
import type { RunPlan } from '../check-plan.ts';
import type { Redact } from '../../verifier-client/redaction.ts';
import type { RunOptions } from '../run-options.ts';

export interface ContractReporterOptions {
  options: RunOptions;
  plan: RunPlan;
  redact: Redact;
  jsonFile: string | undefined;
  junitFile?: string | undefined;
  /** The Markdown job summary's file, appended to as GitHub's $GITHUB_STEP_SUMMARY expects. */
  summaryFile?: string | undefined;
  /** Parts other modules add to the console report and the JUnit properties (e.g. status coverage). */
  sections?: readonly ReportSection[];
  write: (text: string) => void;
}

/**
 * Reports a contract run; `report` is set once the run ended.
 * @example const reporter = new ContractReporter({ options, plan, redact, jsonFile: 'contract.json', write: (t) => process.stdout.write(t) });
 */
export class ContractReporter implements Reporter {
  report: ContractReport | undefined;
  readonly #settings: ContractReporterOptions;
  readonly #startedAt = new Date();

  constructor(settings: ContractReporterOptions) {
    this.#settings = settings;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const { redact } = this.#settings;
    const records: CheckRecord[] = [];
    const errors: string[] = unhandledErrors.map((error) => redact(`${error.name ?? 'Error'}: ${error.message ?? ''}`));
    for (const module of testModules) {
      for (const error of module.errors()) errors.push(redact(`${module.moduleId}: ${error.message}`));
      for (const testCase of module.children.allTests()) {
        const record = testCase.meta().contract;
        const result = testCase.result();
        if (record) {
          // A check that threw before finishing (a suite bug, a timeout) still counts as failed, with vitest's reason.
          if (result.state === 'failed' && record.outcome !== 'failed') {
            record.outcome = 'failed';
            for (const error of result.errors ?? []) errors.push(redact(`${record.id}: ${error.message}`));
          }
          records.push(record);
        } else if (result.state === 'failed') {
          errors.push(redact(`${testCase.fullName}: ${(result.errors ?? []).map((e) => e.message).join('; ')}`));
        }
      }
    }
    const report = buildReport({
      records,
      errors,
      options: this.#settings.options,
      plan: this.#settings.plan,
      startedAt: this.#startedAt,
      durationMs: Date.now() - this.#startedAt.getTime(),
    });
    this.report = report;
    const sections = this.#settings.sections ?? [];
    this.#settings.write(redact(formatConsoleReport(report, sections)));
    if (this.#settings.jsonFile) writeFileSync(this.#settings.jsonFile, `${redact(JSON.stringify(report, null, 2))}\n`);
    if (this.#settings.junitFile) writeFileSync(this.#settings.junitFile, redact(formatJUnit(report, sections)));
    if (this.#settings.summaryFile)
      appendFileSync(this.#settings.summaryFile, redact(formatJobSummary(report, redact)));
  }
}
