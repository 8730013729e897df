// Prefer through the core in-process: every documented status and example of every operation of the spec, asked for
// with Prefer on the operation's own method and path, is answered and passes the response checker.
import { describe, expect, it } from 'vitest';
import { useCoreUnderTest } from '../../test/support/core-under-test.ts';
import type { OperationId } from '../../spec/index.ts';

const fake = useCoreUnderTest();
const { send, anActiveAgent } = fake;

describe('Prefer answers every documented status and example of every operation within the spec', () => {
  it('passes the response checker for each (operation, status, example)', async () => {
    const { getAtPointer, isJsonObject, openapiDocument, operations, resolveValue } = await import(
      '../../spec/index.ts'
    );
    const { documentedExamples } = await import('../core/documented-response.ts');
    const { fillPath, findPathValues } = await import('../../verifier-client/requests/path-parameters.ts');
    const { primaryCreation } = await import('../../verifier-client/requests/linked-operations.ts');
    const firstExample = (operationId: OperationId): unknown => {
      const pointer = operations.get(operationId)?.requestSchemaPointer;
      const examples = pointer ? getAtPointer(openapiDocument, pointer.replace(/\/schema$/, '/examples')) : undefined;
      const example = resolveValue(isJsonObject(examples) ? Object.values(examples)[0] : undefined);
      return isJsonObject(example) ? example.value : undefined;
    };
    // Paths are filled the way the spec's links say (a task's id from an execute on the active agent), not by hand.
    const create = async (creator: OperationId, values: Readonly<Record<string, string>>): Promise<unknown> =>
      (await send(operations.get(creator)?.method ?? 'POST', fillPath(creator, values), firstExample(creator))).json();
    const known = { [primaryCreation().parameter]: await anActiveAgent() };
    let checked = 0;
    // Every operation of the spec, on its own method and path, with its first documented request example as the body.
    for (const [operationId, operation] of operations) {
      const { method } = operation;
      const path = fillPath(operationId, await findPathValues(operationId, create, known));
      const body = firstExample(operationId);
      for (const status of operation.responses.keys()) {
        const names = documentedExamples(operationId, status).map((example) => example.name);
        for (const name of [undefined, ...names]) {
          const prefer = name === undefined ? `code=${status}` : `code=${status}, example=${name}`;
          const response = await send(method, path, body, { prefer });
          expect(response.status, `${operationId} ${prefer}`).toBe(status);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(25);
  });
});
