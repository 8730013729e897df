// The one rule for the answer to a valid request (the operation's documented success status), and the path values no
// creation returned that checks aim requests at when nothing may be written.
import { getOperation, type OperationId, type RuleOrigin } from '../../spec/index.ts';
import { successStatus } from '../../verifier-client/requests/operation-requests.ts';
import type { PathValues } from '../../verifier-client/requests/path-parameters.ts';
import type { CheckRun } from './check-definition.ts';

/**
 * Path values no creation ever returned, one per path parameter of the operation (they differ per seed, so runs do
 * not collide): what a correct server answers 404.
 * @example unknownValues(run, operationId) // { agentId: 'agentId_contract_unknown_42' }
 */
export function unknownValues(run: CheckRun, operationId: OperationId): PathValues {
  return Object.fromEntries(
    getOperation(operationId).pathParameters.map((name) => [name, `${name}_contract_unknown_${run.options.seed}`]),
  );
}

/**
 * Records `success-status` when a valid request was not answered with its documented success status, and says whether
 * it was. A 5xx (`not-a-server-error`), an undocumented status (`status-documented`) and no answer (`answers`) are
 * recorded by send already, so they are not repeated here.
 * @example if (!expectSuccess(run, operationId, response?.status, index, 'a valid deploy')) return;
 */
export function expectSuccess(
  run: CheckRun,
  operationId: OperationId,
  status: number | undefined,
  exchange: number,
  what: string,
  /** Where the request's validity comes from, when an assumption of the spec makes it valid (a boundary it chose). */
  validBy?: RuleOrigin,
): boolean {
  const success = successStatus(operationId);
  if (status === success.status) return true;
  // An undocumented status is already `status-documented` (recorded by send): one cause, one violation.
  if (status === undefined || status >= 500 || !getOperation(operationId).responses.has(status)) return false;
  // Another 2xx breaks only the documented status; refusing valid input breaks the seed unless the spec made it valid.
  const origin: RuleOrigin =
    status >= 200 && status < 300 ? (success.seed ? 'seed' : 'assumption') : (validBy ?? 'seed');
  run.violate({
    rule: 'success-status',
    pointer: '',
    expected: `status ${success.status}`,
    found: String(status),
    origin,
    specPointer: success.pointer,
    message: `${what} must be answered ${success.status}, got ${status}`,
    exchange,
  });
  return false;
}
