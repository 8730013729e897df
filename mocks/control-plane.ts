// The control plane under /__mock/ (documented in mocks/control-plane.yaml): reset, agents, tasks, clock, journal, coverage, scenarios.
import type { AgentStatus } from '../spec/index.ts';
import type { MockCore } from './core.ts';
import type { MockRequest, MockResponse } from './mock-http.ts';
import { problemResponse } from './problems.ts';
import { readJsonBody } from './request-body.ts';
import { parseScenarioConfig } from './scenarios.ts';
import { STATUSES } from './catalogue.ts';
import { MAX_CLOCK_OFFSET_MS } from './clock.ts';
import { taskStatusAt } from './task-lifecycle.ts';

const json = (status: number, value: unknown): MockResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value),
});
const noContent = (): MockResponse => ({ status: 204, headers: {}, body: '' });

interface Route {
  method: string;
  /** Path below /__mock, with `:name` parameters. */
  pattern: string;
  handle(core: MockCore, request: MockRequest, params: Record<string, string>): MockResponse | Promise<MockResponse>;
}

function parseCount(value: string | null, fallback: number, max: number): number | undefined {
  if (value === null) return fallback;
  if (!/^\d{1,9}$/.test(value)) return undefined;
  return Math.min(Number(value), max);
}

function invalid(request: MockRequest, path: string, message: string): MockResponse {
  return problemResponse('bad-request', {
    detail: `${path || 'The body'} ${message}.`,
    instance: request.path,
    errors: [{ path, message }],
  });
}

function clockView(core: MockCore): { now: string; offsetMs: number } {
  return { now: new Date(core.clock.now()).toISOString(), offsetMs: core.clock.offset };
}

