// @vitest-environment jsdom
// The React component against the kit's fake in jsdom: each test sets up the state or failure it needs through the
// typed test API (seed, override, scenarios, clock, fake timers) and reads what the user would see.
import { cleanup, configure, fireEvent, render, screen } from '@testing-library/react';
import { mintToken, overrideHandler, setupMockServer } from 'agent-registry-kit/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AgentCard } from '../src/AgentCard';

// findBy* waits for what the user would see; on a loaded CI machine the first render can take seconds.
configure({ asyncUtilTimeout: 15_000 });

const API = 'https://api.example.test';
const server = setupMockServer({ seed: 7, baseUrl: API, followFakeTimers: true, failureRatio: 0 });
let token = '';
beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'error' });
  token = await mintToken();
});
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await server.api.reset();
});
afterAll(() => server.close());

const show = (agentId: string, as = token) => render(<AgentCard baseUrl={API} agentId={agentId} token={as} />);

describe('AgentCard', () => {
  it('shows an agent seeded with the given field values', async () => {
    const agent = await server.api.seedAgent({ name: 'Zero Holders', statistics: { holders: 0 }, status: 'deprecated' });
    show(agent.agentId);
    expect(await screen.findByRole('heading', { name: 'Zero Holders' })).toBeTruthy();
    expect(screen.getByText('Holders: 0')).toBeTruthy();
    expect(screen.getByText('Status: deprecated')).toBeTruthy();
  });

  it('says a paused agent refuses tasks (409)', async () => {
    const agent = await server.api.seedAgent({ status: 'paused' });
    show(agent.agentId);
    fireEvent.click(await screen.findByRole('button', { name: 'Run task' }));
    expect(await screen.findByText(/does not accept tasks: .*paused/)).toBeTruthy();
  });

  it('says an unknown agent does not exist (404, through msw server.use)', async () => {
    server.use(overrideHandler('getAgent', 404, undefined, { baseUrl: API }));
    const agent = await server.api.seedAgent();
    show(agent.agentId);
    expect((await screen.findByRole('alert')).textContent).toBe('This agent does not exist.');
  });

  it('asks to sign in again on an expired token (401)', async () => {
    const agent = await server.api.seedAgent();
    show(agent.agentId, await mintToken({ expired: true }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your session expired: sign in again.');
  });

  it('reports server trouble on 500 (a scenario) and 503 (an override)', async () => {
    const agent = await server.api.seedAgent();
    await server.api.setScenarios({ operations: { getAgent: { errorStatus: 500 } } });
    show(agent.agentId);
    expect((await screen.findByRole('alert')).textContent).toBe('The registry is having trouble (500).');
    cleanup();
    await server.api.setScenarios({});
    await server.api.override('executeAgentTask', 503);
    show(agent.agentId);
    fireEvent.click(await screen.findByRole('button', { name: 'Run task' }));
    expect(await screen.findByText('The registry is having trouble (503).')).toBeTruthy();
  });

  it('shows a spinner while the API is slow (latency)', async () => {
    const agent = await server.api.seedAgent({ name: 'Slow' });
    await server.api.setScenarios({ latencyMs: 300 });
    show(agent.agentId);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(await screen.findByRole('heading', { name: 'Slow' })).toBeTruthy();
  });

  it('asks to wait on 429', async () => {
    const agent = await server.api.seedAgent();
    await server.api.setScenarios({ rateLimit: { limit: 1, windowSeconds: 60 } });
    show(agent.agentId);
    fireEvent.click(await screen.findByRole('button', { name: 'Refresh' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests: wait a moment.');
  });

  it('counts a task driven to completed or failed by moving the mock clock', async () => {
    const agent = await server.api.seedAgent({ performance: { tasksCompleted: 0 } });
    await server.api.seedTask({ agentId: agent.agentId, status: 'queued', outcome: 'completed' });
    await server.api.seedTask({ agentId: agent.agentId, status: 'processing', outcome: 'failed' });
    await server.api.advanceClock(60_000);
    show(agent.agentId);
    expect(await screen.findByText('Tasks completed: 1')).toBeTruthy();
    expect(screen.getByText('Success rate: 0.5')).toBeTruthy();
  });

  it('moves queued tasks along with vi fake timers (the mock clock follows them)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const agent = await server.api.seedAgent({ performance: { tasksCompleted: 0 } });
    await server.api.seedTask({ agentId: agent.agentId, status: 'queued', outcome: 'completed' });
    show(agent.agentId);
    expect(await screen.findByText('Tasks completed: 0')).toBeTruthy();
    vi.advanceTimersByTime(60_000);
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('Tasks completed: 1')).toBeTruthy();
  });
});
