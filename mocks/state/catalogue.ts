// The seeded catalogue of agents the fake starts with: faker text that fits each category, figures that agree with each other.
// faker's base alone, with the two English word lists it draws from generated beside it (catalogue-words.generated.ts).
import { faker } from '@faker-js/faker/locale/base';
import {
  agentCategories,
  agentModels,
  type Agent,
  type AgentCategory,
  type AgentModel,
  type AgentStatus,
} from '../../spec/index.ts';
import { createRandom } from '../domain/random.ts';
import { ADJECTIVES, BUZZ_NOUNS } from './catalogue-words.generated.ts';
import { BASE_COST, BASE_PROCESSING_MS } from './task-rules.ts';

/** Every category and model, in the order the catalogue cycles through them: the spec's enum order. */
export const CATEGORIES: readonly AgentCategory[] = agentCategories;
export const MODELS: readonly AgentModel[] = agentModels;

/** Default number of seeded agents: enough to cover every category × model and every status several times. */
export const DEFAULT_CATALOGUE_SIZE = 36;
/** Largest catalogue the fake makes (`--agents`), and accepts from a state database. */
export const MAX_CATALOGUE_SIZE = 1_000_000;
/** Seeded agents are deployed during the year before this date, so the same seed gives the same bytes on any day. */
export const CATALOGUE_EPOCH = Date.parse('2026-11-01T00:00:00.000Z');

// Stryker disable all: not pinned: the seeded catalogue's agents have ids no deploy returns, so no check can ask for them; their text and figures are the fake's own
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

interface CategoryFlavour {
  nouns: readonly string[];
  capabilities: readonly string[];
  describe: () => string;
}

const pick = <T>(items: readonly T[]): T => faker.helpers.arrayElement(items);

