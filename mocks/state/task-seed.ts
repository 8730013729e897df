// Typed seeding of a task in a given state: checked against the spec's schemas, then timed on the mock's clock so its
// status now is the one asked for (a finished one is applied to its agent's figures as a real one would be).
// Stryker disable all: not reached: seeding is the control plane's and the test API's (/__mock/, setupMockServer), never the API's the contract suite checks
import {
  isJsonObject,
  validateSchema,
  type TaskPriority,
  type TaskStatus,
  type ValidationError,
} from '../../spec/index.ts';
import type { TaskRecord } from './task-lifecycle.ts';
import type { TaskPlan } from './task-rules.ts';

/**
 * A task to seed on an agent: its status now, and optionally its priority, cost and (for a queued or processing task)
 * how it will end.
 * @example const seed: TaskSeed = { agentId, status: 'processing', outcome: 'failed' };
 */
export interface TaskSeed {
  agentId: string;
  status: TaskStatus;
  priority?: TaskPriority;
  /** Agent tokens (default: what the task rules charge for a minimal task). */
  cost?: number;
  /** How a queued or processing task ends (default: drawn as a submitted task's is); must match a finished status. */
  outcome?: 'completed' | 'failed';
}

const FIELDS: Readonly<Record<keyof TaskSeed, string>> = {
  agentId: 'AgentId',
  status: 'TaskStatus',
  priority: 'TaskPriority',
  cost: 'TaskSubmission/properties/cost',
  outcome: 'TaskStatus',
};

/**
 * Checks a task seed (anything: it comes from a test or a request body) field by field against the spec's schemas.
 * @example checkTaskSeed({ agentId: 'a', status: 'done' }).ok // false: /status must be one of queued, processing, completed, failed
 */
export function checkTaskSeed(input: unknown): { ok: true; seed: TaskSeed } | { ok: false; errors: ValidationError[] } {
  if (!isJsonObject(input)) return { ok: false, errors: [{ path: '', message: 'must be an object' }] };
  const errors: ValidationError[] = [];
  for (const key of Object.keys(input))
    if (!(key in FIELDS)) errors.push({ path: `/${key}`, message: 'is not a field of a task seed' });
  for (const [field, schema] of Object.entries(FIELDS)) {
    const value = input[field];
    // An outcome is one of the two ends a task may have, checked below: the whole TaskStatus enum would name others.
    if (field === 'outcome') continue;
    if (value === undefined) {
      if (field === 'agentId' || field === 'status') errors.push({ path: `/${field}`, message: 'is required' });
      continue;
    }
    const result = validateSchema(schema, value);
    if (!result.ok)
      for (const error of result.errors) errors.push({ path: `/${field}${error.path}`, message: error.message });
  }
  const { status, outcome } = input;
  if (outcome !== undefined && outcome !== 'completed' && outcome !== 'failed')
    errors.push({ path: '/outcome', message: 'must be one of completed, failed' });
  else if (outcome !== undefined && (status === 'completed' || status === 'failed') && outcome !== status)
    errors.push({ path: '/outcome', message: `must be ${String(status)} for a ${String(status)} task, or left out` });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, seed: input as unknown as TaskSeed };
}

/**
 * The record of a seeded task at `now`: a queued one starts after its queue wait, a processing one started now, a
 * finished one finished now (so it is applied to its agent at once).
 * @example seededTaskRecord(seed, plan, 'tsk_1', Date.now(), 'completed').finishesAt // now
 */
export function seededTaskRecord(
  seed: TaskSeed,
  plan: TaskPlan,
  taskId: string,
  now: number,
  drawnOutcome: 'completed' | 'failed',
): TaskRecord {
  const queueMs = Math.max(1, plan.queueMs);
  const processingMs = Math.max(1, plan.processingMs);
  const finished = seed.status === 'completed' || seed.status === 'failed';
  const startsAt = seed.status === 'queued' ? now + queueMs : finished ? now - processingMs : now;
  return {
    taskId,
    agentId: seed.agentId,
    priority: seed.priority ?? 'normal',
    cost: seed.cost ?? plan.cost,
    submittedAt: seed.status === 'queued' ? now : startsAt - queueMs,
    startsAt,
    finishesAt: finished ? now : startsAt + processingMs,
    outcome: finished ? (seed.status as 'completed' | 'failed') : (seed.outcome ?? drawnOutcome),
    settled: false,
  };
}
