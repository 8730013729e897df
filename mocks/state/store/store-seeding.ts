// Seeding a store (the control plane's and the test API's POST /__mock/agents and /__mock/tasks): an agent made from a
// partial record, a task whose status now is the one asked for, each checked before anything is kept.
import type { Agent } from '../../../spec/index.ts';
import { agentRecord } from '../agent-record.ts';
import { buildSeededAgent } from '../agent-seed.ts';
import { catalogueEntry } from '../catalogue.ts';
import type { SeedOutcome } from './store-types.ts';
import type { StoreParts } from './store-parts.ts';
import { taskStatusAt, type TaskState } from '../task-lifecycle.ts';
import { planTask } from '../task-rules.ts';
import { checkTaskSeed, seededTaskRecord } from '../task-seed.ts';

// Stryker disable all: not reached: the control plane's and the test API's (/__mock/, setupMockServer), which the contract suite never calls
/**
 * Stores an agent made from a partial record (the rest generated from the seed), checked against the spec's Agent
 * schema, the deploy bounds and the figures' rules; the stored record is returned (a copy).
 */
export function seedAgent(store: StoreParts, input: unknown): SeedOutcome<Agent> {
  store.settle();
  store.ensureRoom();
  const given = typeof input === 'object' && input !== null ? (input as { agentId?: unknown }).agentId : undefined;
  const agentId = typeof given === 'string' ? given : store.newId('agt_', store.agentIdTaken);
  const generated = catalogueEntry(store.seed, store.catalogue.size + store.agents.deployedCount, agentId);
  generated.agent.deployedAt = new Date(store.clock.now()).toISOString();
  const seeded = buildSeededAgent(input, generated, store.agentIdTaken);
  if (!seeded.ok) return { ok: false, status: 400, errors: seeded.errors };
  store.agents.add(agentRecord(seeded.agent, seeded.tasksFailed, undefined));
  store.saveRandom();
  // The record is the store's own copy: the agent built for it is nobody else's.
  return { ok: true, value: seeded.agent };
}

/**
 * Stores a task whose status now is the one asked for; a finished one is applied to its agent's figures at once.
 * Queued and processing tasks need an active agent, as a submission does.
 */
export function seedTask(store: StoreParts, input: unknown): SeedOutcome<TaskState> {
  const checked = checkTaskSeed(input);
  if (!checked.ok) return { ok: false, status: 400, errors: checked.errors };
  const { seed } = checked;
  store.settle();
  store.ensureRoom();
  const agent = store.get(seed.agentId);
  if (!agent)
    return { ok: false, status: 404, errors: [{ path: '/agentId', message: 'names no agent the fake holds' }] };
  if ((seed.status === 'queued' || seed.status === 'processing') && agent.status !== 'active')
    return {
      ok: false,
      status: 409,
      errors: [{ path: '/status', message: `cannot be ${seed.status}: agent ${seed.agentId} is ${agent.status}` }],
    };
  const record = store.record(seed.agentId);
  if (!record)
    return { ok: false, status: 404, errors: [{ path: '/agentId', message: 'names no agent the fake holds' }] };
  const plan = planTask({
    model: record.model,
    priority: seed.priority ?? 'normal',
    taskLength: 0,
    parametersLength: 0,
  });
  const now = store.clock.now();
  const drawn = store.random.next() < store.failureRatio() ? 'failed' : 'completed';
  const task = seededTaskRecord(
    seed,
    plan,
    store.newId('tsk_', (id) => store.ledger.has(id)),
    now,
    drawn,
  );
  store.ledger.add(task);
  store.settle();
  store.saveRandom();
  return { ok: true, value: { ...task, status: taskStatusAt(task, now) } };
}
// Stryker restore all
