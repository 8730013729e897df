// The fake's state: agents and tasks in memory, the three operations over them, and the task lifecycle. No HTTP here.
import type { Agent, AgentStatus, DeployResult, TaskSubmission, WithDefaults } from '../spec/index.ts';
import type { Clock } from './clock.ts';
import { catalogueEntry, catalogueIds, catalogueShape, DEFAULT_CATALOGUE_SIZE } from './catalogue.ts';
import { createRandom, type Random } from './random.ts';
import { taskStatusAt, type TaskRecord } from './task-lifecycle.ts';
import { TaskQueue } from './task-queue.ts';
import { toTaskView, type TaskView } from './task-view.ts';
import { planTask } from './task-rules.ts';

/**
 * Default bound of the task history (the oldest are forgotten beyond it) and of unfinished tasks (beyond it the one that
 * would finish first is settled ahead of time), so memory stays flat under any load.
 */
export const DEFAULT_MAX_TASKS = 10_000;
/** JSON texts of untouched catalogue agents kept ready at most; beyond it the cache starts over (generating one costs ~20 µs). */
const COLD_JSON_LIMIT = 10_000;
/** Default share of tasks that fail, decided per task from the seeded random source. */
export const DEFAULT_FAILURE_RATIO = 0.1;

export interface StoreOptions {
  /** Seed of the catalogue and of every later random choice (ids, addresses, task outcomes). */
  seed: number;
  clock: Clock;
  /** Number of seeded agents (default 36). */
  catalogueSize?: number;
  /** Share of tasks that end `failed`, 0..1 (default 0.1). */
  failureRatio?: number;
  /** Bound of the task history (default 10,000). */
  maxTasks?: number;
}

/** One line of the agent list of the control plane. */
export type AgentSummary = Pick<Agent, 'agentId' | 'name' | 'category' | 'model' | 'status'>;

export type SubmitResult =
  | { ok: true; submission: TaskSubmission; task: TaskRecord }
  | { ok: false; reason: 'agent-not-found' }
  | { ok: false; reason: 'agent-not-active'; status: AgentStatus };

/** An agent held in memory: every deployed agent, and the catalogue agents that changed since the seed made them. */
interface AgentRecord {
  agent: Agent;
  /** Failed tasks: successRate = tasksCompleted / (tasksCompleted + tasksFailed). */
  tasksFailed: number;
  /** The agent's JSON text, cached until the record changes: GET is the hot path. */
  json: string | undefined;
}

/** Everything needed to resume the store exactly; what `--state` files hold. */
export interface StoreSnapshot {
  version: 2;
  /** Seed and size of the catalogue; its untouched agents are regenerated from them, not stored. */
  seed: number;
  catalogueSize: number;
  randomState: number;
  clockOffset: number;
  failureRatio: number;
  /** Deployed agents and changed catalogue agents. */
  agents: { agent: Agent; tasksFailed: number }[];
  tasks: TaskRecord[];
}

const round4 = (value: number): number => Math.round(value * 10_000) / 10_000;

/**
 * The stateful store.
 * @example
 * const store = new AgentStore({ seed: 42, clock: createFixedClock(Date.parse('2026-11-20T12:00:00Z')) });
 * const result = store.deploy({ name: 'Bot', category: 'defi', model: 'gpt-4', initialSupply: 1000 }, 'user_1');
 * store.get(result.agentId)?.status; // 'active'
 */
export class AgentStore {
  readonly seed: number;
  readonly clock: Clock;
  readonly catalogueSize: number;
  readonly maxTasks: number;
  failureRatio: number;
  #random: Random;
  #catalogueSeed: number;
  #catalogueIds: string[] = [];
  #catalogueIndex = new Map<string, number>();
  /** Catalogue agents in #agents (changed since seeded); the rest of #agents are deployed ones. */
  #materialized = 0;
  #coldJson = new Map<string, string>();
  #agents = new Map<string, AgentRecord>();
  #tasks = new Map<string, TaskRecord>();
  #pending = new TaskQueue();

  constructor(options: StoreOptions) {
    this.seed = options.seed;
    this.clock = options.clock;
    this.catalogueSize = options.catalogueSize ?? DEFAULT_CATALOGUE_SIZE;
    this.maxTasks = Math.max(1, options.maxTasks ?? DEFAULT_MAX_TASKS);
    this.failureRatio = options.failureRatio ?? DEFAULT_FAILURE_RATIO;
    this.#random = createRandom(options.seed);
    this.#catalogueSeed = options.seed;
    this.reset();
  }

  /** Back to the seeded catalogue: deployed agents and all tasks are forgotten, the random source restarts. */
  reset(): void {
    // A stream distinct from faker's, so deploy ids never replay catalogue ids.
    this.#random = createRandom((this.seed ^ 0x9e3779b9) >>> 0);
    this.#agents.clear();
    this.#tasks.clear();
    this.#pending.clear();
    this.#loadCatalogue(this.seed, this.catalogueSize);
  }

