// The fake's state and the three operations over it: the seeded catalogue cache, the agent table, the task ledger.
// Where agents and tasks are kept is the storage's business (its interface is ./storage.ts, its backends are under
// mocks/storage/): in memory, or durable on disk.
import {
  validateRequestBody,
  type Agent,
  type AgentStatus,
  type DeployRequest,
  type DeployResult,
  type TaskSubmission,
  type ValidationError,
  type WithDefaults,
} from '../../spec/index.ts';
import { agentJson, agentRecord, agentView } from './agent-record.ts';
import { buildSeededAgent } from './agent-seed.ts';
import { catalogueEntry, DEFAULT_CATALOGUE_SIZE } from './catalogue.ts';
import { CatalogueCache } from './catalogue-cache.ts';
import type { Clock } from '../domain/clock.ts';
import { MockInputError } from '../domain/input-error.ts';
import { createRandom, type Random } from '../domain/random.ts';
import { StorageWriteError, type AgentRecord, type AgentTable, type Storage } from './storage.ts';
import { TaskLedger } from './task-ledger.ts';
import { taskStatusAt, type TaskRecord, type TaskState } from './task-lifecycle.ts';
import { planTask } from './task-rules.ts';
import { checkTaskSeed, seededTaskRecord } from './task-seed.ts';

/**
 * Default bound of the task history (the oldest are forgotten beyond it) and of unfinished tasks (beyond it the one that
 * would finish first is settled ahead of time), so memory stays flat under any load.
 */
export const DEFAULT_MAX_TASKS = 10_000;
/**
 * Deployed agents kept at most (`--max-agents`); a deploy beyond it is answered 503 until a reset. An agent costs
 * about 0.55 KB of heap (1.4 KB of RSS) as typically deployed, 4.7 KB of heap (9.2 KB of RSS) at the schema's maximum
 * field sizes (benchmarks/probes/agent-memory.ts; docs/security.md).
 */
export const DEFAULT_MAX_AGENTS = 1_000_000;
/** Default share of tasks that fail, decided per task from the seeded random source. */
export const DEFAULT_FAILURE_RATIO = 0.1;
/** Name of the document that holds the random source's state in durable storage. */
const RANDOM_DOCUMENT = 'random';

export interface StoreOptions {
  /** Seed of the catalogue and of every later random choice (ids, addresses, task outcomes). */
  seed: number;
  clock: Clock;
  /** Number of seeded agents (default 36). */
  catalogueSize?: number;
  /** Share of tasks that end `failed`, 0..1, asked at each submission (default 0.1; the core passes the scenarios'). */
  failureRatio?: number | (() => number);
  /** Bound of the task history (default 10,000). */
  maxTasks?: number;
  /** Deployed agents kept at most (default DEFAULT_MAX_AGENTS); the seeded catalogue does not count. */
  maxAgents?: number;
  /**
   * Where agents, tasks and the random state live, plugged in where the fake is assembled (the core's default is the
   * memory storage): the store knows only the interface. A durable one is resumed from.
   */
  storage: Storage;
  /**
   * The random state the store starts from and every reset returns to (default: the seed's stream). Processes sharing
   * one storage each take their own, so the ids they draw never collide.
   */
  randomStart?: number;
  /**
   * The seeded catalogue to serve (default: made from `seed` and `catalogueSize`). It is read-only to the store, so the
   * sessions of one fake share their seed's one copy, each keeping only the agents it changed.
   */
  catalogue?: CatalogueCache;
  /**
   * Whether the store may keep one more record (default: always; deploys stay bounded by `maxAgents`). A session's
   * store asks its share of `--session-records`; beyond it whatever would add a record throws a StorageWriteError
   * before changing anything, which the core answers 503 `state-not-saved`.
   */
  hasRoom?: () => boolean;
}

/** One line of the agent list of the control plane. */
export type AgentSummary = Pick<Agent, 'agentId' | 'name' | 'category' | 'model' | 'status'>;

export type SubmitResult =
  | { ok: true; submission: TaskSubmission; task: TaskRecord }
  | { ok: false; reason: 'agent-not-found' }
  | { ok: false; reason: 'agent-not-active'; status: AgentStatus };

