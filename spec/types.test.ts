import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  Agent,
  BodyOperationId,
  DeployRequest,
  ExecuteRequest,
  OperationId,
  PathParameters,
  RequestBodies,
  TaskPriority,
  TaskSubmission,
  WithDefaults,
} from './types.ts';
import { getAtPointer } from './json-pointer.ts';
import { getSchemaValidator } from './validators/schema-compiler.ts';
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
const _wrongCategory: Agent = { ...agent, category: 'lending' };
// @ts-expect-error every field is required
const _missingField: Agent = { ...agent, statistics: undefined };
// @ts-expect-error a price is a number
const _wrongPrice: Agent['tokenomics'] = { ...agent.tokenomics, price: '1' };
// @ts-expect-error deploy needs initialSupply
const _incompleteDeploy: DeployRequest = { name: 'n', category: 'nft', model: 'gpt-4' };
// @ts-expect-error priority is low, normal or high
const _wrongPriority: ExecuteRequest = { task: 't', priority: 'urgent' };

describe('generated types', () => {
  it('accept an Agent that the schema of the spec accepts too, with the fields it requires', () => {
    // The literal above type-checks as Agent; the document must agree that it is one, field for field.
    expect(getSchemaValidator('/components/schemas/Agent', 'strict')(agent)).toBe(true);
    expect(Object.keys(agent).sort()).toEqual(
      [...((getAtPointer(openapiDocument, '/components/schemas/Agent/required') as string[] | undefined) ?? [])].sort(),
    );
  });

  it('type the enums and optional fields as the spec does', () => {
    expectTypeOf<Agent['status']>().toEqualTypeOf<'active' | 'paused' | 'deprecated'>();
    expectTypeOf<TaskSubmission['status']>().toEqualTypeOf<'queued' | 'processing' | 'completed' | 'failed'>();
    expectTypeOf<DeployRequest['revenueShare']>().toEqualTypeOf<number | undefined>();
    // The service description's operations are OperationIds; the spec's other operations join them (and their order)
    // with no edit here. OperationId stays a union of literals, never widened to string.
    expectTypeOf<'getAgent' | 'deployAgent' | 'executeAgentTask'>().toExtend<OperationId>();
    expectTypeOf<string>().not.toExtend<OperationId>();
  });

  it('derive the body operations, their defaulted fields and path parameters from the generated types', () => {
    expectTypeOf<'deployAgent' | 'executeAgentTask'>().toExtend<BodyOperationId>();
    expectTypeOf<'getAgent'>().not.toExtend<BodyOperationId>();
    expectTypeOf<RequestBodies['executeAgentTask']['priority']>().toEqualTypeOf<TaskPriority>();
    expectTypeOf<RequestBodies['deployAgent']['revenueShare']>().toEqualTypeOf<number>();
    expectTypeOf<RequestBodies['deployAgent']['description']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<PathParameters<'getAgent'>>().toEqualTypeOf<{ agentId: string }>();
    expectTypeOf<WithDefaults<'DeployRequest'>>().toEqualTypeOf<RequestBodies['deployAgent']>();
    expectTypeOf<WithDefaults<'ExecuteRequest'>['priority']>().toEqualTypeOf<TaskPriority>();
    expectTypeOf<PathParameters<'deployAgent'>>().toEqualTypeOf<Record<string, never>>();
  });
});
