// Provider states: what the fake's own state was when a request came (the state a pact interaction is given), and
// Pact's state-change protocol (POST /__mock/provider-states) that sets a fake up for each of those states again.
import {
  agentStatuses,
  isJsonObject,
  operations,
  type Agent,
  type AgentStatus,
  type OperationId,
  type ValidationError,
} from '../../spec/index.ts';
import { MockInputError } from '../domain/input-error.ts';
import { buildOverride, type BuiltOverride } from '../core/steering/overrides.ts';
import type { AgentSeed } from '../state/agent-seed.ts';
import type { SeedOutcome } from '../state/store/store-types.ts';

/** A provider state as a pact writes it: a name a person reads, and the values it is set up with. */
export interface ProviderState {
  name: string;
  params: Record<string, string | number>;
}

/** The path parameter that names an agent: the fake's records are agents, found by it. */
const AGENT_PARAMETER = 'agentId';
const TOKEN_REFUSED = 'the bearer token is refused';
const NO_AGENT = 'no agent has the requested agentId';
const agentExists = (status: AgentStatus): string => `an agent exists with status ${status}`;
/** The agent states' names, made once: the name is read on every request (mocks/pact-export/pact-log.ts). */
const AGENT_STATES = new Map(agentStatuses.map((status) => [status, agentExists(status)]));
const forcedAnswer = (operationId: OperationId, status: number): string =>
  `the registry answers ${operationId} with ${status}`;
const FORCED = /^the registry answers (\w+) with (\d{3})$/;

/** What the dispatch learnt of a request on its way (its trace, mocks/core/api-dispatch.ts's DispatchTrace). */
export interface AnswerTrace {
  /** A test's override or a scenario answered in the operation's place. */
  forced?: boolean;
  /** The path parameters, once the request reached its operation. */
  params?: Readonly<Record<string, string>>;
}

/** Where an agent's status is read (the store): no copy of the agent made. */
export interface AgentStatusReader {
  statusOf(agentId: string): AgentStatus | undefined;
}

/**
 * The provider state a request met: an answer a test forced (override, scenario) or a refused token, which the provider
 * must be told to produce; else the agent its path names, with its status, or that no agent has that id; else none.
 * The agent's status is read when the answer is recorded: no operation of the API changes an agent's status or
 * existence, so it is the status the request found.
 * @example providerStateOf('executeAgentTask', 409, { params: { agentId } }, store)
 * // { name: 'an agent exists with status paused', params: { agentId, status: 'paused' } }
 */
export function providerStateOf(
  operationId: OperationId,
  status: number,
  trace: AnswerTrace,
  agents: AgentStatusReader,
): ProviderState | undefined {
  if (trace.forced) return { name: forcedAnswer(operationId, status), params: { operationId, status } };
  if (status === 401) return { name: TOKEN_REFUSED, params: { operationId, status } };
  const agentId = trace.params?.[AGENT_PARAMETER];
  if (agentId === undefined) return undefined;
  const agentStatus = agents.statusOf(agentId);
  if (agentStatus === undefined) return { name: NO_AGENT, params: { agentId } };
  return { name: agentExists(agentStatus), params: { agentId, status: agentStatus } };
}

/**
 * The name of `providerStateOf`'s state ('' for none), without building the state: what every answer pays to learn
 * whether its exchange is new to the pact, with nothing allocated unless the answer was forced.
 * @example providerStateName('getAgent', 200, { params: { agentId } }, store) // 'an agent exists with status active'
 */
export function providerStateName(
  operationId: OperationId,
  status: number,
  trace: AnswerTrace,
  agents: AgentStatusReader,
): string {
  if (trace.forced) return forcedAnswer(operationId, status);
  if (status === 401) return TOKEN_REFUSED;
  const agentId = trace.params?.[AGENT_PARAMETER];
  if (agentId === undefined) return '';
  const agentStatus = agents.statusOf(agentId);
  return agentStatus === undefined ? NO_AGENT : (AGENT_STATES.get(agentStatus) ?? '');
}

/** A state-change request of Pact's protocol, as POST /__mock/provider-states takes it. */
export interface StateChange {
  state: string;
  params?: Record<string, unknown>;
  action?: 'setup' | 'teardown';
}

/**
 * What the provider states set up since the last reset: the operations they forced and the agents they set. The
 * console's "decided by" names a provider state for an answer that came from one (mocks/core/steering/exchange-detail.ts).
 */
export class ProviderStateMarks {
  readonly #operations = new Set<string>();
  readonly #agents = new Set<string>();

  forced(operationId: string): void {
    this.#operations.add(operationId);
  }

  agent(agentId: string): void {
    this.#agents.add(agentId);
  }

  clear(): void {
    this.#operations.clear();
    this.#agents.clear();
  }

  /**
   * Whether a provider state decided an answer: its forced answer, or the agent the request's path names.
   * @example marks.decided({ operationId: 'getAgent', forced: false, params: { agentId: 'agt_1' } })
   */
  decided(trace: { operationId: string | null; forced?: boolean; params?: Readonly<Record<string, string>> }): boolean {
    if (trace.forced) return trace.operationId !== null && this.#operations.has(trace.operationId);
    const agentId = trace.params?.[AGENT_PARAMETER];
    return agentId !== undefined && this.#agents.has(agentId);
  }
}

