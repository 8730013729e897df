// The one rule for answers to requests a correct server rejects: a 4xx (the documented one), never a 2xx (a 5xx is
// reported by every send as not-a-server-error).
import { getOperation, ruleOrigin, type OperationId, type RuleOrigin } from '../../spec/index.ts';
import type { CheckRun } from './check-definition.ts';

/**
 * Records why an answer to a request that breaks `keywordPointer` is not the documented rejection.
 * @example expectRejection(run, operationId, 201, 400, '/components/schemas/DeployRequest/properties/revenueShare/maximum', 0);
 */
export function expectRejection(
  run: CheckRun,
  operationId: OperationId,
  status: number | undefined,
  expectedStatus: number,
  keywordPointer: string,
  exchange: number,
  /** The keyword's origin when the caller knows it better (a generated body's own broken keywords); else read from the pointer. */
  origin: RuleOrigin = ruleOrigin(keywordPointer),
): void {
  // No answer and a 5xx are recorded by send (`answers`, `not-a-server-error`): one cause, one violation.
  if (status === undefined || status >= 500) return;
  if (status < 400) {
    run.violate({
      rule: 'rejects-invalid-request',
      pointer: '',
      expected: `a ${expectedStatus} problem (any 4xx at least)`,
      found: String(status),
      origin,
      specPointer: keywordPointer,
      message: `a request that breaks ${keywordPointer} was not rejected (${status})`,
      exchange,
    });
    return;
  }
  if (status !== expectedStatus) {
    const documented = getOperation(operationId).responses.get(expectedStatus);
    run.violate({
      rule: 'rejection-status',
      pointer: '',
      expected: `status ${expectedStatus}`,
      found: String(status),
      origin: 'assumption',
      specPointer: documented?.pointer ?? keywordPointer,
      message: `a request that breaks ${keywordPointer} must be answered ${expectedStatus}, got ${status}`,
      exchange,
    });
  }
}
