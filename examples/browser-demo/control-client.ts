// The demo's calls to the fake's control plane (/__mock/, documented in mocks/control-plane/control-plane.yaml): things the API itself
// cannot do, such as listing the seeded agents, reading a task's status, advancing the mock's clock and switching scenarios.
import type { AgentCategory, AgentModel, AgentStatus } from '../../spec/index.ts';
import type { ControlPlaneTask } from '../../mocks/control-plane/control-plane-task.ts';
import type { ErrorAnswer } from './problem-message.ts';

/** One row of `GET /__mock/agents`. */
export interface AgentSummary {
  agentId: string;
  name: string;
  category: AgentCategory;
  model: AgentModel;
  status: AgentStatus;
}

/** What the demo shows of `GET /__mock/tasks/{taskId}` (the control plane's one task view). */
export type TaskView = Pick<ControlPlaneTask, 'taskId' | 'agentId' | 'status' | 'priority' | 'cost' | 'finishesAt'>;

/** A control-plane answer: the value, or the error answer to show. */
export type ControlResult<T> = { ok: true; value: T } | { ok: false; error: ErrorAnswer };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isAgentSummary(value: unknown): value is AgentSummary {
  return (
    isObject(value) &&
    typeof value.agentId === 'string' &&
    typeof value.name === 'string' &&
    typeof value.status === 'string'
  );
}

function isTaskView(value: unknown): value is TaskView {
  return (
    isObject(value) &&
    typeof value.taskId === 'string' &&
    typeof value.status === 'string' &&
    typeof value.cost === 'number'
  );
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return text;
  }
}

/**
 * The control-plane calls the demo makes, against `baseUrl` (the page's origin, where the worker answers).
 * @example const control = createControlClient(location.origin); const agents = await control.listAgents();
 */
export function createControlClient(baseUrl: string) {
  async function call<T>(
    method: string,
    path: string,
    body: unknown,
    check: (value: unknown) => T | undefined,
  ): Promise<ControlResult<T>> {
    const response = await fetch(`${baseUrl}/__mock${path}`, {
      method,
      ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const value = await readBody(response);
    if (!response.ok)
      return {
        ok: false,
        error: { status: response.status, body: value, retryAfter: response.headers.get('retry-after') },
      };
    const checked = check(value);
    if (checked === undefined)
      return { ok: false, error: { status: response.status, body: `unexpected answer from /__mock${path}` } };
    return { ok: true, value: checked };
  }
  const done = (): true => true;
  return {
    /** Every agent in the store, seeded and deployed (the control plane pages at 1,000). */
    listAgents: () =>
      call('GET', '/agents?limit=1000', undefined, (value) =>
        isObject(value) && Array.isArray(value.agents) && value.agents.every(isAgentSummary) ? value.agents : undefined,
      ),
    /** The task's status on the mock's clock. */
    readTask: (taskId: string) =>
      call('GET', `/tasks/${encodeURIComponent(taskId)}`, undefined, (value) =>
        isTaskView(value) ? value : undefined,
      ),
    /** Moves the mock's clock forward; tasks due by then finish and update their agent. */
    advanceClock: (seconds: number) => call('POST', '/clock/advance', { seconds }, done),
    /** At most `limit` API requests per `windowSeconds`; beyond it the API answers 429 with Retry-After. */
    setRateLimit: (limit: number, windowSeconds: number) =>
      call('PUT', '/scenarios', { rateLimit: { limit, windowSeconds } }, done),
    /** Turns every scenario off. */
    clearScenarios: () => call('DELETE', '/scenarios', undefined, done),
    /** Back to the seeded catalogue. */
    reset: () => call('POST', '/reset', undefined, done),
  };
}
