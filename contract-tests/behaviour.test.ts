// Behaviour across calls: what a deploy creates can be retrieved and agrees with what was sent and answered, ids are
// unique, tasks are accepted at every priority, and unknown agents are 404 on retrieve and on execute.
import { describe } from 'vitest';
import { isJsonObject, type JsonObject, type JsonValue, type RuleOrigin } from '../spec/index.ts';
import { contractCheck, redact, runOptions, type CheckRun } from './contract-check.ts';
import { describeServerText } from './redaction.ts';
import { requestExamples, resolveSchema } from './spec-schemas.ts';

const deploySpec = '/paths/~1v1~1agents~1deploy/post';
const retrieveSpec = '/paths/~1v1~1agents~1{agentId}/get';
const executeSpec = '/paths/~1v1~1agents~1{agentId}~1execute/post';

function parse(body: string): JsonValue | undefined {
  try {
    return JSON.parse(body) as JsonValue;
  } catch {
    return undefined;
  }
}

function same(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

async function deploy(run: CheckRun, body: JsonObject): Promise<{ answer: JsonObject; index: number } | undefined> {
  const { response, index } = await run.send({
    operationId: 'deployAgent',
    method: 'POST',
    path: '/v1/agents/deploy',
    contentType: 'application/json',
    body: JSON.stringify(body),
  });
  if (!response) return undefined;
  const answer = parse(response.body);
  if (response.status < 200 || response.status >= 300 || !isJsonObject(answer) || typeof answer.agentId !== 'string') {
    run.violate({
      rule: 'deploy-creates-agent',
      pointer: '/agentId',
      expected: 'a 2xx answer with an agentId',
      found: `${response.status} ${describeServerText(redact, response.body, 120)}`,
      origin: 'seed',
      specPointer: `${deploySpec}/responses/201`,
      message: 'a valid deploy did not create an agent',
      exchange: index,
    });
    return undefined;
  }
  return { answer, index };
}

async function retrieve(run: CheckRun, agentId: string): Promise<{ agent: JsonObject; index: number } | undefined> {
  const { response, index } = await run.send({
    operationId: 'getAgent',
    method: 'GET',
    path: `/v1/agents/${encodeURIComponent(agentId)}`,
    contentType: undefined,
    body: undefined,
  });
  if (!response) return undefined;
  const agent = parse(response.body);
  if (response.status !== 200 || !isJsonObject(agent)) {
    run.violate({
      rule: 'deployed-agent-retrievable',
      pointer: '',
      expected: 'status 200 with the agent',
      found: String(response.status),
      origin: 'seed',
      specPointer: `${retrieveSpec}/responses/200`,
      message: `the agent ${agentId} that deploy just returned cannot be retrieved (${response.status})`,
      exchange: index,
    });
    return undefined;
  }
  return { agent, index };
}

interface Agreement {
  pointer: string;
  want: JsonValue | undefined;
  origin: RuleOrigin;
  specPointer: string;
  why: string;
}

function agree(run: CheckRun, agent: JsonObject, index: number, agreements: Agreement[]): void {
  for (const { pointer, want, origin, specPointer, why } of agreements) {
    const found = pointer
      .split('/')
      .slice(1)
      .reduce<JsonValue | undefined>((node, key) => (isJsonObject(node) ? node[key] : undefined), agent);
    if (!same(found, want)) {
      run.violate({
        rule: 'retrieve-agrees-with-deploy',
        pointer,
        expected: JSON.stringify(want),
        found: found === undefined ? 'nothing' : JSON.stringify(found),
        origin,
        specPointer,
        message: `${pointer} of the retrieved agent disagrees with ${why}`,
        exchange: index,
      });
    }
  }
}

describe('deployAgent', () => {
  contractCheck('behaviour/deployAgent/retrievable', async (run) => {
    const sent = requestExamples('deployAgent')[0] ?? {};
    const deployed = await deploy(run, sent);
    if (!deployed) return;
    const { answer } = deployed;
    const retrieved = await retrieve(run, String(answer.agentId));
    if (!retrieved) return;
    const fromRequest = (pointer: string, want: JsonValue | undefined, origin: RuleOrigin = 'seed'): Agreement => ({
      pointer,
      want,
      origin,
      specPointer: `${deploySpec}/requestBody`,
      why: 'what the deploy sent',
    });
    const fromAnswer = (pointer: string, origin: RuleOrigin = 'seed'): Agreement => ({
      pointer,
      want: answer[pointer.slice(1)],
      origin,
      specPointer: `${deploySpec}/responses/201`,
      why: 'what the deploy answered',
    });
    agree(run, retrieved.agent, retrieved.index, [
      fromAnswer('/agentId'),
      fromRequest('/name', sent.name),
      fromAnswer('/name'),
      fromRequest('/category', sent.category),
      fromRequest('/model', sent.model),
      fromRequest('/description', sent.description),
      fromRequest('/capabilities', sent.capabilities),
      fromRequest('/tokenomics/totalSupply', sent.initialSupply),
      fromRequest('/tokenomics/price', sent.pricePerToken),
      fromRequest('/tokenomics/revenueShare', sent.revenueShare),
      fromAnswer('/tokenAddress'),
      fromAnswer('/deployedAt'),
      fromAnswer('/status'),
    ]);
  });

  contractCheck('behaviour/deployAgent/defaults', async (run) => {
    const sent = requestExamples('deployAgent').at(-1) ?? {};
    const deployed = await deploy(run, sent);
    if (!deployed) return;
    const retrieved = await retrieve(run, String(deployed.answer.agentId));
    if (!retrieved) return;
    const defaultOf = (name: string): JsonValue | undefined =>
      resolveSchema(`/components/schemas/DeployRequest/properties/${name}`).schema.default;
    const assumed = (pointer: string, want: JsonValue | undefined, specPointer: string): Agreement => ({
      pointer,
      want,
      origin: 'assumption',
      specPointer,
      why: 'the default the spec documents for an omitted field',
    });
    agree(run, retrieved.agent, retrieved.index, [
      {
        pointer: '/name',
        want: sent.name,
        origin: 'seed',
        specPointer: `${deploySpec}/requestBody`,
        why: 'what the deploy sent',
      },
      {
        pointer: '/tokenomics/totalSupply',
        want: sent.initialSupply,
        origin: 'seed',
        specPointer: `${deploySpec}/requestBody`,
        why: 'what the deploy sent',
      },
      assumed(
        '/tokenomics/price',
        defaultOf('pricePerToken'),
        '/components/schemas/DeployRequest/properties/pricePerToken/default',
      ),
      assumed(
        '/tokenomics/revenueShare',
        defaultOf('revenueShare'),
        '/components/schemas/DeployRequest/properties/revenueShare/default',
      ),
      assumed('/description', '', '/components/schemas/Agent/properties/description'),
      assumed('/capabilities', [], '/components/schemas/Agent/properties/capabilities'),
      assumed('/status', 'active', '/components/schemas/AgentStatus'),
    ]);
  });

  contractCheck('behaviour/deployAgent/distinct-ids', async (run) => {
    const sent = requestExamples('deployAgent').at(-1) ?? {};
    const first = await deploy(run, sent);
    const second = await deploy(run, sent);
    if (!first || !second) return;
    if (first.answer.agentId === second.answer.agentId) {
      run.violate({
        rule: 'distinct-agent-ids',
        pointer: '/agentId',
        expected: 'an agentId different from the previous deploy',
        found: JSON.stringify(second.answer.agentId),
        origin: 'seed',
        specPointer: '/components/schemas/AgentId',
        message: 'two deploys returned the same agentId',
        exchange: second.index,
      });
    }
  });
});

describe('executeAgentTask', () => {
  contractCheck('behaviour/executeAgentTask/priorities', async (run) => {
    const agentId = await run.fixtureAgent();
    const priorities = resolveSchema('/components/schemas/TaskPriority').schema.enum;
    const base = requestExamples('executeAgentTask').at(-1) ?? {};
    for (const priority of [...(Array.isArray(priorities) ? priorities : []), undefined]) {
      const body = priority === undefined ? base : { ...base, priority };
      const { response, index } = await run.send({
        operationId: 'executeAgentTask',
        method: 'POST',
        path: `/v1/agents/${encodeURIComponent(agentId)}/execute`,
        contentType: 'application/json',
        body: JSON.stringify(body),
      });
      if (!response) continue;
      const label = priority === undefined ? 'no priority' : `priority ${String(priority)}`;
      if (response.status !== 200) {
        run.violate({
          rule: 'task-accepted',
          pointer: '',
          expected: 'status 200',
          found: String(response.status),
          origin: 'seed',
          specPointer: `${executeSpec}/responses/200`,
          message: `a valid task with ${label} on an active agent was not accepted (${response.status})`,
          exchange: index,
        });
        continue;
      }
      const submission = parse(response.body);
      if (isJsonObject(submission) && submission.status !== 'queued') {
        run.violate({
          rule: 'new-task-queued',
          pointer: '/status',
          expected: '"queued"',
          found: JSON.stringify(submission.status),
          origin: 'assumption',
          specPointer: executeSpec,
          message: `a new task (${label}) must be queued`,
          exchange: index,
        });
      }
    }
  });

  contractCheck('behaviour/executeAgentTask/unknown', async (run) => {
    const { response, index } = await run.send({
      operationId: 'executeAgentTask',
      method: 'POST',
      path: `/v1/agents/${unknownAgentId()}/execute`,
      contentType: 'application/json',
      body: JSON.stringify(requestExamples('executeAgentTask').at(-1)),
    });
    expect404(run, response?.status, index, `${executeSpec}/responses/404`);
  });
});

describe('getAgent', () => {
  contractCheck('behaviour/getAgent/unknown', async (run) => {
    const { response, index } = await run.send({
      operationId: 'getAgent',
      method: 'GET',
      path: `/v1/agents/${unknownAgentId()}`,
      contentType: undefined,
      body: undefined,
    });
    expect404(run, response?.status, index, `${retrieveSpec}/responses/404`);
  });
});

function unknownAgentId(): string {
  return `agt_contract_unknown_${runOptions.seed}`;
}

function expect404(run: CheckRun, status: number | undefined, exchange: number, specPointer: string): void {
  if (status === undefined || status === 404) return;
  const accepted = status >= 200 && status < 300;
  run.violate({
    rule: 'unknown-agent-404',
    pointer: '',
    expected: 'status 404',
    found: String(status),
    origin: accepted ? 'seed' : 'assumption',
    specPointer,
    message: `an agentId no deploy returned must be answered 404, got ${status}`,
    exchange,
  });
}
