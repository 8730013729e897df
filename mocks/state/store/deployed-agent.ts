// A deployed agent: the record a deploy keeps (the request's fields, its defaults filled in by the spec's validator, and
// what the store drew for it) and what the deploy operation answers of it.
import type { DeployResult, WithDefaults } from '../../../spec/index.ts';
import type { AgentRecord } from '../storage.ts';

/** What the store draws for a deploy: the agent's id, its token's address and the deploy time's ISO text. */
interface DeployDraws {
  agentId: string;
  tokenAddress: string;
  deployedAt: string;
}

/** The record a deploy of `request` by `creator` keeps: an active agent with no task yet. */
export function deployedRecord(
  request: WithDefaults<'DeployRequest'>,
  creator: string,
  drawn: DeployDraws,
): AgentRecord {
  const price = request.pricePerToken;
  const supply = request.initialSupply;
  return {
    agentId: drawn.agentId,
    name: request.name,
    // Stryker disable next-line StringLiteral: not pinned: the empty description of a deploy that sent none is the spec's decision; the description shows no default
    description: request.description ?? '',
    category: request.category,
    model: request.model,
    capabilitiesJson: request.capabilities ? JSON.stringify(request.capabilities) : '[]',
    tokenAddress: drawn.tokenAddress,
    creator,
    totalSupply: supply,
    circulatingSupply: supply,
    price,
    // Stryker disable next-line ArithmeticOperator: not pinned: marketCap as price × supply is the spec's assumption; the description says only that it is a decimal number
    marketCap: price * supply,
    revenueShare: request.revenueShare,
    totalRevenue: 0,
    tasksCompleted: 0,
    successRate: 0,
    averageResponseTime: 0,
    holders: 1,
    volume24h: 0,
    priceChange24h: 0,
    status: 'active',
    deployedAt: drawn.deployedAt,
    tasksFailed: 0,
    catalogueIndex: undefined,
    json: undefined,
  };
}

/** What the deploy operation answers of a deployed agent's record. */
export function deployResult(record: AgentRecord): DeployResult {
  return {
    agentId: record.agentId,
    name: record.name,
    tokenAddress: record.tokenAddress,
    marketCap: record.marketCap,
    holders: record.holders,
    status: record.status,
    deployedAt: record.deployedAt,
  };
}
