import { describe, expect, it } from 'vitest';
import {
  checkResponse,
  validateRequestBody,
  type Agent,
  type BodyOperationId,
  type RequestBodies,
} from '../../../spec/index.ts';
import { createFixedClock } from '../../domain/clock.ts';
import { createMemoryStorage } from '../../storage/memory/memory-storage.ts';
import { AgentStore } from './store.ts';
import { taskStatusAt } from '../task-lifecycle.ts';

const START = Date.parse('2026-11-20T12:00:00.000Z');
// The store takes validated requests: the spec's validator fills in its defaults, as the core does.
function validated<K extends BodyOperationId>(operationId: K, body: unknown): RequestBodies[K] {
  const result = validateRequestBody(operationId, body);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}
const execute = (body: { task: string }): RequestBodies['executeAgentTask'] => validated('executeAgentTask', body);
const deployRequest = validated('deployAgent', {
  name: 'Test Bot',
  category: 'defi',
  model: 'gpt-4',
  initialSupply: 1000,
});

function newStore(options: { failureRatio?: number; maxTasks?: number; seed?: number } = {}): AgentStore {
  return new AgentStore({
    seed: options.seed ?? 7,
    clock: createFixedClock(START),
    storage: createMemoryStorage(),
    ...options,
  });
}

function firstActive(store: AgentStore): string {
  const id = store.list({ status: 'active', limit: 1 }).agents[0]?.agentId;
  if (!id) throw new Error('the catalogue has no active agent');
  return id;
}

describe('AgentStore deploy', () => {
  it('creates the agent exactly as the spec says (status, supplies, defaults, marketCap, holders, creator)', () => {
    const store = newStore();
    const result = store.deploy(deployRequest, 'alice');
    const agent = store.get(result.agentId);
    expect(agent).toMatchObject({
      name: 'Test Bot',
      description: '',
      capabilities: [],
      creator: 'alice',
      status: 'active',
      deployedAt: '2026-11-20T12:00:00.000Z',
      tokenomics: { totalSupply: 1000, circulatingSupply: 1000, price: 0.01, marketCap: 10, revenueShare: 0 },
      performance: { totalRevenue: 0, tasksCompleted: 0, successRate: 0, averageResponseTime: 0 },
      statistics: { holders: 1, volume24h: 0, priceChange24h: 0 },
    });
    expect(result).toEqual({
      agentId: result.agentId,
      name: 'Test Bot',
      tokenAddress: agent?.tokenAddress,
      marketCap: 10,
      holders: 1,
      status: 'active',
      deployedAt: '2026-11-20T12:00:00.000Z',
    });
    expect(
      checkResponse({
        operationId: 'getAgent',
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify(agent),
      }).ok,
    ).toBe(true);
    expect(
      checkResponse({
        operationId: 'deployAgent',
        status: 201,
        contentType: 'application/json',
        body: JSON.stringify(result),
      }).ok,
    ).toBe(true);
  });

  it('uses pricePerToken, revenueShare, description and capabilities when given', () => {
    const store = newStore();
    const result = store.deploy(
      { ...deployRequest, pricePerToken: 0.05, revenueShare: 0.2, description: 'd', capabilities: ['a'] },
      'bob',
    );
    expect(store.get(result.agentId)?.tokenomics).toMatchObject({ price: 0.05, marketCap: 50, revenueShare: 0.2 });
    expect(store.get(result.agentId)).toMatchObject({ description: 'd', capabilities: ['a'] });
  });

  it('gives unique, opaque ids to many deploys', () => {
    const store = newStore();
    const ids = new Set(Array.from({ length: 2000 }, () => store.deploy(deployRequest, 'a').agentId));
    expect(ids.size).toBe(2000);
    expect(store.agentCount).toBe(36 + 2000);
  });

  it('does not share the capabilities array with the request', () => {
    const store = newStore();
    const request = { ...deployRequest, capabilities: ['x'] };
    const { agentId } = store.deploy(request, 'a');
    request.capabilities.push('y');
    expect(store.get(agentId)?.capabilities).toEqual(['x']);
  });
});

