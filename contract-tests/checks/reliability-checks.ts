// Reliability: the core request of every operation, repeated, must be answered with its success status every time. A
// 5xx to a valid request is always a failure (even a documented 500), and repeating is what catches a server that
// fails only some of the time. Reads repeat more than writes, which count against --max-writes.
import { isJsonObject, operations, type OperationId } from '../../spec/index.ts';
import { acceptedWrites } from '../../verifier-client/requests/linked-operations.ts';
import { defineCheck, type CheckDefinition } from './check-definition.ts';
import { takesBody, validRequest } from '../../verifier-client/requests/operation-requests.ts';
import { expectSuccess } from './expect-success.ts';
import { requestExamples } from '../../verifier-client/requests/spec-schemas.ts';

/** How often each kind of request is repeated. */
const repeats = { read: 40, write: 8 } as const;

function repeatedCheck(operationId: OperationId): CheckDefinition {
  const operation = operations.get(operationId);
  const write = operation?.method === 'POST';
  const times = write ? repeats.write : repeats.read;
  const writes = acceptedWrites(operationId);
  const needsValues = (operation?.pathParameters.length ?? 0) > 0;
  return defineCheck(
    {
      id: `reliability/${operationId}/repeated`,
      title: `${times} valid ${operationId} requests in a row are each answered with the success status, never a 5xx`,
      posts: write ? times : 0,
      deploys: writes.deploys * times,
      executes: writes.executes * times,
      fixture: needsValues,
    },
    async (run) => {
      const values = needsValues ? await run.pathValues(operationId) : {};
      const example = takesBody(operationId) ? requestExamples(operationId).at(-1) : undefined;
      for (let i = 0; i < times; i += 1) {
        // Each write differs (its name), so a server that caches by content cannot answer them all from one entry.
        const body =
          isJsonObject(example) && typeof example.name === 'string'
            ? { ...example, name: `contract repeat ${i + 1}` }
            : example;
        const { response, index } = await run.send(validRequest(operationId, values, body));
        expectSuccess(
          run,
          operationId,
          response?.status,
          index,
          `repeat ${i + 1} of ${times} of a valid ${operationId} request`,
        );
      }
    },
  );
}

/** One repeated-request check per operation of the spec. */
export const reliabilityChecks: readonly CheckDefinition[] = [...operations.keys()].map(repeatedCheck);
