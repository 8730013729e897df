// The fake's state and the three operations over it: the seeded catalogue cache, the agent table, the task ledger.
// Where agents and tasks are kept is the storage's business (its interface is ./storage.ts, its backends are under
// mocks/storage/): in memory, or durable on disk. The class holds the state and its life cycle (reset, resume) and
// reads it; beside it, by concern: store-types.ts (its options and answers), deployed-agent.ts (a deploy's record),
// task-submission.ts (a task submitted), store-seeding.ts (agents and tasks seeded), agent-figures.ts (what a finished
// task adds to its agent), agent-list.ts (the agent list), store-parts.ts (what the store lends those files).
import {
  validateRequestBody,
  type Agent,
  type AgentStatus,
  type DeployRequest,
  type DeployResult,
  type WithDefaults,
} from '../../../spec/index.ts';
import { addFinishedTask, startingRecord } from './agent-figures.ts';
import { listAgents } from './agent-list.ts';
import { agentJson, agentRecord, agentView } from '../agent-record.ts';
import { DEFAULT_CATALOGUE_SIZE } from '../catalogue.ts';
import { CatalogueCache } from '../catalogue-cache.ts';
import { deployedRecord, deployResult } from './deployed-agent.ts';
import type { Clock } from '../../domain/clock.ts';
import { MockInputError } from '../../domain/input-error.ts';
import { createRandom, type Random } from '../../domain/random.ts';
import { StorageWriteError, type AgentRecord, type AgentTable, type Storage } from '../storage.ts';
import {
  DEFAULT_FAILURE_RATIO,
  DEFAULT_MAX_AGENTS,
  DEFAULT_MAX_TASKS,
  type AgentSummary,
  type SeedOutcome,
  type StoreOptions,
  type SubmitResult,
} from './store-types.ts';
import { TaskLedger } from '../task-ledger.ts';
import { taskStatusAt, type TaskRecord, type TaskState } from '../task-lifecycle.ts';
import { seedAgent, seedTask } from './store-seeding.ts';
import type { StoreParts } from './store-parts.ts';
import { submitTask } from './task-submission.ts';

/** What a seeding call made, or why not (the control plane answers it). */
export type { SeedOutcome } from './store-types.ts';

/** Name of the document that holds the random source's state in durable storage. */
const RANDOM_DOCUMENT = 'random';

/**
 * The deploy the core's operation calls with a body the spec's validator already passed (defaults filled in); the public
 * `deploy` validates first. Not exported by any package entry.
 */
export const deployValidated: unique symbol = Symbol('deployValidated');

// A stream distinct from faker's, so deploy ids never replay catalogue ids.
const randomSeed = (seed: number): number => (seed ^ 0x9e3779b9) >>> 0;

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
  /** What task-submission.ts and store-seeding.ts use of this store. */
  readonly #parts: StoreParts;

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
    this.#parts = this.#lend();
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
    const record = deployedRecord(request, creator, {
      agentId,
      tokenAddress: this.#random.base58(44),
      deployedAt: this.#isoAt(this.clock.now()),
    });
    this.#agents.add(record);
    // Stryker disable next-line CallExpression: equivalent: saves the random state to durable storage only; in the in-memory fake the suite runs against it is a no-op
    this.#saveRandom();
    return deployResult(record);
  }

  /** Queues a task on an active agent (task-submission.ts). */
  submitTask(agentId: string, request: WithDefaults<'ExecuteRequest'>): SubmitResult {
    return submitTask(this.#parts, agentId, request);
  }

  // Stryker disable all: not reached: the control plane's and the test API's (/__mock/, setupMockServer), which the contract suite never calls
  /** Stores an agent made from a partial record, checked first (store-seeding.ts); the stored record is returned. */
  seedAgent(input: unknown): SeedOutcome<Agent> {
    return seedAgent(this.#parts, input);
  }

  /** Stores a task whose status now is the one asked for, checked first (store-seeding.ts). */
  seedTask(input: unknown): SeedOutcome<TaskState> {
    return seedTask(this.#parts, input);
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
    return listAgents(this.catalogue, this.#agents, options);
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

  /** The parts lent to the operations kept beside the store: the random source is read as it is at each use. */
  #lend(): StoreParts {
    const store = this;
    return {
      seed: this.seed,
      clock: this.clock,
      catalogue: this.catalogue,
      agents: this.#agents,
      ledger: this.#ledger,
      get random() {
        return store.#random;
      },
      failureRatio: this.#failureRatio,
      // Stryker disable next-line ArrowFunction: not pinned: what finished tasks add to an agent's figures; task transitions are not shown
      settle: () => this.settle(),
      // Stryker disable next-line ArrowFunction: equivalent: a session's share of --session-records is checked there; the suite uses no session, where it is a no-op
      ensureRoom: () => this.#ensureRoom(),
      newId: (prefix, taken) => this.#newId(prefix, taken),
      agentIdTaken: this.#agentIdTaken,
      // Stryker disable next-line ArrowFunction: not reached: seeding is the control plane's and the test API's, which the contract suite never calls
      get: (agentId) => this.get(agentId),
      // Stryker disable next-line ArrowFunction: not pinned: a task for a seeded catalogue agent, whose id no deploy returns
      record: (agentId) => this.#record(agentId),
      // Stryker disable next-line ArrowFunction: equivalent: saves the random state to durable storage only; in the in-memory fake the suite runs against it is a no-op
      saveRandom: () => this.#saveRandom(),
    };
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
    addFinishedTask(record, task);
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
