// Request validation: each invalid request derived from the schemas (missing required fields, enums, bounds, wrong types,
// malformed JSON, wrong media types, an over-long agentId) is rejected with its documented 4xx problem, never 2xx or 5xx.
import { describe } from 'vitest';
import { getOperation } from '../spec/index.ts';
import { contractCheck } from './contract-check.ts';
import { expectRejection } from './expect-rejection.ts';
import { invalidRequests } from './invalid-requests.ts';
import { requestExamples, resolveSchema } from './spec-schemas.ts';

for (const operationId of ['deployAgent', 'executeAgentTask'] as const) {
  describe(operationId, () => {
    for (const invalid of invalidRequests(operationId)) {
      contractCheck(`request-validation/${operationId}/${invalid.id}`, async (run) => {
        const agentId = operationId === 'executeAgentTask' ? await run.fixtureAgent() : '';
        const path = getOperation(operationId).path.replace('{agentId}', encodeURIComponent(agentId));
        const { response, index } = await run.send({
          operationId,
          method: 'POST',
          path,
          contentType: invalid.contentType,
          body: invalid.body,
        });
        expectRejection(run, operationId, response?.status, invalid.expectedStatus, invalid.keywordPointer, index);
      });
    }
  });
}

const agentIdSchema = resolveSchema('/components/parameters/AgentId/schema');
const maxLength = typeof agentIdSchema.schema.maxLength === 'number' ? agentIdSchema.schema.maxLength : 128;
const tooLongId = 'a'.repeat(maxLength + 1);

describe('getAgent', () => {
  contractCheck('request-validation/getAgent/agentId-max-length', async (run) => {
    const { response, index } = await run.send({
      operationId: 'getAgent',
      method: 'GET',
      path: `/v1/agents/${tooLongId}`,
      contentType: undefined,
      body: undefined,
    });
    expectRejection(run, 'getAgent', response?.status, 400, `${agentIdSchema.pointer}/maxLength`, index);
  });
});

describe('executeAgentTask', () => {
  contractCheck('request-validation/executeAgentTask/agentId-max-length', async (run) => {
    const { response, index } = await run.send({
      operationId: 'executeAgentTask',
      method: 'POST',
      path: `/v1/agents/${tooLongId}/execute`,
      contentType: 'application/json',
      body: JSON.stringify(requestExamples('executeAgentTask')[0]),
    });
    expectRejection(run, 'executeAgentTask', response?.status, 400, `${agentIdSchema.pointer}/maxLength`, index);
  });
});
