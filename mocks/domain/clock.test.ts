// The clocks on real and faked time: advances move the wall clock, and the runner clock follows vi's fake timers.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRunnerClock, createSystemClock } from './clock.ts';
import { createMockCore } from '../assembly/mock-core.ts';
import { silentLogger } from './logger.ts';
import { createTestApi } from '../test-api/test-api.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('the system clock, on the real wall time', () => {
  it('is ahead of Date.now() by what was advanced', () => {
    const clock = createSystemClock();
    clock.advance(3_600_000);
    const now = Date.now();
    expect(clock.now()).toBeGreaterThanOrEqual(now + 3_600_000);
    expect(clock.now()).toBeLessThan(now + 3_600_000 + 1000);
  });

  it('moves the default core’s clock when the control plane advances it', async () => {
    const core = createMockCore({ logger: silentLogger });
    const before = Date.now();
    await core.advanceClock(7_200_000);
    expect(core.clock.now()).toBeGreaterThanOrEqual(before + 7_200_000);
  });
});

describe('followFakeTimers', () => {
  it('the runner clock reads the faked Date.now(), even when made before the timers were faked', () => {
    const clock = createRunnerClock();
    vi.useFakeTimers({ now: Date.parse('2026-11-20T12:00:00Z') });
    expect(clock.now()).toBe(Date.parse('2026-11-20T12:00:00Z'));
    vi.advanceTimersByTime(5000);
    expect(clock.now()).toBe(Date.parse('2026-11-20T12:00:05Z'));
    clock.advance(1000);
    expect(clock.now()).toBe(Date.parse('2026-11-20T12:00:06Z'));
  });

  it('moves queued tasks along with vi.advanceTimersByTime', async () => {
    const core = createMockCore({ followFakeTimers: true, logger: silentLogger, failureRatio: 0 });
    const api = createTestApi(core);
    vi.useFakeTimers({ now: Date.parse('2026-11-20T12:00:00Z') });
    const agent = await api.seedAgent();
    const task = await api.seedTask({ agentId: agent.agentId, status: 'queued', outcome: 'completed' });
    expect(core.store.findTask(task.taskId)?.status).toBe('queued');
    vi.advanceTimersByTime(Date.parse(task.startsAt) - Date.now());
    expect(core.store.findTask(task.taskId)?.status).toBe('processing');
    vi.advanceTimersByTime(Date.parse(task.finishesAt) - Date.now());
    expect(core.store.findTask(task.taskId)?.status).toBe('completed');
    expect(core.store.get(agent.agentId)?.performance.tasksCompleted).toBe(agent.performance.tasksCompleted + 1);
  });

  it('does not follow them without the option (the clock keeps the real Date.now it was made with)', () => {
    const core = createMockCore({ logger: silentLogger });
    vi.useFakeTimers({ now: Date.parse('2000-01-01T00:00:00Z') });
    expect(core.clock.now()).toBeGreaterThan(Date.parse('2020-01-01T00:00:00Z'));
  });
});
