// The thin vitest layer of the contract suite: reads the run's options (provided by the suite's runner,
// contract-tests/suite-runner.ts), makes the file's session, and turns named checks into tests. Everything it calls
// works outside vitest too (contract-check.ts).
import { describe, inject, test } from 'vitest';
import type { CheckRecord } from '../../verifier-client/check-record.ts';
import type { CheckDefinition, CheckRun } from './check-definition.ts';
import * as checks from '../contract-check.ts';

/** The file's session: its options, plan, redactor and fixture agents. */
const session: checks.ContractSession = checks.createContractSession(inject('contractOptions'));
export const runOptions = session.options;
export const runPlan = session.plan;

/** {@link checks.createCheckRun} for this file's session. */
export function createCheckRun(record: CheckRecord, allowedPosts: number | (() => boolean)): CheckRun {
  return checks.createCheckRun(session, record, allowedPosts);
}

/** {@link checks.finishCheck} for this file's session. */
export function finishCheck(record: CheckRecord): void {
  checks.finishCheck(session, record);
}

/**
 * Registers named checks as tests, grouped by operation.
 * @example registerChecks(authChecks); // in auth.test.ts
 */
export function registerChecks(definitions: readonly CheckDefinition[]): void {
  const byOperation = Map.groupBy(definitions, (definition) => definition.operationId);
  for (const [operationId, mine] of byOperation) {
    describe(operationId, () => {
      for (const definition of mine) {
        test(`${definition.check}: ${definition.title}`, async (context) => {
          const record = checks.emptyRecord(definition.id, definition.check, definition.operationId, definition.title);
          context.task.meta.contract = record;
          await checks.runCheck(session, definition, (note) => context.skip(note), record);
        });
      }
    });
  }
}
