import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Agent, DeployRequest, ExecuteRequest, OperationId, TaskSubmission } from './types.ts';
import { getAtPointer } from './json-pointer.ts';
import { openapiDocument } from './openapi-document.generated.ts';

// Type-level checks: `npm run typecheck` fails if a @ts-expect-error below stops being an error.
const agent: Agent = {
  agentId: 'agt_1',
  name: 'n',
  description: '',
  category: 'defi',
  model: 'claude-3',
  capabilities: [],
  tokenAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
  creator: 'user_1',
  tokenomics: { totalSupply: 1, circulatingSupply: 1, price: 1, marketCap: 1, revenueShare: 0 },
  performance: { totalRevenue: 0, tasksCompleted: 0, successRate: 0, averageResponseTime: 0 },
  statistics: { holders: 1, volume24h: 0, priceChange24h: 0 },
  status: 'active',
  deployedAt: '2026-11-20T14:32:05.000Z',
};

// @ts-expect-error a category outside the enum is not an Agent
const wrongCategory: Agent = { ...agent, category: 'lending' };
// @ts-expect-error every field is required
const missingField: Agent = { ...agent, statistics: undefined };
// @ts-expect-error a price is a number
const wrongPrice: Agent['tokenomics'] = { ...agent.tokenomics, price: '1' };
// @ts-expect-error deploy needs initialSupply
const incompleteDeploy: DeployRequest = { name: 'n', category: 'nft', model: 'gpt-4' };
// @ts-expect-error priority is low, normal or high
const wrongPriority: ExecuteRequest = { task: 't', priority: 'urgent' };

describe('generated types', () => {
  it('accept a valid Agent that the spec example also satisfies', () => {
    const example = getAtPointer(openapiDocument, '/components/examples/AgentTrading/value') as Agent;
    expect(Object.keys(example).sort()).toEqual(Object.keys(agent).sort());
    expectTypeOf(agent).toEqualTypeOf<Agent>();
  });

  it('type the enums and optional fields as the spec does', () => {
    expectTypeOf<Agent['status']>().toEqualTypeOf<'active' | 'paused' | 'deprecated'>();
    expectTypeOf<TaskSubmission['status']>().toEqualTypeOf<'queued' | 'processing' | 'completed' | 'failed'>();
    expectTypeOf<DeployRequest['revenueShare']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<OperationId>().toEqualTypeOf<'getAgent' | 'deployAgent' | 'executeAgentTask'>();
    expect([wrongCategory, missingField, wrongPrice, incompleteDeploy, wrongPriority]).toHaveLength(5);
  });
});