/** What a seeding call made, or why not: the status a control-plane answer takes and each bad field. */
export type SeedOutcome<T> = { ok: true; value: T } | { ok: false; status: 400 | 404 | 409; errors: ValidationError[] };

/**
 * The deploy the core's operation calls with a body the spec's validator already passed (defaults filled in); the public
 * `deploy` validates first. Not exported by any package entry.
 */
export const deployValidated: unique symbol = Symbol('deployValidated');

// Stryker disable all: not pinned: how a finished task adds to its agent's figures; task transitions are not shown in the description
const round4 = (value: number): number => Math.round(value * 10_000) / 10_000;
/**
 * A figure a settled task adds to (revenue, volume), to 4 decimals. Above 2^53 / 10^4 a double has no 4th decimal to
 * round, and × 10^4 would overflow near the largest double (a seeded 1e305 became Infinity, served as null); a sum past
 * the largest double stays at it, so a figure is always a finite number the spec accepts.
 */
const settledSum = (figure: number, added: number): number => {
  const sum = figure + added;
  if (!Number.isFinite(sum)) return Number.MAX_VALUE;
  return Math.abs(sum) < 2 ** 53 / 10_000 ? round4(sum) : sum;
};
// Stryker restore all
// A stream distinct from faker's, so deploy ids never replay catalogue ids.
const randomSeed = (seed: number): number => (seed ^ 0x9e3779b9) >>> 0;

// Stryker disable all: not reached: the starting agents of serve --from-recording, which the contract suite never starts
/** A record of a starting agent; its failed tasks are what its success rate says of them, so later tasks add up. */
function startingRecord(agent: Agent): AgentRecord {
  const { tasksCompleted, successRate } = agent.performance;
  const tasksFailed = successRate > 0 ? Math.round(tasksCompleted / successRate - tasksCompleted) : 0;
  return agentRecord(agent, tasksFailed, undefined);
}
// Stryker restore all

/**
 * The stateful store.
 * @example
 * const store = new AgentStore({ seed: 42, clock: createFixedClock(Date.parse('2026-11-20T12:00:00Z')), storage: createMemoryStorage() });
 * const result = store.deploy({ name: 'Bot', category: 'defi', model: 'gpt-4', initialSupply: 1000 }, 'user_1');
 * store.get(result.agentId)?.status; // 'active'
 */
export class AgentStore {
  readonly seed: number;
  readonly clock: Clock;
  readonly catalogue: CatalogueCache;
  readonly storage: Storage;
  readonly maxAgents: number;
  #failureRatio: () => number;
  #random: Random;
  #randomStart: number;
  #agents: AgentTable;
  #ledger: TaskLedger;
  #hasRoom: (() => boolean) | undefined;
  /** Catalogue agents kept as records since the last reset: the changed ones (a session's catalogue is shared). */
  #catalogueCopies = 0;
  /** Agents kept besides the catalogue from the start and after every reset (serve --from-recording). */
  #starting: readonly Agent[] = [];
  /** The last deploy time and its ISO text: under load many deploys fall in one millisecond, and toISOString is not free. */
  #isoMs = Number.NaN;
  #iso = '';