describe('AgentStore tasks and their lifecycle on the injected clock', () => {
  it('queues a task, then processes it, then completes it and updates the agent', () => {
    const store = newStore({ failureRatio: 0 });
    const { agentId } = store.deploy({ ...deployRequest, model: 'llama-2' }, 'a');
    const result = store.submitTask(agentId, { task: 'x', priority: 'normal' });
    if (!result.ok) throw new Error('submit failed');
    expect(result.submission).toEqual({
      taskId: result.task.taskId,
      status: 'queued',
      estimatedCompletion: 4,
      cost: 0.2502,
    });
    expect(store.findTask(result.task.taskId)?.status).toBe('queued');
    store.clock.advance(2000);
    expect(store.findTask(result.task.taskId)?.status).toBe('processing');
    expect(store.get(agentId)?.performance.tasksCompleted).toBe(0);
    store.clock.advance(2001);
    expect(store.findTask(result.task.taskId)?.status).toBe('processing');
    store.clock.advance(1);
    expect(store.findTask(result.task.taskId)?.status).toBe('completed');
    expect(store.get(agentId)?.performance).toEqual({
      totalRevenue: 0.2502,
      tasksCompleted: 1,
      successRate: 1,
      averageResponseTime: 4002,
    });
    expect(store.get(agentId)?.statistics.volume24h).toBe(0.0025); // cost × price, rounded to 4 decimals
  });

  it('fails every task with a failure ratio of 1, and successRate falls', () => {
    const store = newStore({ failureRatio: 1 });
    const { agentId } = store.deploy(deployRequest, 'a');
    const result = store.submitTask(agentId, execute({ task: 'x' }));
    if (!result.ok) throw new Error('submit failed');
    store.clock.advance(60_000);
    expect(store.findTask(result.task.taskId)?.status).toBe('failed');
    expect(store.get(agentId)?.performance).toMatchObject({ tasksCompleted: 0, successRate: 0, totalRevenue: 0 });
  });

  it('keeps successRate = completed / finished over a mix of outcomes', () => {
    const store = newStore({ failureRatio: 0.5 });
    const { agentId } = store.deploy(deployRequest, 'a');
    const tasks = Array.from({ length: 200 }, () => store.submitTask(agentId, execute({ task: 'x' })));
    store.clock.advance(60_000);
    const completed = tasks.filter((t) => t.ok && store.findTask(t.task.taskId)?.status === 'completed').length;
    const performance = store.get(agentId)?.performance;
    expect(performance?.tasksCompleted).toBe(completed);
    expect(performance?.successRate).toBeCloseTo(completed / 200, 4);
    expect(completed).toBeGreaterThan(50);
    expect(completed).toBeLessThan(150);
  });

  it('refuses tasks for paused and deprecated agents, and for unknown ones', () => {
    const store = newStore();
    const paused = store.list({ status: 'paused', limit: 1 }).agents[0]?.agentId ?? '';
    const deprecated = store.list({ status: 'deprecated', limit: 1 }).agents[0]?.agentId ?? '';
    expect(store.submitTask(paused, execute({ task: 'x' }))).toEqual({
      ok: false,
      reason: 'agent-not-active',
      status: 'paused',
    });
    expect(store.submitTask(deprecated, execute({ task: 'x' }))).toEqual({
      ok: false,
      reason: 'agent-not-active',
      status: 'deprecated',
    });
    expect(store.submitTask('agt_none', execute({ task: 'x' }))).toEqual({ ok: false, reason: 'agent-not-found' });
  });

  it('keeps the task history and the unfinished tasks bounded, settling the earliest ahead of time', () => {
    const store = newStore({ maxTasks: 10, failureRatio: 0 });
    const agentId = firstActive(store);
    const before = store.get(agentId)?.performance.tasksCompleted ?? 0;
    const first = store.submitTask(agentId, execute({ task: 'x' }));
    for (let index = 0; index < 30; index += 1) store.submitTask(agentId, execute({ task: 'x' }));
    expect(store.taskCount).toBe(10);
    if (first.ok) expect(store.findTask(first.task.taskId)).toBeUndefined();
    // 21 tasks were settled ahead of time when the bound pushed them out of the queue; the 10 left finish on time.
    expect(store.get(agentId)?.performance.tasksCompleted).toBe(before + 21);
    store.clock.advance(60_000);
    expect(store.get(agentId)?.performance.tasksCompleted).toBe(before + 31);
  });

  it('settles tasks in finish order, whatever the submission order', () => {
    const clock = createFixedClock(START);
    const store = new AgentStore({ seed: 3, clock, failureRatio: 0, storage: createMemoryStorage() });
    const { agentId } = store.deploy(deployRequest, 'a');
    const low = store.submitTask(agentId, { task: 'x', priority: 'low' });
    const high = store.submitTask(agentId, { task: 'x', priority: 'high' });
    if (!low.ok || !high.ok) throw new Error('submit failed');
    clock.advance(high.task.finishesAt - START);
    expect(store.findTask(high.task.taskId)?.status).toBe('completed');
    expect(store.findTask(low.task.taskId)?.status).toBe('queued');
    expect(store.get(agentId)?.performance.tasksCompleted).toBe(1);
  });
});

