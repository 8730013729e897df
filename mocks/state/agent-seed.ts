// Typed seeding of an agent: a partial record completed from the seed, then checked against the spec's schemas and the
// fake's own rules (the figures the store keeps consistent), so a seeded agent is one the fake could have produced.
// Stryker disable all: not reached: seeding is the control plane's and the test API's (/__mock/, setupMockServer), never the API's the contract suite checks
import { isJsonObject, validateSchema, type Agent, type ValidationError } from '../../spec/index.ts';
import type { CatalogueEntry } from './catalogue.ts';
import { agentRecordErrors } from './agent-bounds.ts';

type Nested = 'tokenomics' | 'performance' | 'statistics';

/**
 * The fields of an agent to seed, every one optional (nested figures too); `tasksFailed` is the failure count behind
 * successRate, which the API does not show.
 * @example const seed: AgentSeed = { status: 'deprecated', performance: { tasksCompleted: 40 } };
 */
export type AgentSeed = { [F in Exclude<keyof Agent, Nested>]?: Agent[F] } & { [F in Nested]?: Partial<Agent[F]> } & {
  tasksFailed?: number;
};

/** A seeded agent ready to store, or every reason it cannot be. */
export type SeededAgent = { ok: true; agent: Agent; tasksFailed: number } | { ok: false; errors: ValidationError[] };

const NESTED: readonly Nested[] = ['tokenomics', 'performance', 'statistics'];
const round4 = (value: number): number => Math.round(value * 10_000) / 10_000;
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/**
 * Completes `input` (anything: it is checked) from `generated` and checks it; `taken` says whether an agentId is used.
 * Derived figures not given follow the given ones: circulatingSupply = totalSupply, marketCap = price × circulatingSupply,
 * successRate from tasksCompleted and tasksFailed. The status is `active` unless given.
 * @example buildSeededAgent({ name: 'x'.repeat(300) }, entry, () => false).ok // false: /name must NOT have more than 100 characters
 */
export function buildSeededAgent(
  input: unknown,
  generated: CatalogueEntry,
  taken: (agentId: string) => boolean,
): SeededAgent {
  if (!isJsonObject(input)) return { ok: false, errors: [{ path: '', message: 'must be an object' }] };
  const { tasksFailed: failedInput, ...fields } = input;
  if (failedInput !== undefined && !isCount(failedInput))
    return { ok: false, errors: [{ path: '/tasksFailed', message: 'must be an integer >= 0' }] };
  const merged: Record<string, unknown> = { ...structuredClone(generated.agent), status: 'active' };
  for (const [key, value] of Object.entries(structuredClone(fields)))
    merged[key] =
      NESTED.includes(key as Nested) && isJsonObject(value) ? { ...(merged[key] as object), ...value } : value;
  const derived = deriveFigures(merged, fields, failedInput, generated.tasksFailed);
  const schema = validateSchema('Agent', merged, { strict: true });
  if (!schema.ok) return { ok: false, errors: schema.errors };
  const agent = merged as Agent;
  const errors = [...agentRecordErrors(agent), ...ruleErrors(agent, derived.tasksFailed, input)];
  if (typeof fields.agentId === 'string' && taken(fields.agentId))
    errors.push({ path: '/agentId', message: 'is already taken by another agent' });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, agent, tasksFailed: derived.tasksFailed };
}

/** Fills the figures the caller did not give from those it gave; returns the failure count. */
function deriveFigures(
  agent: Record<string, unknown>,
  given: Record<string, unknown>,
  failedInput: number | undefined,
  generatedFailed: number,
): { tasksFailed: number } {
  const tokenomics = agent.tokenomics as Record<string, unknown>;
  const performance = agent.performance as Record<string, unknown>;
  const givenTokenomics = isJsonObject(given.tokenomics) ? given.tokenomics : {};
  const givenPerformance = isJsonObject(given.performance) ? given.performance : {};
  if (givenTokenomics.totalSupply !== undefined && givenTokenomics.circulatingSupply === undefined)
    tokenomics.circulatingSupply = tokenomics.totalSupply;
  if (givenTokenomics.marketCap === undefined && typeof tokenomics.price === 'number')
    tokenomics.marketCap = tokenomics.price * Number(tokenomics.circulatingSupply);
  const figuresGiven = failedInput !== undefined || Object.keys(givenPerformance).length > 0;
  if (!figuresGiven || !isCount(performance.tasksCompleted)) return { tasksFailed: generatedFailed };
  const completed = performance.tasksCompleted;
  const rate = givenPerformance.successRate;
  let failed = failedInput ?? 0;
  if (failedInput === undefined && typeof rate === 'number' && rate > 0 && rate <= 1)
    failed = Math.round((completed * (1 - rate)) / rate);
  if (rate === undefined)
    performance.successRate = completed + failed === 0 ? 0 : round4(completed / (completed + failed));
  if (givenPerformance.averageResponseTime === undefined && completed + failed === 0)
    performance.averageResponseTime = 0;
  if (givenPerformance.totalRevenue === undefined && completed === 0) performance.totalRevenue = 0;
  return { tasksFailed: failed };
}

/** The fake's own rules between an agent's figures (what deploys and settled tasks always keep true). */
function ruleErrors(agent: Agent, tasksFailed: number, given: Record<string, unknown>): ValidationError[] {
  const errors: ValidationError[] = [];
  const { tokenomics, performance } = agent;
  if (tokenomics.circulatingSupply > tokenomics.totalSupply)
    errors.push({
      path: '/tokenomics/circulatingSupply',
      message: `must be at most totalSupply (${tokenomics.totalSupply})`,
    });
  const cap = tokenomics.price * tokenomics.circulatingSupply;
  if (Math.abs(tokenomics.marketCap - cap) > 1e-9 * Math.max(1, cap))
    errors.push({ path: '/tokenomics/marketCap', message: `must be price × circulatingSupply (${cap})` });
  const finished = performance.tasksCompleted + tasksFailed;
  if (performance.tasksCompleted === 0 && performance.successRate !== 0)
    errors.push({ path: '/performance/successRate', message: 'must be 0 while tasksCompleted is 0' });
  if (performance.tasksCompleted > 0 && performance.successRate === 0)
    errors.push({ path: '/performance/successRate', message: 'must be above 0 while tasksCompleted is above 0' });
  const explicitPair =
    given.tasksFailed !== undefined && isJsonObject(given.performance) && given.performance.successRate !== undefined;
  if (explicitPair && finished > 0 && Math.abs(performance.successRate - performance.tasksCompleted / finished) > 1e-4)
    errors.push({
      path: '/performance/successRate',
      message: `must be tasksCompleted / (tasksCompleted + tasksFailed) = ${round4(performance.tasksCompleted / finished)}`,
    });
  if (finished === 0 && performance.averageResponseTime !== 0)
    errors.push({ path: '/performance/averageResponseTime', message: 'must be 0 while no task has finished' });
  if (performance.tasksCompleted === 0 && performance.totalRevenue !== 0)
    errors.push({ path: '/performance/totalRevenue', message: 'must be 0 while tasksCompleted is 0' });
  return errors;
}
