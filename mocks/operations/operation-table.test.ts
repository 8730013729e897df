import { describe, expect, it } from 'vitest';
import { operations, type OperationId } from '../../spec/index.ts';
import type { OperationTable } from './operation-handler.ts';
import { operationHandlers } from './operation-table.ts';

describe('the operation table', () => {
  it('has exactly one handler per operation of the spec', () => {
    expect(Object.keys(operationHandlers).sort()).toEqual([...operations.keys()].sort());
  });

  it('does not type-check when an operation of the spec has no handler', () => {
    // Both checks below are compile-time (npm run typecheck): an unused @ts-expect-error is itself an error.
    const { getAgent: _dropped, ...withoutOne } = operationHandlers;
    // @ts-expect-error a table missing one operation of the spec does not satisfy OperationTable
    withoutOne satisfies OperationTable;
    // An operation added to spec/openapi.yaml joins OperationId once `npm run generate` runs; the table then lacks it.
    type TableAfterAddingAnOperation = { [K in OperationId | 'listTasks']: unknown };
    // @ts-expect-error the table has no handler for the added operation
    operationHandlers satisfies TableAfterAddingAnOperation;
    expect(Object.keys(withoutOne)).toHaveLength(operations.size - 1);
  });
});