/** What setting a state up may change of the fake. */
export interface ProviderStateHost {
  /** Where the states set up are marked (the core's; its reset clears them). */
  readonly providerStates?: ProviderStateMarks;
  readonly store: {
    statusOf(agentId: string): AgentStatus | undefined;
    setStatus(agentId: string, status: AgentStatus): Agent | undefined;
    seedAgent(input: AgentSeed): SeedOutcome<Agent>;
  };
  setOverride(override: BuiltOverride): Promise<void>;
  /** Back to the seed: what a teardown does. */
  reset(): void;
  persist(): Promise<void>;
}

const refused = (path: string, message: string): MockInputError =>
  new MockInputError('The provider state', [{ path, message }]);

function stringParam(params: Record<string, unknown>, name: string): string {
  const value = params[name];
  if (typeof value !== 'string' || value === '') throw refused(`/params/${name}`, 'must be a non-empty string');
  return value;
}

/** The operation and status a forced state names: the name's own (`the registry answers getAgent with 500`), else params'. */
function forcedAnswerOf(name: string, params: Record<string, unknown>): { operationId: OperationId; status: number } {
  const named = FORCED.exec(name);
  const operationId = named?.[1] ?? stringParam(params, 'operationId');
  if (!operations.has(operationId as OperationId))
    throw refused(
      named ? '/state' : '/params/operationId',
      `names no operationId of spec/openapi.yaml: ${operationId}`,
    );
  return { operationId: operationId as OperationId, status: named ? Number(named[2]) : 401 };
}

/** Every state name `providerStateOf` writes, read back; undefined when the name is none of them. */
function parseStateName(
  name: string,
): { kind: 'agent'; status: AgentStatus } | { kind: 'no-agent' } | { kind: 'forced' } | undefined {
  if (name === NO_AGENT) return { kind: 'no-agent' };
  if (name === TOKEN_REFUSED) return { kind: 'forced' };
  const status = agentStatuses.find((candidate) => name === agentExists(candidate));
  if (status !== undefined) return { kind: 'agent', status };
  return FORCED.test(name) ? { kind: 'forced' } : undefined;
}

/** The states the fake knows, for the refusal of one it does not. */
const knownStates = [
  ...agentStatuses.map(agentExists),
  NO_AGENT,
  TOKEN_REFUSED,
  'the registry answers <operationId> with <status>',
];

/**
 * Sets the fake up for a provider state `providerStateOf` writes (action `setup`, the default), or takes it down again
 * (`teardown`: back to the seed). An agent state stores the agent with that id and status (a seeded agent, or the
 * catalogue's with its status set); a forced answer overrides the operation with the spec's example of that status.
 * Resolves with the values a Pact `ProviderState` generator may use; a state it does not know, or params that do not
 * fit it, throw a MockInputError naming the field.
 * @example await applyStateChange(core, { state: 'an agent exists with status paused', params: { agentId: 'agt_1' } })
 */
export async function applyStateChange(
  host: ProviderStateHost,
  change: StateChange,
): Promise<Record<string, string | number>> {
  // An interaction without a provider state: Pact's verifier still asks for the state "" around it.
  if (change.state === '') {
    if (change.action === 'teardown') {
      host.reset();
      await host.persist();
    }
    return {};
  }
  const parsed = parseStateName(change.state);
  if (parsed === undefined)
    throw refused('/state', `is no provider state the fake writes; it knows: ${knownStates.join('; ')}`);
  const params = isJsonObject(change.params) ? change.params : {};
  if (change.action === 'teardown') {
    host.reset();
    await host.persist();
    return {};
  }
  if (parsed.kind === 'forced') {
    const { operationId, status } = forcedAnswerOf(change.state, params);
    await host.setOverride(overrideFor(operationId, status));
    host.providerStates?.forced(operationId);
    return { operationId, status };
  }
  const agentId = stringParam(params, AGENT_PARAMETER);
  const existing = host.store.statusOf(agentId);
  host.providerStates?.agent(agentId);
  if (parsed.kind === 'no-agent') {
    if (existing !== undefined)
      throw refused('/params/agentId', `is an agent of the fake (${existing}), which cannot be removed`);
    return { agentId };
  }
  if (existing === undefined) seeded(host.store.seedAgent({ agentId, status: parsed.status }));
  else host.store.setStatus(agentId, parsed.status);
  await host.persist();
  return { agentId, status: parsed.status };
}

function seeded(outcome: SeedOutcome<Agent>): void {
  if (!outcome.ok)
    throw new MockInputError(
      'The provider state',
      outcome.errors.map((error: ValidationError) => ({ ...error, path: `/params${error.path}` })),
    );
}

/** The operation answered with the spec's example of `status`; a status it does not document is refused. */
function overrideFor(operationId: OperationId, status: number): BuiltOverride {
  try {
    return buildOverride(operationId, status, undefined, {}, true);
  } catch (error) {
    throw refused('/state', `${operationId} cannot answer ${status}: ${error instanceof Error ? error.message : ''}`);
  }
}
