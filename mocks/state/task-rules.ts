// The documented rules for what a task costs and how long it takes: pure functions of the model, priority and task size.
import type { AgentModel, TaskPriority } from '../../spec/index.ts';

/** Cost of a minimal task, in agent tokens, per model. */
export const BASE_COST: Readonly<Record<AgentModel, number>> = {
  'gpt-4': 2,
  'claude-3': 1.5,
  'gpt-3.5-turbo': 0.5,
  'llama-2': 0.25,
};
/** Processing time of a minimal task, in milliseconds, per model. */
export const BASE_PROCESSING_MS: Readonly<Record<AgentModel, number>> = {
  'gpt-4': 4000,
  'claude-3': 3000,
  'gpt-3.5-turbo': 1500,
  'llama-2': 2000,
};
/** Cost multiplier per priority: urgency costs more. */
const PRIORITY_COST: Readonly<Record<TaskPriority, number>> = { low: 0.8, normal: 1, high: 1.5 };
/** Time a task waits in the queue before processing starts, per priority. */
const QUEUE_WAIT_MS: Readonly<Record<TaskPriority, number>> = { low: 5000, normal: 2000, high: 500 };

/** What decides a task's cost and duration. */
export interface TaskShape {
  model: AgentModel;
  priority: TaskPriority;
  /** Characters in the task text. */
  taskLength: number;
  /** Characters of the JSON text of `parameters` (0 when absent). */
  parametersLength: number;
}

/** The figures of a submitted task. */
export interface TaskPlan {
  /** Agent tokens, rounded to 4 decimals. */
  cost: number;
  queueMs: number;
  processingMs: number;
  /** Seconds from submission to completion, rounded to 0.1 s: the answer's estimatedCompletion. */
  estimatedCompletion: number;
}

/**
 * size factor = 1 + taskLength / 1000 + parametersLength / 2000 (capped at 20);
 * cost = BASE_COST[model] × size × PRIORITY_COST[priority];
 * processing = BASE_PROCESSING_MS[model] × size; queue wait = QUEUE_WAIT_MS[priority].
 * @example planTask({ model: 'gpt-4', priority: 'high', taskLength: 0, parametersLength: 0 }).cost // 3
 */
export function planTask(shape: TaskShape): TaskPlan {
  // Stryker disable next-line all: not pinned: a task's cost and time estimate are the fake's model; the description says only that they are numbers
  const size = Math.min(20, 1 + shape.taskLength / 1000 + shape.parametersLength / 2000);
  // Stryker disable next-line all: not pinned: a task's cost and time estimate are the fake's model; the description says only that they are numbers
  const cost = Math.round(BASE_COST[shape.model] * size * PRIORITY_COST[shape.priority] * 10_000) / 10_000;
  const queueMs = QUEUE_WAIT_MS[shape.priority];
  // Stryker disable next-line all: not pinned: a task's cost and time estimate are the fake's model; the description says only that they are numbers
  const processingMs = Math.round(BASE_PROCESSING_MS[shape.model] * size);
  // Stryker disable next-line ArithmeticOperator,MethodExpression: not pinned: a task's cost and time estimate are the fake's model; the description says only that they are numbers
  return { cost, queueMs, processingMs, estimatedCompletion: Math.round((queueMs + processingMs) / 100) / 10 };
}
