import { describe, expect, it } from 'vitest';
import { operations, type OperationId } from '../../spec/index.ts';
import type { OperationTable } from '../core/operation-handler.ts';
import { operationTable } from './operation-table.ts';

describe('the operation table', () => {
  it('has exactly one entry per operation of the spec', () => {
    expect(Object.keys(operationTable).sort()).toEqual([...operations.keys()].sort());
  });

  it('does not type-check when an operation of the spec has no entry', () => {
    // Both checks below are compile-time (npm run typecheck): an unused @ts-expect-error is itself an error.
    const { getAgent: _dropped, ...withoutOne } = operationTable;
    // @ts-expect-error a table missing one operation of the spec does not satisfy OperationTable
    withoutOne satisfies OperationTable;
    // An operation added to spec/openapi.yaml joins OperationId once `npm run generate` runs; the table then lacks it.
    type TableAfterAddingAnOperation = { [K in OperationId | 'listTasks']: unknown };
    // @ts-expect-error the table has no entry for the added operation
    operationTable satisfies TableAfterAddingAnOperation;
    expect(Object.keys(withoutOne)).toHaveLength(operations.size - 1);
  });

  it('does not type-check when an entry does not say what its operation reads', () => {
    const { reads: _unstated, ...handleOnly } = operationTable.getAgent;
    const unstated = { ...operationTable, getAgent: handleOnly };
    // @ts-expect-error an entry without `reads` does not satisfy OperationTable
    unstated satisfies OperationTable;
    expect(Object.values(operationTable).map((entry) => entry.reads)).not.toContain(undefined);
  });
});