  constructor(options: StoreOptions) {
    this.seed = options.seed;
    this.clock = options.clock;
    const ratio = options.failureRatio ?? DEFAULT_FAILURE_RATIO;
    // Stryker disable next-line ArrowFunction: not reached: a failure ratio given as a function is the core's scenarios', which the suite never sets
    this.#failureRatio = typeof ratio === 'number' ? () => ratio : ratio;
    this.storage = options.storage;
    this.maxAgents = options.maxAgents ?? DEFAULT_MAX_AGENTS;
    this.#agents = this.storage.agents;
    this.catalogue =
      options.catalogue ?? new CatalogueCache(options.seed, options.catalogueSize ?? DEFAULT_CATALOGUE_SIZE);
    this.#hasRoom = options.hasRoom;
    this.#ledger = new TaskLedger(options.maxTasks ?? DEFAULT_MAX_TASKS, this.storage.tasks, (task) =>
      this.#apply(task),
    );
    this.#randomStart = options.randomStart ?? randomSeed(this.seed);
    this.#random = createRandom(randomSeed(this.seed));
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,CallExpression: not reached: durable storage (--state-dir, PostgreSQL); the suite runs against the in-memory fake
    if (this.storage.durable && typeof this.storage.readDocument(RANDOM_DOCUMENT) === 'number') this.resume();
    else this.reset();
    // A batch that could not be written is rolled back on disk; memory follows what is stored.
    this.storage.onRollback(() => this.resume());
  }

  // Stryker disable next-line BlockStatement: not reached: the control plane's and the test API's, which the contract suite never calls
  get maxTasks(): number {
    return this.#ledger.maxTasks;
  }

  /** Back to the seeded catalogue: deployed agents and all tasks are forgotten, the random source restarts. */
  reset(): void {
    this.#random = createRandom(this.#randomStart);
    this.#agents.clear();
    this.#catalogueCopies = 0;
    this.#ledger.clear();
    // Stryker disable next-line CallExpression: not reached: the starting agents of serve --from-recording, which the contract suite never starts
    for (const agent of this.#starting) this.#agents.add(startingRecord(agent));
    this.#saveRandom();
  }

  // Stryker disable all: not reached: the starting agents of serve --from-recording, which the contract suite never starts
  /**
   * Agents the store starts from besides the seeded catalogue, with their figures as given (a recording of a real
   * server): added now, and again by every reset. Each must already have been checked (mocks/storage/stored-records.ts).
   */
  setStartingAgents(agents: readonly Agent[]): void {
    this.#starting = agents.map((agent) => structuredClone(agent));
    for (const agent of this.#starting) this.#agents.add(startingRecord(agent));
  }
  // Stryker restore all

  // Stryker disable all: not reached: resuming from durable storage (--state-dir, PostgreSQL); the suite runs against the in-memory fake
  /** Takes up what durable storage holds (at start, and after a failed write was rolled back). */
  resume(): void {
    const state = this.storage.readDocument(RANDOM_DOCUMENT);
    this.#random = createRandom(typeof state === 'number' ? state : this.#randomStart);
    this.#ledger.load(this.storage.tasks.saved());
  }
  // Stryker restore all

  // Stryker disable all: not reached: the control plane's and the test API's (/__mock/, setupMockServer), which the contract suite never calls
  get agentCount(): number {
    return this.catalogue.size + this.#agents.deployedCount;
  }
  // Stryker restore all

  /** Whether deployed agents reached `maxAgents`: a deploy is then refused until a reset. */
  get full(): boolean {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: not pinned: the --max-agents memory bound (503); the description shows no limits
    return this.#agents.deployedCount >= this.maxAgents;
  }

  // Stryker disable all: not reached: the control plane's and the test API's (/__mock/, setupMockServer), which the contract suite never calls
  /** Agent records held beside the catalogue: deployed and seeded agents, and catalogue agents changed since a reset. */
  get heldRecords(): number {
    return this.#agents.deployedCount + this.#catalogueCopies;
  }
  // Stryker restore all

  // Stryker disable all: not reached: the control plane's and the test API's (/__mock/, setupMockServer), which the contract suite never calls
  get taskCount(): number {
    return this.#ledger.size;
  }
  // Stryker restore all

  // Stryker disable all: not reached: the control plane's and the test API's (/__mock/, setupMockServer), which the contract suite never calls
  /** The agent, with every task finished by now applied to its figures. */
  get(agentId: string): Agent | undefined {
    this.settle();
    const record = this.#agents.get(agentId);
    if (record) return agentView(record);
    const index = this.catalogue.indexOf(agentId);
    return index === undefined ? undefined : this.catalogue.entry(index).agent;
  }
  // Stryker restore all

  /**
   * The agent's status, or undefined when no agent has the id: nothing settled or copied, so a request's answer can
   * record the state it was given (the provider state of a pact, mocks/pact-export/) at no cost worth measuring.
   */
  statusOf(agentId: string): AgentStatus | undefined {
    const record = this.#agents.get(agentId);
    if (record) return record.status;
    const index = this.catalogue.indexOf(agentId);
    return index === undefined ? undefined : this.catalogue.status(index);
  }

  /** The agent's JSON text (cached): what GET /v1/agents/{agentId} answers. */
  getJson(agentId: string): string | undefined {
    // Stryker disable next-line CallExpression: not pinned: what finished tasks add to an agent's figures; task transitions are not shown
    this.settle();
    const record = this.#agents.get(agentId);
    if (record) {
      record.json ??= agentJson(record);
      return record.json;
    }
    return this.catalogue.json(agentId);
  }

  // Stryker disable all: not reached: the test API's validating deploy; the API's deploy is [deployValidated], after the spec's validator
  /**
   * Creates an agent as the spec's deploy operation describes it; `creator` is the caller's JWT `sub`. The request is
   * checked with the spec's validator first (a MockInputError names each bad field), and its defaults filled in.
   */
  deploy(request: DeployRequest, creator: string): DeployResult {
    const validated = validateRequestBody('deployAgent', request);
    if (!validated.ok) throw new MockInputError('The deploy request', validated.errors);
    return this[deployValidated](validated.value, creator);
  }
  // Stryker restore all

  /** `deploy` for a request the spec's validator passed already: the API's hot path validates once. */
  [deployValidated](request: WithDefaults<'DeployRequest'>, creator: string): DeployResult {
    // Stryker disable next-line CallExpression: equivalent: a session's share of --session-records is checked there; the suite uses no session, where it is a no-op
    this.#ensureRoom();
    // Stryker disable next-line StringLiteral: not pinned: the agentId's form (the agt_ prefix) is the spec's decision; the description says only that it is a string
    const agentId = this.#newId('agt_', this.#agentIdTaken);
    const price = request.pricePerToken;
    const supply = request.initialSupply;
    const record: AgentRecord = {
      agentId,
      name: request.name,
      // Stryker disable next-line StringLiteral: not pinned: the empty description of a deploy that sent none is the spec's decision; the description shows no default
      description: request.description ?? '',
      category: request.category,
      model: request.model,
      capabilitiesJson: request.capabilities ? JSON.stringify(request.capabilities) : '[]',
      tokenAddress: this.#random.base58(44),
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
      deployedAt: this.#isoAt(this.clock.now()),
      tasksFailed: 0,
      catalogueIndex: undefined,
      json: undefined,
    };
    this.#agents.add(record);
    // Stryker disable next-line CallExpression: equivalent: saves the random state to durable storage only; in the in-memory fake the suite runs against it is a no-op
    this.#saveRandom();
    return {
      agentId,
      name: record.name,
      tokenAddress: record.tokenAddress,
      marketCap: record.marketCap,
      holders: record.holders,
      status: record.status,
      deployedAt: record.deployedAt,
    };
  }

  /** Queues a task on an active agent; cost and timing follow `planTask`, the outcome the failure ratio. */
  submitTask(agentId: string, request: WithDefaults<'ExecuteRequest'>): SubmitResult {
    // Stryker disable next-line CallExpression: not pinned: what finished tasks add to an agent's figures; task transitions are not shown
    this.settle();
    // Stryker disable next-line CallExpression: equivalent: a session's share of --session-records is checked there; the suite uses no session, where it is a no-op
    this.#ensureRoom();
    let record = this.#agents.get(agentId);
    if (!record) {
      const index = this.catalogue.indexOf(agentId);
      if (index === undefined) return { ok: false, reason: 'agent-not-found' };
      // An untouched catalogue agent's status is known from its index: no need to generate it to refuse the task.
      const status = this.catalogue.status(index);
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,ObjectLiteral,BooleanLiteral: not reached: the API cannot pause an agent, so no task is refused for the agent's status
      if (status !== 'active') return { ok: false, reason: 'agent-not-active', status };
      record = this.#record(agentId);
      // Stryker disable next-line BooleanLiteral,ConditionalExpression,ObjectLiteral,StringLiteral: not pinned: a task for a seeded catalogue agent, whose id no deploy returns
      if (!record) return { ok: false, reason: 'agent-not-found' };
    }
    // Stryker disable next-line ObjectLiteral,BooleanLiteral,StringLiteral: not reached: the API cannot pause an agent, so no task is refused for the agent's status
    if (record.status !== 'active') return { ok: false, reason: 'agent-not-active', status: record.status };
    const priority = request.priority;
    const plan = planTask({
      model: record.model,
      priority,
      taskLength: request.task.length,
      // Stryker disable next-line ConditionalExpression: not pinned: a task's cost and time estimate are the fake's model; the description says only that they are numbers
      parametersLength: request.parameters === undefined ? 0 : JSON.stringify(request.parameters).length,
    });
    const now = this.clock.now();
    const task: TaskRecord = {
      // Stryker disable next-line StringLiteral: not pinned: the taskId's form (the tsk_ prefix) is the spec's decision; the description says only that it is a string
      taskId: this.#newId('tsk_', (id) => this.#ledger.has(id)),
      agentId,
      priority,
      cost: plan.cost,
      submittedAt: now,
      // Stryker disable next-line ArithmeticOperator: not pinned: when and how a task finishes; the API reads no task back and task transitions are not shown
      startsAt: now + plan.queueMs,
      // Stryker disable next-line ArithmeticOperator: not pinned: when and how a task finishes; the API reads no task back and task transitions are not shown
      finishesAt: now + plan.queueMs + plan.processingMs,
      // Stryker disable next-line ConditionalExpression,EqualityOperator: not pinned: when and how a task finishes; the API reads no task back and task transitions are not shown
      outcome: this.#random.next() < this.#failureRatio() ? 'failed' : 'completed',
      // Stryker disable next-line BooleanLiteral: not pinned: when and how a task finishes; the API reads no task back and task transitions are not shown
      settled: false,
    };
    // Stryker disable next-line CallExpression: not pinned: when and how a task finishes; the API reads no task back and task transitions are not shown
    this.#ledger.add(task);
    // Stryker disable next-line CallExpression: equivalent: saves the random state to durable storage only; in the in-memory fake the suite runs against it is a no-op
    this.#saveRandom();
    return {
      ok: true,
      task,
      submission: {
        taskId: task.taskId,
        status: taskStatusAt(task, now),
        estimatedCompletion: plan.estimatedCompletion,
        cost: plan.cost,
      },
    };
  }

  // Stryker disable all: not reached: the control plane's and the test API's (/__mock/, setupMockServer), which the contract suite never calls
  /**
   * Stores an agent made from a partial record (the rest generated from the seed), checked against the spec's Agent
   * schema, the deploy bounds and the figures' rules; the stored record is returned (a copy).
   */
  seedAgent(input: unknown): SeedOutcome<Agent> {
    this.settle();
    this.#ensureRoom();
    const given = typeof input === 'object' && input !== null ? (input as { agentId?: unknown }).agentId : undefined;
    const agentId = typeof given === 'string' ? given : this.#newId('agt_', this.#agentIdTaken);
    const generated = catalogueEntry(this.seed, this.catalogue.size + this.#agents.deployedCount, agentId);
    generated.agent.deployedAt = new Date(this.clock.now()).toISOString();
    const seeded = buildSeededAgent(input, generated, this.#agentIdTaken);
    if (!seeded.ok) return { ok: false, status: 400, errors: seeded.errors };
    this.#agents.add(agentRecord(seeded.agent, seeded.tasksFailed, undefined));
    this.#saveRandom();
    // The record is the store's own copy: the agent built for it is nobody else's.
    return { ok: true, value: seeded.agent };
  }
  // Stryker restore all

  // Stryker disable all: not reached: the control plane's and the test API's (/__mock/, setupMockServer), which the contract suite never calls
  /**
   * Stores a task whose status now is the one asked for; a finished one is applied to its agent's figures at once.
   * Queued and processing tasks need an active agent, as a submission does.
   */
  seedTask(input: unknown): SeedOutcome<TaskState> {
    const checked = checkTaskSeed(input);
    if (!checked.ok) return { ok: false, status: 400, errors: checked.errors };
    const { seed } = checked;
    this.settle();
    this.#ensureRoom();
    const agent = this.get(seed.agentId);
    if (!agent)
      return { ok: false, status: 404, errors: [{ path: '/agentId', message: 'names no agent the fake holds' }] };
    if ((seed.status === 'queued' || seed.status === 'processing') && agent.status !== 'active')
      return {
        ok: false,
        status: 409,
        errors: [{ path: '/status', message: `cannot be ${seed.status}: agent ${seed.agentId} is ${agent.status}` }],
      };
    const record = this.#record(seed.agentId);
    if (!record)
      return { ok: false, status: 404, errors: [{ path: '/agentId', message: 'names no agent the fake holds' }] };
    const plan = planTask({
      model: record.model,
      priority: seed.priority ?? 'normal',
      taskLength: 0,
      parametersLength: 0,
    });
    const now = this.clock.now();
    const drawn = this.#random.next() < this.#failureRatio() ? 'failed' : 'completed';
    const task = seededTaskRecord(
      seed,
      plan,
      this.#newId('tsk_', (id) => this.#ledger.has(id)),
      now,
      drawn,
    );
    this.#ledger.add(task);
    this.settle();
    this.#saveRandom();
    return { ok: true, value: { ...task, status: taskStatusAt(task, now) } };
  }
  // Stryker restore all

  // Stryker disable all: not reached: the control plane's and the test API's (/__mock/, setupMockServer), which the contract suite never calls
  /** Sets an agent's status (the API itself has no operation for it: the control plane does). */
  setStatus(agentId: string, status: AgentStatus): Agent | undefined {
    this.settle();
    const record = this.#record(agentId);
    if (!record) return undefined;
    record.status = status;
    this.#agents.changed(record);
    return agentView(record);
  }
  // Stryker restore all

  // Stryker disable all: not reached: the control plane's and the test API's (/__mock/, setupMockServer), which the contract suite never calls
  /** A task of the bounded history, with its status now. */
  findTask(taskId: string): TaskState | undefined {
    this.settle();
    const task = this.#ledger.get(taskId);
    return task ? { ...task, status: taskStatusAt(task, this.clock.now()) } : undefined;
  }
  // Stryker restore all

  // Stryker disable all: not reached: the control plane's and the test API's (/__mock/, setupMockServer), which the contract suite never calls
  /** The newest tasks of the bounded history (of one agent when given), each with its status now, newest first. */
  listTasks(limit: number, agentId?: string): TaskState[] {
    this.settle();
    const now = this.clock.now();
    return this.#ledger.latest(limit, agentId).map((task) => ({ ...task, status: taskStatusAt(task, now) }));
  }

  /** Summaries of the agents in insertion order (the catalogue first), optionally of one status. */
  list(options: { offset?: number; limit?: number; status?: AgentStatus } = {}): {
    total: number;
    agents: AgentSummary[];
  } {
    this.settle();
    const offset = options.offset ?? 0;
    const limit = options.limit ?? 100;
    const agents: AgentSummary[] = [];
    let total = 0;
    const summary = (agent: AgentSummary): AgentSummary => ({
      agentId: agent.agentId,
      name: agent.name,
      category: agent.category,
      model: agent.model,
      status: agent.status,
    });
    const changed = this.#agents.changedCatalogueStatuses();
    this.catalogue.ids.forEach((agentId, index) => {
      const status = changed.get(agentId) ?? this.catalogue.status(index);
      if (options.status && status !== options.status) return;
      if (total >= offset && agents.length < limit) {
        const record = changed.has(agentId) ? this.#agents.get(agentId) : undefined;
        agents.push(summary(record ?? this.catalogue.entry(index).agent));
      }
      total += 1;
    });
    const page = this.#agents.deployedPage(
      Math.max(0, offset - total),
      Math.max(0, limit - agents.length),
      options.status,
    );
    for (const agent of page.agents) agents.push(summary(agent));
    return { total: total + page.total, agents };
  }
  // Stryker restore all

  /** Applies every task finished by now to its agent's performance and statistics. */
  // Stryker disable next-line BlockStatement: not pinned: when and how a task finishes; the API reads no task back and task transitions are not shown
  settle(): void {
    // Stryker disable next-line CallExpression: not pinned: when and how a task finishes; the API reads no task back and task transitions are not shown
    this.#ledger.settleDue(this.clock.now());
  }

  /** Throws, before anything changed, when the store's holder lets it keep no more records. */
  // Stryker disable next-line BlockStatement: not reached: a session's share of --session-records; the suite uses no session, where this is a no-op
  #ensureRoom(): void {
    // Stryker disable next-line ConditionalExpression,BooleanLiteral: not reached: a session's share of --session-records; the suite uses no session, where this is a no-op
    if (this.#hasRoom !== undefined && !this.#hasRoom())
      throw new StorageWriteError(
        // Stryker disable next-line StringLiteral: not reached: a session's share of --session-records; the suite uses no session
        'this session holds its share of --session-records; POST /__mock/reset in it, or start the fake with a higher --session-records',
      );
  }

  // Stryker disable next-line BlockStatement: equivalent: the in-memory storage the suite runs against keeps no documents; saving is durable storage's (--state-dir, PostgreSQL)
  #saveRandom(): void {
    // Stryker disable next-line ConditionalExpression,CallExpression: equivalent: the in-memory storage the suite runs against keeps no documents; saving is durable storage's (--state-dir, PostgreSQL)
    if (this.storage.durable) this.storage.writeDocument(RANDOM_DOCUMENT, this.#random.state);
  }

  // Stryker disable all: not pinned: how a finished task adds to its agent's figures; task transitions are not shown in the description
  #apply(task: TaskRecord): void {
    const record = this.#agents.get(task.agentId);
    if (!record) return;
    const finishedBefore = record.tasksCompleted + record.tasksFailed;
    if (task.outcome === 'completed') {
      record.tasksCompleted += 1;
      record.totalRevenue = settledSum(record.totalRevenue, task.cost);
      record.volume24h = settledSum(record.volume24h, task.cost * record.price);
    } else {
      record.tasksFailed += 1;
    }
    const finished = finishedBefore + 1;
    record.successRate = round4(record.tasksCompleted / finished);
    // The running mean moved by the new sample's share: average × count would overflow for a seeded average near the
    // largest double, and the agent would be served with null where the spec wants a number.
    const duration = task.finishesAt - task.submittedAt;
    record.averageResponseTime = Math.round(
      record.averageResponseTime + (duration - record.averageResponseTime) / finished,
    );
    this.#agents.changed(record);
  }
  // Stryker restore all

  /** Whether an agent id is in use: one function for the store's life, not a closure per deploy. */
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: a minted id is 16 random characters, so it never meets a taken one in a run; the check only guards that
  readonly #agentIdTaken = (id: string): boolean => this.catalogue.has(id) || this.#agents.has(id);

  #isoAt(ms: number): string {
    // Stryker disable next-line ConditionalExpression: equivalent: a one-entry cache of the last instant's ISO text; without it every answer is the same
    if (ms !== this.#isoMs) {
      this.#iso = new Date(ms).toISOString();
      this.#isoMs = ms;
    }
    return this.#iso;
  }

  #newId(prefix: string, taken: (id: string) => boolean): string {
    for (;;) {
      const id = prefix + this.#random.string(16);
      // Stryker disable next-line ConditionalExpression: equivalent: a minted id is 16 random characters, so it never meets a taken one in a run; the check only guards that
      if (!taken(id)) return id;
    }
  }

  // Stryker disable all: not reached: only the control plane changes a catalogue agent, whose id no deploy returns
  /** The agent's record, generating (and from now on keeping) a catalogue agent that is about to change. */
  #record(agentId: string): AgentRecord | undefined {
    const record = this.#agents.get(agentId);
    if (record) return record;
    const index = this.catalogue.indexOf(agentId);
    if (index === undefined) return undefined;
    this.#ensureRoom();
    const { agent, tasksFailed } = this.catalogue.entry(index);
    const created = agentRecord(agent, tasksFailed, index);
    this.#agents.add(created);
    this.#catalogueCopies += 1;
    this.catalogue.forget(agentId);
    return created;
  }
  // Stryker restore all
}
