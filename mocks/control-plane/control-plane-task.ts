// The control plane's view of a task (GET /__mock/tasks/{taskId}): the store's record, times as ISO 8601. The store owns
// TaskRecord and TaskState (task-lifecycle.ts); an API operation that shows a task makes its own view from them, typed
// by spec/openapi.yaml, never by this one.
import type { components } from '../core/control-document/control-plane-types.generated.ts';
import type { TaskState } from '../state/task-lifecycle.ts';

/** `#/components/schemas/Task` of mocks/control-plane/control-plane.yaml. */
export type ControlPlaneTask = components['schemas']['Task'];

/**
 * The control plane's view of a task as the store sees it now.
 * @example toControlPlaneTask(store.findTask(taskId)).status // 'processing'
 */
export function toControlPlaneTask(task: TaskState): ControlPlaneTask {
  return {
    taskId: task.taskId,
    agentId: task.agentId,
    status: task.status,
    priority: task.priority,
    cost: task.cost,
    submittedAt: new Date(task.submittedAt).toISOString(),
    startsAt: new Date(task.startsAt).toISOString(),
    finishesAt: new Date(task.finishesAt).toISOString(),
  };
}