  get agentCount(): number {
    return this.#catalogueIds.length + this.#agents.size - this.#materialized;
  }

  get taskCount(): number {
    return this.#tasks.size;
  }

  /** The agent, with every task finished by now applied to its figures. */
  get(agentId: string): Agent | undefined {
    this.settle();
    const record = this.#agents.get(agentId);
    if (record) return record.agent;
    const index = this.#catalogueIndex.get(agentId);
    return index === undefined ? undefined : catalogueEntry(this.#catalogueSeed, index, agentId).agent;
  }

  /** The agent's JSON text (cached): what GET /v1/agents/{agentId} answers. */
  getJson(agentId: string): string | undefined {
    this.settle();
    const record = this.#agents.get(agentId);
    if (record) {
      record.json ??= JSON.stringify(record.agent);
      return record.json;
    }
    const index = this.#catalogueIndex.get(agentId);
    if (index === undefined) return undefined;
    let json = this.#coldJson.get(agentId);
    if (json === undefined) {
      json = JSON.stringify(catalogueEntry(this.#catalogueSeed, index, agentId).agent);
      if (this.#coldJson.size >= COLD_JSON_LIMIT) this.#coldJson.clear();
      this.#coldJson.set(agentId, json);
    }
    return json;
  }

  /**
   * Creates an agent as the spec's deploy operation describes it; `creator` is the caller's JWT `sub`.
   * The request is a validated one, so the spec's defaults (pricePerToken, revenueShare) are already in it.
   */
  deploy(request: WithDefaults<'DeployRequest'>, creator: string): DeployResult {
    const agentId = this.#newId('agt_', (id) => this.#agents.has(id) || this.#catalogueIndex.has(id));
    const price = request.pricePerToken;
    const supply = request.initialSupply;
    const agent: Agent = {
      agentId,
      name: request.name,
      description: request.description ?? '',
      category: request.category,
      model: request.model,
      capabilities: request.capabilities ? [...request.capabilities] : [],
      tokenAddress: this.#random.base58(44),
      creator,
      tokenomics: {
        totalSupply: supply,
        circulatingSupply: supply,
        price,
        marketCap: price * supply,
        revenueShare: request.revenueShare,
      },
      performance: { totalRevenue: 0, tasksCompleted: 0, successRate: 0, averageResponseTime: 0 },
      statistics: { holders: 1, volume24h: 0, priceChange24h: 0 },
      status: 'active',
      deployedAt: new Date(this.clock.now()).toISOString(),
    };
    this.#agents.set(agentId, { agent, tasksFailed: 0, json: undefined });
    return {
      agentId,
      name: agent.name,
      tokenAddress: agent.tokenAddress,
      marketCap: agent.tokenomics.marketCap,
      holders: agent.statistics.holders,
      status: agent.status,
      deployedAt: agent.deployedAt,
    };
  }

  /** Queues a task on an active agent; cost and timing follow `planTask`, the outcome the failure ratio. */
  submitTask(agentId: string, request: WithDefaults<'ExecuteRequest'>): SubmitResult {
    this.settle();
    const index = this.#catalogueIndex.get(agentId);
    // An untouched catalogue agent's status is known from its index: no need to generate it to refuse the task.
    if (index !== undefined && !this.#agents.has(agentId)) {
      const { status } = catalogueShape(index);
      if (status !== 'active') return { ok: false, reason: 'agent-not-active', status };
    }
    const record = this.#record(agentId);
    if (!record) return { ok: false, reason: 'agent-not-found' };
    if (record.agent.status !== 'active') return { ok: false, reason: 'agent-not-active', status: record.agent.status };
    const priority = request.priority;
    const plan = planTask({
      model: record.agent.model,
      priority,
      taskLength: request.task.length,
      parametersLength: request.parameters === undefined ? 0 : JSON.stringify(request.parameters).length,
    });
    const now = this.clock.now();
    const task: TaskRecord = {
      taskId: this.#newId('tsk_', (id) => this.#tasks.has(id)),
      agentId,
      priority,
      cost: plan.cost,
      submittedAt: now,
      startsAt: now + plan.queueMs,
      finishesAt: now + plan.queueMs + plan.processingMs,
      outcome: this.#random.next() < this.failureRatio ? 'failed' : 'completed',
      settled: false,
    };
    this.#remember(task);
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

  /** Sets an agent's status (the API itself has no operation for it: the control plane does). */
  setStatus(agentId: string, status: AgentStatus): Agent | undefined {
    this.settle();
    const record = this.#record(agentId);
    if (!record) return undefined;
    record.agent.status = status;
    record.json = undefined;
    return record.agent;
  }

  /** A task of the bounded history, with its status now. */
  getTask(taskId: string): TaskView | undefined {
    this.settle();
    const task = this.#tasks.get(taskId);
    return task ? toTaskView(task, this.clock.now()) : undefined;
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
    const summary = (agent: Agent): AgentSummary => ({
      agentId: agent.agentId,
      name: agent.name,
      category: agent.category,
      model: agent.model,
      status: agent.status,
    });
    this.#catalogueIds.forEach((agentId, index) => {
      const record = this.#agents.get(agentId);
      const status = record ? record.agent.status : catalogueShape(index).status;
      if (options.status && status !== options.status) return;
      if (total >= offset && agents.length < limit)
        agents.push(summary(record ? record.agent : catalogueEntry(this.#catalogueSeed, index, agentId).agent));
      total += 1;
    });
    for (const [agentId, { agent }] of this.#agents) {
      if (this.#catalogueIndex.has(agentId) || (options.status && agent.status !== options.status)) continue;
      if (total >= offset && agents.length < limit) agents.push(summary(agent));
      total += 1;
    }
    return { total, agents };
  }

  /** Applies every task finished by now to its agent's performance and statistics. */
  settle(): void {
    const now = this.clock.now();
    for (let next = this.#pending.peek(); next && next.finishesAt <= now; next = this.#pending.peek()) {
      this.#pending.pop();
      this.#apply(next);
    }
  }

  /** The whole state, for `--state` files. */
  snapshot(): StoreSnapshot {
    return {
      version: 2,
      seed: this.#catalogueSeed,
      catalogueSize: this.#catalogueIds.length,
      randomState: this.#random.state,
      clockOffset: this.clock.offset,
      failureRatio: this.failureRatio,
      agents: [...this.#agents.values()].map(({ agent, tasksFailed }) => ({ agent, tasksFailed })),
      tasks: [...this.#tasks.values()],
    };
  }

  /** Replaces the state with a snapshot's (the clock offset is the caller's to restore: the clock is injected). */
  restore(snapshot: StoreSnapshot): void {
    this.#random = createRandom(snapshot.randomState);
    this.failureRatio = snapshot.failureRatio;
    this.#agents.clear();
    this.#tasks.clear();
    this.#pending.clear();
    this.#loadCatalogue(snapshot.seed, snapshot.catalogueSize);
    for (const { agent, tasksFailed } of snapshot.agents) {
      this.#agents.set(agent.agentId, { agent, tasksFailed, json: undefined });
      if (this.#catalogueIndex.has(agent.agentId)) this.#materialized += 1;
    }
    for (const task of snapshot.tasks) {
      this.#tasks.set(task.taskId, task);
      if (!task.settled) this.#pending.push(task);
    }
  }

  #remember(task: TaskRecord): void {
    this.#tasks.set(task.taskId, task);
    this.#pending.push(task);
    // Both bounds keep memory flat under load: the earliest unfinished task is settled ahead of time rather than kept.
    while (this.#pending.size > this.maxTasks) {
      const early = this.#pending.pop();
      if (early) this.#apply(early);
    }
    // The history only forgets how to show the task; an unfinished one stays in the queue and still settles on time.
    if (this.#tasks.size > this.maxTasks) {
      const oldest = this.#tasks.keys().next();
      if (!oldest.done) this.#tasks.delete(oldest.value);
    }
  }

  #apply(task: TaskRecord): void {
    if (task.settled) return;
    task.settled = true;
    const record = this.#agents.get(task.agentId);
    if (!record) return;
    const { performance, statistics, tokenomics } = record.agent;
    const finishedBefore = performance.tasksCompleted + record.tasksFailed;
    if (task.outcome === 'completed') {
      performance.tasksCompleted += 1;
      performance.totalRevenue = round4(performance.totalRevenue + task.cost);
      statistics.volume24h = round4(statistics.volume24h + task.cost * tokenomics.price);
    } else {
      record.tasksFailed += 1;
    }
    const finished = finishedBefore + 1;
    performance.successRate = round4(performance.tasksCompleted / finished);
    performance.averageResponseTime = Math.round(
      (performance.averageResponseTime * finishedBefore + (task.finishesAt - task.submittedAt)) / finished,
    );
    record.json = undefined;
  }

  #newId(prefix: string, taken: (id: string) => boolean): string {
    for (;;) {
      const id = prefix + this.#random.string(16);
      if (!taken(id)) return id;
    }
  }

  /** The agent's record, generating (and from now on keeping) a catalogue agent that is about to change. */
  #record(agentId: string): AgentRecord | undefined {
    const record = this.#agents.get(agentId);
    if (record) return record;
    const index = this.#catalogueIndex.get(agentId);
    if (index === undefined) return undefined;
    const { agent, tasksFailed } = catalogueEntry(this.#catalogueSeed, index, agentId);
    const created: AgentRecord = { agent, tasksFailed, json: undefined };
    this.#agents.set(agentId, created);
    this.#materialized += 1;
    this.#coldJson.delete(agentId);
    return created;
  }

  #loadCatalogue(seed: number, size: number): void {
    this.#catalogueSeed = seed;
    this.#catalogueIds = catalogueIds(seed, size);
    this.#catalogueIndex = new Map(this.#catalogueIds.map((agentId, index) => [agentId, index]));
    this.#materialized = 0;
    this.#coldJson.clear();
  }
}
