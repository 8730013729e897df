// The one rule for answers to requests a correct server rejects: a 4xx (the documented one), never a 2xx, never a 5xx.
import { getOperation, ruleOrigin, type OperationId } from '../spec/index.ts';
import type { CheckRun } from './contract-check.ts';

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
): void {
  if (status === undefined) return;
  const documented = getOperation(operationId).responses.get(expectedStatus);
  if (status < 400 || status >= 500) {
    run.violate({
      rule: status >= 500 ? 'no-5xx-on-bad-input' : 'rejects-invalid-request',
      pointer: '',
      expected: `a ${expectedStatus} problem (any 4xx at least)`,
      found: String(status),
      origin: ruleOrigin(keywordPointer),
      specPointer: keywordPointer,
      message:
        status >= 500
          ? `a request that breaks ${keywordPointer} made the server fail (${status}); bad input must be a 4xx`
          : `a request that breaks ${keywordPointer} was not rejected (${status})`,
      exchange,
    });
    return;
  }
  if (status !== expectedStatus) {
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