const ROUTES: readonly Route[] = [
  {
    method: 'GET',
    pattern: '/health',
    handle: (core) =>
      json(200, { status: 'ok', seed: core.seed, agents: core.store.agentCount, tasks: core.store.taskCount }),
  },
  {
    method: 'POST',
    pattern: '/reset',
    handle: async (core) => {
      core.reset();
      await core.persist();
      return json(200, { seed: core.seed, agents: core.store.agentCount });
    },
  },
  {
    method: 'GET',
    pattern: '/agents',
    handle: (core, request) => {
      const query = new URLSearchParams(request.query);
      const offset = parseCount(query.get('offset'), 0, Number.MAX_SAFE_INTEGER);
      const limit = parseCount(query.get('limit'), 100, 1000);
      if (offset === undefined) return invalid(request, '/query/offset', 'must be a non-negative integer');
      if (limit === undefined) return invalid(request, '/query/limit', 'must be a non-negative integer');
      const status = query.get('status');
      if (status !== null && !STATUSES.includes(status as AgentStatus))
        return invalid(request, '/query/status', `must be one of ${STATUSES.join(', ')}`);
      const page = core.store.list({ offset, limit, ...(status !== null && { status: status as AgentStatus }) });
      return json(200, { total: page.total, offset, limit, agents: page.agents });
    },
  },
  {
    method: 'PUT',
    pattern: '/agents/:agentId/status',
    handle: async (core, request, params) => {
      const parsed = readJsonBody(request);
      if (!parsed.ok) return parsed.response;
      const body = parsed.value as { status?: unknown } | null;
      const status = typeof body === 'object' && body !== null ? body.status : undefined;
      if (!STATUSES.includes(status as AgentStatus))
        return invalid(request, '/status', `must be one of ${STATUSES.join(', ')}`);
      const agent = core.store.setStatus(params.agentId ?? '', status as AgentStatus);
      if (!agent)
        return problemResponse('agent-not-found', {
          detail: `No agent has the id ${params.agentId ?? ''}.`,
          instance: request.path,
        });
      await core.persist();
      return json(200, agent);
    },
  },
  {
    method: 'GET',
    pattern: '/tasks/:taskId',
    handle: (core, request, params) => {
      const task = core.store.getTask(params.taskId ?? '');
      if (!task)
        return problemResponse('task-not-found', {
          detail: `No task has the id ${params.taskId ?? ''} (the history keeps the last ${core.store.maxTasks}).`,
          instance: request.path,
        });
      const now = core.clock.now();
      return json(200, {
        taskId: task.taskId,
        agentId: task.agentId,
        status: taskStatusAt(task, now),
        priority: task.priority,
        cost: task.cost,
        submittedAt: new Date(task.submittedAt).toISOString(),
        startsAt: new Date(task.startsAt).toISOString(),
        finishesAt: new Date(task.finishesAt).toISOString(),
      });
    },
  },
  { method: 'GET', pattern: '/clock', handle: (core) => json(200, clockView(core)) },
  {
    method: 'POST',
    pattern: '/clock/advance',
    handle: async (core, request) => {
      const parsed = readJsonBody(request);
      if (!parsed.ok) return parsed.response;
      const body = parsed.value as { seconds?: unknown } | null;
      const seconds = typeof body === 'object' && body !== null ? body.seconds : undefined;
      if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > 315_360_000) {
        return invalid(request, '/seconds', 'must be a number of seconds from 0 to 315360000 (ten years)');
      }
      const room = MAX_CLOCK_OFFSET_MS - core.clock.offset;
      if (seconds * 1000 > room) {
        return invalid(
          request,
          '/seconds',
          `would move the clock past its bound of ${MAX_CLOCK_OFFSET_MS / 1000} s (100 years) in total; at most ${Math.max(0, Math.floor(room / 1000))} s are left (POST /__mock/reset restores it)`,
        );
      }
      await core.advanceClock(seconds * 1000);
      return json(200, clockView(core));
    },
  },
  {
    method: 'GET',
    pattern: '/journal',
    handle: (core, request) => {
      const limit = parseCount(
        new URLSearchParams(request.query).get('limit'),
        core.journal.capacity,
        core.journal.capacity,
      );
      if (limit === undefined) return invalid(request, '/query/limit', 'must be a non-negative integer');
      return json(200, { capacity: core.journal.capacity, entries: core.journal.entries(limit) });
    },
  },
  {
    method: 'DELETE',
    pattern: '/journal',
    handle: (core) => {
      core.journal.clear();
      return noContent();
    },
  },
  { method: 'GET', pattern: '/coverage', handle: (core) => json(200, core.coverage.report()) },
  {
    method: 'DELETE',
    pattern: '/coverage',
    handle: async (core) => {
      core.coverage.reset();
      await core.persist();
      return noContent();
    },
  },
  {
    method: 'GET',
    pattern: '/scenarios',
    handle: (core) => json(200, { ...core.scenarios.config, taskFailureRatio: core.scenarios.taskFailureRatio }),
  },
  {
    method: 'PUT',
    pattern: '/scenarios',
    handle: async (core, request) => {
      const parsed = readJsonBody(request);
      if (!parsed.ok) return parsed.response;
      const { config, errors } = parseScenarioConfig(parsed.value);
      if (errors.length > 0) {
        return problemResponse('validation', {
          detail: `The scenario breaks its schema in ${errors.length} place${errors.length === 1 ? '' : 's'}.`,
          instance: request.path,
          errors,
        });
      }
      await core.configureScenarios(config);
      return json(200, { ...config, taskFailureRatio: core.scenarios.taskFailureRatio });
    },
  },
  {
    method: 'DELETE',
    pattern: '/scenarios',
    handle: async (core) => {
      await core.configureScenarios({});
      return noContent();
    },
  },
];

const COMPILED = ROUTES.map((route) => ({ ...route, segments: route.pattern.split('/') }));

/**
 * Answers a request under /__mock/.
 * @example await handleControlRequest(core, { method: 'POST', path: '/__mock/reset', query: '', headers: {}, body: null })
 */
export async function handleControlRequest(core: MockCore, request: MockRequest): Promise<MockResponse> {
  const parts = request.path.slice('/__mock'.length).split('/');
  const allow: string[] = [];
  for (const route of COMPILED) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let matches = true;
    for (let index = 0; index < parts.length && matches; index += 1) {
      const segment = route.segments[index] ?? '';
      const part = parts[index] ?? '';
      if (segment.startsWith(':')) {
        try {
          params[segment.slice(1)] = decodeURIComponent(part);
        } catch {
          matches = false;
        }
        matches &&= part !== '';
      } else {
        matches = segment === part;
      }
    }
    if (!matches) continue;
    if (route.method === request.method) return route.handle(core, request, params);
    allow.push(route.method);
  }
  if (allow.length > 0) {
    return problemResponse('method-not-allowed', {
      detail: `${request.method} is not allowed here; use ${allow.join(', ')}.`,
      instance: request.path,
      headers: { allow: allow.join(', ') },
    });
  }
  return problemResponse('not-found', {
    detail: `The control plane has no ${request.path.slice(0, 200)}; see mocks/control-plane.yaml.`,
    instance: request.path.slice(0, 2048),
  });
}
