// The one view of a task, as the control plane answers it (and any future task endpoint would): status read at `now`.
import type { components } from './control-plane-types.generated.ts';
import { taskStatusAt, type TaskRecord } from './task-lifecycle.ts';

/** `#/components/schemas/Task` of mocks/control-plane.yaml. */
export type TaskView = components['schemas']['Task'];

/**
 * The view of `task` at time `now` (mock clock), times as ISO 8601.
 * @example toTaskView(task, clock.now()).status // 'processing'
 */
export function toTaskView(task: TaskRecord, now: number): TaskView {
  return {
    taskId: task.taskId,
    agentId: task.agentId,
    status: taskStatusAt(task, now),
    priority: task.priority,
    cost: task.cost,
    submittedAt: new Date(task.submittedAt).toISOString(),
    startsAt: new Date(task.startsAt).toISOString(),
    finishesAt: new Date(task.finishesAt).toISOString(),
  };
}
