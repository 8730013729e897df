// A violation inside an array item, end to end: a version of the spec with a list of agents (`{ items: Agent[] }`,
// the page itself a decision of the spec) and an answer whose second item lacks `tokenomics`, which the service
// description requires of every agent record. The response checker names the item schema's keyword and origin seed, and
// the contract suite's --seed-only keeps it a failure, while a missing field the spec only assumed becomes a warning.
import { describe, expect, it } from 'vitest';
import { createContractSession, emptyRecord, finishCheck } from '../../contract-tests/contract-check.ts';
import { checkResponse, getAtPointer, openapiDocument, type JsonObject, type OperationId } from '../../spec/index.ts';

/** spec/openapi.yaml with `GET /v1/fixture-agents`, answering a page of the spec's own Agent schema. */
function withList(): JsonObject {
  const document = structuredClone(openapiDocument);
  const schemas = getAtPointer(document, '/components/schemas') as JsonObject;
  schemas.FixtureAgentPage = {
    type: 'object',
    required: ['items'],
    'x-assumption': 'The page is a decision of the fixture.',
    properties: { items: { type: 'array', maxItems: 100, items: { $ref: '#/components/schemas/Agent' } } },
  };
  (document.paths as JsonObject)['/v1/fixture-agents'] = {
    get: {
      operationId: 'listFixtureAgents',
      responses: {
        '200': {
          description: 'A page of agents.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/FixtureAgentPage' } } },
        },
      },
    },
  };
  return document;
}

const agent = getAtPointer(openapiDocument, '/components/examples/AgentTrading/value') as JsonObject;
const without = (field: string): JsonObject =>
  Object.fromEntries(Object.entries(agent).filter(([key]) => key !== field));

function seedOnlyOutcome(items: JsonObject[]) {
  const check = checkResponse(
    {
      operationId: 'listFixtureAgents' as OperationId,
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ items }),
    },
    withList(),
  );
  const record = emptyRecord('conformance/listFixtureAgents/200', 'conformance', 'listFixtureAgents', 'a page');
  record.violations.push(
    ...check.violations.map((violation) => ({ ...violation, check: 'conformance' as const, exchange: 0 })),
  );
  const session = createContractSession({
    baseUrl: 'http://127.0.0.1:9',
    token: 'unused',
    maxWrites: 0,
    readOnly: true,
    agentId: undefined,
    seedOnly: true,
    runs: 1,
    seed: 1,
    timeoutMs: 1,
    replay: undefined,
  });
  let failure = '';
  try {
    finishCheck(session, record);
  } catch (error) {
    failure = String(error);
  }
  return { check, record, failure };
}

describe('a violation inside an array item', () => {
  it('is reported with the item schema pointer and origin seed, and stays an error under --seed-only', () => {
    const { check, record, failure } = seedOnlyOutcome([agent, without('tokenomics')]);
    expect(check.violations.map(({ pointer, specPointer, origin }) => ({ pointer, specPointer, origin }))).toEqual([
      { pointer: '/items/1/tokenomics', specPointer: '/components/schemas/Agent/required', origin: 'seed' },
    ]);
    expect(record.outcome).toBe('failed');
    expect(failure).toContain('/items/1/tokenomics');
  });

  it('of a member the spec only assumed becomes a warning under --seed-only', () => {
    const { check, record } = seedOnlyOutcome([without('name')]);
    expect(check.violations.map(({ specPointer, origin }) => ({ specPointer, origin }))).toEqual([
      { specPointer: '/components/schemas/Agent/required', origin: 'assumption' },
    ]);
    expect(record.outcome).toBe('passed');
    expect(record.warnings.map((warning) => warning.pointer)).toEqual(['/items/0/name']);
  });
});
