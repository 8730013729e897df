// @vitest-environment jsdom
// A TanStack Query component against the kit's fake in jsdom, as docs/testing-your-app.md's recipe says: a test client
// with retries off shows an error at once; the app's own client waits a 429's and a 503's Retry-After under vitest's
// fake timers; refetchInterval polls the agent until its queued task has finished (the fake's clock follows the fake
// timers: followFakeTimers). vi.waitFor, not findBy: it advances the fake timers while it waits.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { mintToken, overrideHandler, setupMockServer } from 'agent-registry-kit/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AgentQueryCard, createAppQueryClient } from '../src/AgentQueryCard';

const API = 'https://api.example.test';
const server = setupMockServer({ seed: 7, baseUrl: API, followFakeTimers: true, failureRatio: 0 });
let token = '';
/** When (by the faked Date) each request of the current test reached the fake, by method and path. */
let sent: { at: number; method: string; path: string }[] = [];
server.events.on('request:start', ({ request }) => {
  sent.push({ at: Date.now(), method: request.method, path: new URL(request.url).pathname });
});
beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'error' });
  token = await mintToken();
});
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  sent = [];
  await server.api.reset();
});
afterAll(() => server.close());

/** The recipe's test client: no retries (TanStack's default is three, with backoff), nothing kept between tests. */
function testClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } } });
}

function show(client: QueryClient, agentId: string, pollMs?: number) {
  return render(
    <QueryClientProvider client={client}>
      <AgentQueryCard baseUrl={API} agentId={agentId} token={token} {...(pollMs !== undefined && { pollMs })} />
    </QueryClientProvider>,
  );
}

/** Timers TanStack Query waits on (retry delays, refetchInterval, its notify batching) and the clock; not setImmediate. */
const fakeTimers = () => vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
const gets = () => sent.filter((request) => request.method === 'GET');
const text = (role: 'status' | 'alert') => () => screen.getByRole(role).textContent;

describe('AgentQueryCard (TanStack Query)', () => {
  it('shows a 500 at once with the test client: one request, no retry', async () => {
    const agent = await server.api.seedAgent();
    await server.api.override('getAgent', 500);
    show(testClient(), agent.agentId);
    await vi.waitFor(() => expect(text('alert')()).toBe('The registry is having trouble (500).'), { timeout: 15_000 });
    expect(gets()).toHaveLength(1);
  });

  it('waits a 429’s Retry-After with the app’s client, then shows the agent (rate-limit scenario, fake timers)', async () => {
    fakeTimers();
    const agent = await server.api.seedAgent({ name: 'Rate Limited' });
    // The fake's own rate limit: one request a minute, a 429 with Retry-After counted on the (faked) clock.
    await server.api.setScenarios({ rateLimit: { limit: 1, windowSeconds: 60 } });
    await fetch(`${API}/v1/agents/${agent.agentId}`, { headers: { authorization: `Bearer ${token}` } });
    show(createAppQueryClient(), agent.agentId);
    await vi.waitFor(() => expect(text('status')()).toMatch(/^Too many requests: wait a moment\. Retrying in \d+ s\.$/), {
      timeout: 15_000,
    });
    const seconds = Number(/(\d+) s\.$/.exec(text('status')() ?? '')?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    await vi.advanceTimersByTimeAsync(seconds * 1000);
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'Rate Limited' })).toBeTruthy(), {
      timeout: 15_000,
    });
    // The app's request, then its retry no sooner than Retry-After said (by the fake clock).
    const [, first, retry] = gets();
    expect(retry).toBeDefined();
    expect((retry?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(seconds * 1000);
  });

  it('retries a task after a 503’s Retry-After with the app’s client (an override answering once)', async () => {
    fakeTimers();
    const agent = await server.api.seedAgent({ status: 'active' });
    server.use(
      overrideHandler('executeAgentTask', 503, undefined, { baseUrl: API, once: true, headers: { 'retry-after': '2' } }),
    );
    show(createAppQueryClient(), agent.agentId);
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Run task' })).toBeTruthy(), { timeout: 15_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Run task' }));
    await vi.waitFor(
      () => expect(screen.getByRole('status').textContent).toBe('The registry is having trouble (503). Retrying in 2 s.'),
      { timeout: 15_000 },
    );
    await vi.advanceTimersByTimeAsync(2_000);
    await vi.waitFor(() => expect(screen.getByText('Task queued')).toBeTruthy(), { timeout: 15_000 });
    const [first, retry] = sent.filter((request) => request.method === 'POST');
    expect(retry).toBeDefined();
    expect((retry?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(2_000);
  });

  it('polls the agent with refetchInterval until its queued task has finished (fake timers move the fake’s clock)', async () => {
    fakeTimers();
    const agent = await server.api.seedAgent({ performance: { tasksCompleted: 0 } });
    await server.api.seedTask({ agentId: agent.agentId, status: 'queued', outcome: 'completed' });
    show(testClient(), agent.agentId, 10_000);
    await vi.waitFor(() => expect(screen.getByText('Tasks completed: 0')).toBeTruthy(), { timeout: 15_000 });
    // A minute of fake time: six polls, and the queued task finished on the fake's clock meanwhile.
    await vi.advanceTimersByTimeAsync(60_000);
    await vi.waitFor(() => expect(screen.getByText('Tasks completed: 1')).toBeTruthy(), { timeout: 15_000 });
    expect(gets().length).toBeGreaterThan(1);
  });
});