const FLAVOURS: Readonly<Record<AgentCategory, CategoryFlavour>> = {
  trading: {
    nouns: ['Trader', 'Scalper', 'Arbitrageur', 'Market Maker', 'Momentum Bot'],
    capabilities: [
      'market-analysis',
      'order-execution',
      'risk-management',
      'arbitrage',
      'portfolio-rebalancing',
      'signal-generation',
    ],
    describe: () =>
      `Trades ${pick(['SOL/USDC', 'JUP/SOL', 'BONK/SOL', 'ETH/USDC'])} on ${pick(['momentum', 'mean-reversion', 'breakout', 'order-book imbalance'])} signals with a ${faker.number.int({ min: 1, max: 5 })} % trailing stop.`,
  },
  analytics: {
    nouns: ['Analyst', 'Scout', 'Insight Engine', 'Data Miner', 'Oracle'],
    capabilities: [
      'on-chain-analytics',
      'sentiment-analysis',
      'reporting',
      'anomaly-detection',
      'forecasting',
      'dashboarding',
    ],
    describe: () =>
      `Tracks ${pick(['whale wallets', 'DEX volumes', 'token unlocks', 'validator performance'])} across ${faker.number.int({ min: 3, max: 40 })} protocols and reports ${pick(['hourly', 'daily', 'weekly'])} ${pick(['trends', 'anomalies', 'forecasts'])}.`,
  },
  social: {
    nouns: ['Community Manager', 'Influencer', 'Moderator', 'Herald', 'Storyteller'],
    capabilities: [
      'content-generation',
      'community-moderation',
      'sentiment-analysis',
      'scheduling',
      'engagement-tracking',
      'translation',
    ],
    describe: () =>
      `Runs the ${pick(BUZZ_NOUNS)} community on ${pick(['Discord', 'Telegram', 'X', 'Farcaster'])}: answers questions, ${pick(['moderates threads', 'posts daily recaps', 'welcomes newcomers'])} and ${pick(['tracks sentiment', 'drafts announcements', 'translates updates'])}.`,
  },
  gaming: {
    nouns: ['Game Master', 'Quest Designer', 'NPC Director', 'Speedrunner', 'Guild Keeper'],
    capabilities: [
      'npc-dialogue',
      'quest-generation',
      'matchmaking',
      'economy-balancing',
      'cheat-detection',
      'lore-writing',
    ],
    describe: () =>
      `Designs ${pick(['quests', 'boss fights', 'loot tables', 'dialogue trees'])} for ${pick(ADJECTIVES)} ${pick(['RPG', 'strategy', 'racing', 'card'])} games and keeps the in-game economy balanced.`,
  },
  defi: {
    nouns: ['Yield Farmer', 'Liquidity Manager', 'Vault Keeper', 'Lending Optimizer', 'Staking Steward'],
    capabilities: [
      'yield-optimization',
      'liquidity-provision',
      'liquidation-protection',
      'staking',
      'impermanent-loss-hedging',
      'protocol-monitoring',
    ],
    describe: () =>
      `Moves ${pick(['stablecoins', 'SOL', 'LSTs', 'LP positions'])} between ${pick(['lending markets', 'liquidity pools', 'staking vaults'])} to chase yield above ${faker.number.int({ min: 3, max: 25 })} % APY.`,
  },
  nft: {
    nouns: ['Floor Watcher', 'Curator', 'Mint Sniper', 'Rarity Ranker', 'Collection Scout'],
    capabilities: [
      'floor-tracking',
      'rarity-scoring',
      'mint-monitoring',
      'metadata-analysis',
      'wash-trade-detection',
      'collection-curation',
    ],
    describe: () =>
      `Watches ${faker.number.int({ min: 5, max: 200 })} NFT collections for ${pick(['floor drops', 'new mints', 'rare traits', 'wash trading'])} and ${pick(['alerts holders', 'ranks listings', 'curates a weekly gallery'])}.`,
  },
  automation: {
    nouns: ['Workflow Runner', 'Scheduler', 'Butler', 'Operator', 'Dispatcher'],
    capabilities: [
      'task-scheduling',
      'webhook-integration',
      'report-generation',
      'alerting',
      'data-pipelines',
      'wallet-automation',
    ],
    describe: () =>
      `Automates ${pick(['treasury reports', 'payroll in USDC', 'airdrop claims', 'wallet top-ups'])} every ${pick(['hour', 'day', 'week'])} and ${pick(['posts a summary', 'opens a ticket on failure', 'notifies the team'])}.`,
  },
};

/** One seeded agent, plus the failure count its successRate implies (the store needs it to update the rate). */
export interface CatalogueEntry {
  agent: Agent;
  tasksFailed: number;
}

const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** Category, model and status of catalogue agent `index`: a function of the index alone, so lists need no generation. */
export function catalogueShape(index: number): { category: AgentCategory; model: AgentModel; status: AgentStatus } {
  return {
    category: CATEGORIES[index % CATEGORIES.length] ?? 'trading',
    model: MODELS[index % MODELS.length] ?? 'gpt-4',
    // Every 12th agent starting at 5 is paused and at 11 deprecated: 36 agents hold 3 of each, the rest are active.
    status: index % 12 === 5 ? 'paused' : index % 12 === 11 ? 'deprecated' : 'active',
  };
}

// Stryker restore all

/**
 * The ids of a catalogue, in order: unique, opaque, and cheap to make (no faker), so a store of 100,000 seeded agents
 * keeps only these and generates an agent's record when it is asked for.
 * @example catalogueIds(42, 3) // ['agt_…', 'agt_…', 'agt_…'], the same on every run
 */
export function catalogueIds(seed: number, size: number): string[] {
  const random = createRandom((seed ^ 0x2545f491) >>> 0);
  const ids: string[] = [];
  const seen = new Set<string>();
  while (ids.length < size) {
    const id = `agt_${random.string(16)}`;
    if (seen.has(id)) continue;
    seen.add(id);
    ids.push(id);
  }
  return ids;
}