describe('taskStatusAt', () => {
  const task = { startsAt: 10, finishesAt: 20, outcome: 'failed' as const };
  it.each([
    ['before start', { given: 9, want: 'queued' }],
    ['at start', { given: 10, want: 'processing' }],
    ['just before the end', { given: 19, want: 'processing' }],
    ['at the end', { given: 20, want: 'failed' }],
  ] as const)('%s', (_name, { given, want }) => {
    expect(taskStatusAt(task, given)).toBe(want);
  });
});

describe('AgentStore reset and status', () => {
  it('reset forgets deploys and returns to the catalogue', () => {
    const store = newStore();
    const { agentId } = store.deploy(deployRequest, 'x');
    store.reset();
    expect(store.get(agentId)).toBeUndefined();
    expect(store.agentCount).toBe(36);
  });

  it('setStatus changes what get answers', () => {
    const store = newStore();
    const agentId = firstActive(store);
    const before = store.getJson(agentId);
    store.setStatus(agentId, 'paused');
    expect(store.getJson(agentId)).not.toBe(before);
    expect(store.get(agentId)?.status).toBe('paused');
  });
});

describe('AgentStore with a large catalogue (agents generated on demand)', () => {
  it('answers any catalogue agent exactly as createCatalogue makes it, and counts statuses without generating', () => {
    const store = newStore({ seed: 11 });
    const big = new AgentStore({
      seed: 11,
      clock: createFixedClock(START),
      catalogueSize: 5000,
      storage: createMemoryStorage(),
    });
    expect(big.agentCount).toBe(5000);
    expect(big.list({ status: 'paused', limit: 0 }).total).toBe(417);
    const last = big.list({ offset: 4999, limit: 1 }).agents[0];
    expect(last && big.getJson(last.agentId)).toBe(JSON.stringify(last && big.get(last.agentId)));
    // The first 36 agents of a 5000-agent catalogue are the 36 of the default one.
    expect(big.list({ limit: 36 }).agents).toEqual(store.list({ limit: 36 }).agents);
  });

  it('keeps a changed catalogue agent in its place, and lists deployed agents after the catalogue', () => {
    const store = newStore();
    const agentId = firstActive(store);
    store.setStatus(agentId, 'deprecated');
    const { agentId: deployedId } = store.deploy(deployRequest, 'a');
    expect(store.get(agentId)?.status).toBe('deprecated');
    expect(store.list({ status: 'deprecated' }).agents.map((agent) => agent.agentId)).toContain(agentId);
    expect(store.list({ limit: 1 }).agents[0]?.agentId).toBe(agentId);
    expect(store.agentCount).toBe(37);
    expect(store.list({ limit: 1000 }).agents.at(-1)?.agentId).toBe(deployedId);
    expect(store.list({ offset: 36, limit: 5 }).agents.map((agent) => agent.agentId)).toEqual([deployedId]);
  });
});

describe('the cached JSON of an agent (the GET hot path)', () => {
  // getJson answers from a cache; each change to the agent must drop it, or GET serves figures from before the change.
  it.each([
    ['a deployed agent', (store: AgentStore) => store.deploy(deployRequest, 'a').agentId],
    ['a catalogue agent', firstActive],
  ])('is rebuilt when a task of %s settles or its status changes', (_name, pick) => {
    const store = newStore({ failureRatio: 0 });
    const agentId = pick(store);
    const before = store.getJson(agentId);
    expect(before).toBe(JSON.stringify(store.get(agentId)));
    const submitted = store.submitTask(agentId, { task: 'x', priority: 'high' });
    if (!submitted.ok) throw new Error('submit failed');
    expect(store.getJson(agentId)).toBe(before);
    store.clock.advance(submitted.task.finishesAt - store.clock.now());
    const settled = store.getJson(agentId);
    expect(settled).not.toBe(before);
    expect(settled).toBe(JSON.stringify(store.get(agentId)));
    expect((JSON.parse(settled ?? '{}') as Agent).performance.tasksCompleted).toBe(
      (JSON.parse(before ?? '{}') as Agent).performance.tasksCompleted + 1,
    );
    store.setStatus(agentId, 'paused');
    expect((JSON.parse(store.getJson(agentId) ?? '{}') as Agent).status).toBe('paused');
  });
});
