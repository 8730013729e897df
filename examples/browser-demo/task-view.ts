// Shows the tasks submitted from this page with their latest status.
import type { TaskPriority, TaskSubmission } from '../../spec/index.ts';
import { h } from './element.ts';

/** A submitted task as the page follows it: the API's answer plus which agent and priority it went with. */
export interface TrackedTask extends TaskSubmission {
  agentId: string;
  agentName: string;
  priority: TaskPriority;
}

/**
 * Renders the task rows into the table's body.
 * @example renderTasks(tableElement, [{ taskId: 'tsk_1', status: 'queued', estimatedCompletion: 3, cost: 1, agentId: 'agt_1', agentName: 'X', priority: 'high' }]);
 */
export function renderTasks(table: HTMLTableElement, tasks: readonly TrackedTask[]): void {
  const body = table.tBodies[0] ?? table.createTBody();
  body.replaceChildren(
    ...tasks.map((task) =>
      h(
        'tr',
        { 'data-task-id': task.taskId, 'data-status': task.status },
        h('td', {}, h('code', {}, task.taskId)),
        h('td', {}, task.agentName),
        h('td', {}, task.priority),
        h('td', {}, h('span', { class: `pill ${task.status}` }, task.status)),
        h('td', {}, task.cost),
        h('td', {}, task.estimatedCompletion),
      ),
    ),
  );
}