// Stryker disable all: not pinned: the seeded catalogue's agents have ids no deploy returns, so no check can ask for them; their text and figures are the fake's own
/**
 * Catalogue agent `index` of `seed`: faker is seeded with (seed, index), so each agent is generated on its own and
 * always the same, whatever was generated before.
 * @example catalogueEntry(42, 0, catalogueIds(42, 1)[0]).agent.category // 'trading'
 */
export function catalogueEntry(seed: number, index: number, agentId: string): CatalogueEntry {
  // The en faker is one shared instance; seeding it right before a synchronous run makes the run deterministic.
  faker.seed([seed, index]);
  const { category, model, status } = catalogueShape(index);
  const flavour = FLAVOURS[category];
  const name = `${pick(ADJECTIVES).replace(/^./, (c) => c.toUpperCase())} ${pick(flavour.nouns)}`;
  const totalSupply = pick([100_000, 250_000, 500_000, 1_000_000, 10_000_000, 100_000_000]);
  const circulatingSupply = Math.round(totalSupply * faker.number.float({ min: 0.3, max: 1, fractionDigits: 2 }));
  const price = faker.number.float({ min: 0.001, max: 2, fractionDigits: 4 });
  const tasksCompleted = faker.number.int({ min: 0, max: 5000 });
  const successRate = tasksCompleted === 0 ? 0 : faker.number.float({ min: 0.7, max: 0.995, fractionDigits: 3 });
  const tasksFailed = tasksCompleted === 0 ? 0 : Math.round((tasksCompleted * (1 - successRate)) / successRate);
  const averageResponseTime =
    tasksCompleted === 0
      ? 0
      : faker.number.int({ min: BASE_PROCESSING_MS[model] / 2, max: BASE_PROCESSING_MS[model] * 2 });
  const marketCap = price * circulatingSupply;
  const agent: Agent = {
    agentId,
    name,
    description: flavour.describe(),
    category,
    model,
    capabilities: faker.helpers.arrayElements(flavour.capabilities, { min: 1, max: 4 }),
    tokenAddress: faker.string.fromCharacters(BASE58, 44),
    creator: `user_${faker.string.hexadecimal({ length: 6, casing: 'lower', prefix: '' })}`,
    tokenomics: {
      totalSupply,
      circulatingSupply,
      price,
      marketCap,
      revenueShare: faker.number.float({ min: 0, max: 0.5, fractionDigits: 2 }),
    },
    performance: {
      totalRevenue: round(tasksCompleted * BASE_COST[model] * faker.number.float({ min: 1, max: 1.6 }), 2),
      tasksCompleted,
      successRate,
      averageResponseTime,
    },
    statistics: {
      holders: Math.min(circulatingSupply, faker.number.int({ min: 1, max: 5000 })),
      volume24h: status === 'active' ? round(marketCap * faker.number.float({ min: 0, max: 0.2 }), 2) : 0,
      priceChange24h: status === 'active' ? faker.number.float({ min: -25, max: 25, fractionDigits: 1 }) : 0,
    },
    status,
    deployedAt: new Date(
      Math.floor(
        faker.date.between({ from: CATALOGUE_EPOCH - 365 * 86_400_000, to: CATALOGUE_EPOCH - 86_400_000 }).getTime() /
          1000,
      ) * 1000,
    ).toISOString(),
  };
  return { agent, tasksFailed };
}

/**
 * The seeded catalogue: `size` agents, byte-identical for the same seed and size.
 * Agent i has category CATEGORIES[i % 7] and model MODELS[i % 4]; agents 5, 17, 29… are paused, 11, 23, 35… deprecated.
 * @example createCatalogue(42)[0].agent.agentId // the same id on every run
 */
export function createCatalogue(seed: number, size = DEFAULT_CATALOGUE_SIZE): CatalogueEntry[] {
  return catalogueIds(seed, size).map((agentId, index) => catalogueEntry(seed, index, agentId));
}
