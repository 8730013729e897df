// Submitting a task (POST /v1/agents/{agentId}/execute): queued on an active agent, its cost and timing from
// planTask, its outcome drawn against the failure ratio, kept in the bounded task history.
import type { WithDefaults } from '../../../spec/index.ts';
import type { StoreParts } from './store-parts.ts';
import type { SubmitResult } from './store-types.ts';
import { taskStatusAt, type TaskRecord } from '../task-lifecycle.ts';
import { planTask } from '../task-rules.ts';

/** Queues a task on an active agent; cost and timing follow `planTask`, the outcome the failure ratio. */
export function submitTask(store: StoreParts, agentId: string, request: WithDefaults<'ExecuteRequest'>): SubmitResult {
  // Stryker disable next-line CallExpression: not pinned: what finished tasks add to an agent's figures; task transitions are not shown
  store.settle();
  // Stryker disable next-line CallExpression: equivalent: a session's share of --session-records is checked there; the suite uses no session, where it is a no-op
  store.ensureRoom();
  let record = store.agents.get(agentId);
  if (!record) {
    const index = store.catalogue.indexOf(agentId);
    if (index === undefined) return { ok: false, reason: 'agent-not-found' };
    // An untouched catalogue agent's status is known from its index: no need to generate it to refuse the task.
    const status = store.catalogue.status(index);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,ObjectLiteral,BooleanLiteral: not reached: the API cannot pause an agent, so no task is refused for the agent's status
    if (status !== 'active') return { ok: false, reason: 'agent-not-active', status };
    record = store.record(agentId);
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
  const now = store.clock.now();
  const task: TaskRecord = {
    // Stryker disable next-line StringLiteral: not pinned: the taskId's form (the tsk_ prefix) is the spec's decision; the description says only that it is a string
    taskId: store.newId('tsk_', (id) => store.ledger.has(id)),
    agentId,
    priority,
    cost: plan.cost,
    submittedAt: now,
    // Stryker disable next-line ArithmeticOperator: not pinned: when and how a task finishes; the API reads no task back and task transitions are not shown
    startsAt: now + plan.queueMs,
    // Stryker disable next-line ArithmeticOperator: not pinned: when and how a task finishes; the API reads no task back and task transitions are not shown
    finishesAt: now + plan.queueMs + plan.processingMs,
    // Stryker disable next-line ConditionalExpression,EqualityOperator: not pinned: when and how a task finishes; the API reads no task back and task transitions are not shown
    outcome: store.random.next() < store.failureRatio() ? 'failed' : 'completed',
    // Stryker disable next-line BooleanLiteral: not pinned: when and how a task finishes; the API reads no task back and task transitions are not shown
    settled: false,
  };
  // Stryker disable next-line CallExpression: not pinned: when and how a task finishes; the API reads no task back and task transitions are not shown
  store.ledger.add(task);
  // Stryker disable next-line CallExpression: equivalent: saves the random state to durable storage only; in the in-memory fake the suite runs against it is a no-op
  store.saveRandom();
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
