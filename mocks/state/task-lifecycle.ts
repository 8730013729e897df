// A task's status as a pure function of the mock's clock: queued → processing → completed or failed.
import type { TaskPriority, TaskStatus } from '../../spec/index.ts';

/** A task as the store keeps it. */
export interface TaskRecord {
  taskId: string;
  agentId: string;
  priority: TaskPriority;
  cost: number;
  submittedAt: number;
  /** When processing starts (ms since the epoch, mock clock). */
  startsAt: number;
  /** When the task finishes. */
  finishesAt: number;
  /** Decided at submission from the seeded random source, so a seed replays the same outcomes. */
  outcome: 'completed' | 'failed';
  /** True once the outcome has been applied to the agent's figures. */
  settled: boolean;
}

/** A task of the store as it stands at one moment: its record and the status it has then. */
export interface TaskState extends Readonly<TaskRecord> {
  readonly status: TaskStatus;
}

/**
 * The status of `task` at time `now`.
 * @example taskStatusAt({ ...task, startsAt: 10, finishesAt: 20 }, 15) // 'processing'
 */
export function taskStatusAt(task: Pick<TaskRecord, 'startsAt' | 'finishesAt' | 'outcome'>, now: number): TaskStatus {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: not pinned: which of the four statuses a task has when; transitions are not shown
  if (now < task.startsAt) return 'queued';
  // Stryker disable next-line ConditionalExpression,EqualityOperator: not pinned: which of the four statuses a task has when; transitions are not shown
  if (now < task.finishesAt) return 'processing';
  return task.outcome;
}
