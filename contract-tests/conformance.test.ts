// Conformance: a plain successful call of each operation answers a documented status, media type and body.
// (Every response of every other check is checked the same way; these make sure each success shape is seen.)
import { describe } from 'vitest';
import { contractCheck, type CheckRun } from './contract-check.ts';
import { requestExamples } from './spec-schemas.ts';

describe('deployAgent', () => {
  contractCheck('conformance/deployAgent/201', async (run) => {
    const { response, index } = await run.send({
      operationId: 'deployAgent',
      method: 'POST',
      path: '/v1/agents/deploy',
      contentType: 'application/json',
      body: JSON.stringify(requestExamples('deployAgent')[0]),
    });
    expectStatus(run, response?.status, 201, index, '/paths/~1v1~1agents~1deploy/post/responses/201', 'seed');
  });
});

describe('getAgent', () => {
  contractCheck('conformance/getAgent/200', async (run) => {
    const agentId = await run.fixtureAgent();
    const { response, index } = await run.send({
      operationId: 'getAgent',
      method: 'GET',
      path: `/v1/agents/${encodeURIComponent(agentId)}`,
      contentType: undefined,
      body: undefined,
    });
    expectStatus(run, response?.status, 200, index, '/paths/~1v1~1agents~1{agentId}/get/responses/200', 'assumption');
  });
});

describe('executeAgentTask', () => {
  contractCheck('conformance/executeAgentTask/200', async (run) => {
    const agentId = await run.fixtureAgent();
    const { response, index } = await run.send({
      operationId: 'executeAgentTask',
      method: 'POST',
      path: `/v1/agents/${encodeURIComponent(agentId)}/execute`,
      contentType: 'application/json',
      body: JSON.stringify(requestExamples('executeAgentTask')[0]),
    });
    expectStatus(
      run,
      response?.status,
      200,
      index,
      '/paths/~1v1~1agents~1{agentId}~1execute/post/responses/200',
      'seed',
    );
  });
});

function expectStatus(
  run: CheckRun,
  status: number | undefined,
  want: number,
  exchange: number,
  specPointer: string,
  origin: 'seed' | 'assumption',
): void {
  if (status === undefined || status === want) return;
  run.violate({
    rule: 'success-status',
    pointer: '',
    expected: `status ${want}`,
    found: String(status),
    origin,
    specPointer,
    message: `a valid request must be answered ${want}, got ${status}`,
    exchange,
  });
}
