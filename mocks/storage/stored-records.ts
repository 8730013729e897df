// Checks what a durable store hands back before the fake serves it: a file anyone may have edited is input like any other.
import { validateSchema, type Agent, type ValidationError } from '../../spec/index.ts';
import { MAX_CATALOGUE_SIZE } from '../state/catalogue.ts';
import { clockOffsetProblem } from '../domain/clock.ts';
import { parseSnapshot as parseCoverageSnapshot } from '../core/steering/coverage.ts';
import { parseScenarioConfig } from '../core/steering/scenarios.ts';
import { OVERRIDES_DOCUMENT, parseStoredOverrides } from '../core/steering/stored-overrides.ts';
import type { TaskRecord } from '../state/task-lifecycle.ts';
import { agentRecordErrors } from '../state/agent-bounds.ts';

/**
 * Longest JSON text of a stored agent: a deploy within the spec's bounds (name 100, description 2000, 32 capabilities of
 * 64 characters, each character escaped at worst as \uXXXX) stays well under it, so a larger one was not written by us.
 */
const MAX_STORED_AGENT_CHARS = 64 * 1024;
/** Longest JSON text of a stored task (a task record is a few numbers and ids). */
const MAX_STORED_TASK_CHARS = 4096;

/** The outcome of a check: the value, or the first reason it was refused. */
export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

const first = (errors: ValidationError[]): string => {
  const error = errors[0];
  return error ? `${error.path || '(the value)'} ${error.message}` : 'breaks the schema';
};

function parse(text: unknown, limit: number): Checked<unknown> {
  if (typeof text !== 'string') return { ok: false, reason: 'is not JSON text' };
  if (text.length > limit) return { ok: false, reason: `is ${text.length} characters long, more than ${limit}` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: 'is not valid JSON' };
  }
}

/**
 * A stored agent: an Agent by the spec's schema with nothing undocumented, whose deploy fields are within the bounds a
 * deploy request has (so whatever is served could have been deployed).
 * @example checkStoredAgent('{"name":123}').ok // false
 */
export function checkStoredAgent(text: unknown): Checked<Agent> {
  const parsed = parse(text, MAX_STORED_AGENT_CHARS);
  if (!parsed.ok) return parsed;
  const schema = validateSchema('Agent', parsed.value, { strict: true });
  if (!schema.ok) return { ok: false, reason: first(schema.errors) };
  const agent = parsed.value as Agent;
  const bounds = agentRecordErrors(agent);
  if (bounds.length > 0) return { ok: false, reason: first(bounds) };
  return { ok: true, value: agent };
}

const TASK_FIELDS = [
  'taskId',
  'agentId',
  'priority',
  'cost',
  'submittedAt',
  'startsAt',
  'finishesAt',
  'outcome',
  'settled',
] as const;
const isTime = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * A stored task: ids, priority, outcome and cost by the spec's schemas; times whole milliseconds in order.
 * @example checkStoredTask('{"finishesAt":"soon"}').ok // false
 */
export function checkStoredTask(text: unknown): Checked<TaskRecord> {
  const parsed = parse(text, MAX_STORED_TASK_CHARS);
  if (!parsed.ok) return parsed;
  const task = parsed.value as Record<string, unknown> | null;
  if (typeof task !== 'object' || task === null || Array.isArray(task))
    return { ok: false, reason: 'is not an object' };
  const extra = Object.keys(task).find((key) => !(TASK_FIELDS as readonly string[]).includes(key));
  if (extra !== undefined) return { ok: false, reason: `/${extra} is not a task field` };
  const fields: [string, string][] = [
    ['taskId', 'TaskId'],
    ['agentId', 'AgentId'],
    ['priority', 'TaskPriority'],
    ['outcome', 'TaskStatus'],
    ['cost', 'TaskSubmission/properties/cost'],
  ];
  for (const [field, schema] of fields) {
    const result = validateSchema(schema, task[field]);
    if (!result.ok) return { ok: false, reason: `/${field} ${first(result.errors).replace(/^\(the value\) /, '')}` };
  }
  if (task.outcome !== 'completed' && task.outcome !== 'failed')
    return { ok: false, reason: '/outcome must be completed or failed' };
  for (const field of ['submittedAt', 'startsAt', 'finishesAt'] as const)
    if (!isTime(task[field])) return { ok: false, reason: `/${field} must be whole milliseconds since the epoch` };
  if (
    !(
      (task.submittedAt as number) <= (task.startsAt as number) &&
      (task.startsAt as number) <= (task.finishesAt as number)
    )
  )
    return { ok: false, reason: 'must have submittedAt <= startsAt <= finishesAt' };
  if (typeof task.settled !== 'boolean') return { ok: false, reason: '/settled must be a boolean' };
  return { ok: true, value: task as unknown as TaskRecord };
}

/**
 * The documents the fake itself keeps (random state, clock offset, scenarios, overrides, coverage), each within its bounds.
 * @example checkDocument('clock', -5).ok // false
 */
export function checkDocument(name: string, value: unknown): Checked<unknown> {
  switch (name) {
    case 'random':
      return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffffff
        ? { ok: true, value }
        : { ok: false, reason: 'must be a 32-bit unsigned integer' };
    case 'clock': {
      const problem = clockOffsetProblem(value);
      return problem === undefined ? { ok: true, value } : { ok: false, reason: problem };
    }
    case 'scenarios': {
      const { errors } = parseScenarioConfig(value);
      return errors.length === 0 ? { ok: true, value } : { ok: false, reason: first(errors) };
    }
    case 'catalogue': {
      const catalogue = value as { seed?: unknown; size?: unknown } | null;
      if (
        typeof catalogue === 'object' &&
        catalogue !== null &&
        Number.isInteger(catalogue.seed) &&
        (catalogue.seed as number) >= 0 &&
        (catalogue.seed as number) <= 0xffffffff &&
        Number.isInteger(catalogue.size) &&
        (catalogue.size as number) >= 0 &&
        (catalogue.size as number) <= MAX_CATALOGUE_SIZE
      )
        return { ok: true, value };
      return {
        ok: false,
        reason: `must be { seed, size } with a 32-bit seed and a size from 0 to ${MAX_CATALOGUE_SIZE}`,
      };
    }
    case OVERRIDES_DOCUMENT: {
      const parsed = parseStoredOverrides(value);
      return parsed.ok ? { ok: true, value } : { ok: false, reason: parsed.reason };
    }
    case 'coverage':
      try {
        return { ok: true, value: parseCoverageSnapshot(value) };
      } catch (error) {
        return { ok: false, reason: error instanceof Error ? error.message : String(error) };
      }
    default:
      // Documents of other parts of the fake are checked by their readers.
      return { ok: true, value };
  }
}
