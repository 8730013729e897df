// @vitest-environment jsdom
// The React component's contract with the API, written as a Pact file from its own jsdom tests: every request it makes
// against the kit's fake, with the state the fake was in, becomes an interaction; `api.writePact` in afterAll writes it
// (PACT_FILE, else pacts/agent-card.json) for a provider team to verify.
import { cleanup, configure, fireEvent, render, screen } from '@testing-library/react';
import { mintToken, setupMockServer } from 'agent-registry-kit/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { AgentCard } from '../src/AgentCard';

configure({ asyncUtilTimeout: 15_000 });

const API = 'https://api.example.test';
const server = setupMockServer({ seed: 7, baseUrl: API, failureRatio: 0 });
let token = '';
beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'error' });
  token = await mintToken({ sub: 'agent-card' });
});
afterEach(async () => {
  cleanup();
  await server.api.reset();
});
afterAll(async () => {
  // The resets between tests do not clear what the pact is written from.
  const written = await server.api.writePact({
    consumer: 'agent-card',
    provider: 'agent-registry',
    file: process.env.PACT_FILE ?? 'pacts/agent-card.json',
  });
  // This file's five, and agent-card-errors.spec.tsx's when it wrote first (the file merges both).
  expect(written.interactions).toBeGreaterThanOrEqual(5);
  server.close();
});

const show = (agentId: string) => render(<AgentCard baseUrl={API} agentId={agentId} token={token} />);

it('runs a task on an active agent', async () => {
  const agent = await server.api.seedAgent({ name: 'Pact Active' });
  show(agent.agentId);
  fireEvent.click(await screen.findByRole('button', { name: 'Run task' }));
  expect(await screen.findByText('Task queued')).toBeTruthy();
});

it('says a paused agent refuses tasks', async () => {
  const agent = await server.api.seedAgent({ status: 'paused' });
  show(agent.agentId);
  fireEvent.click(await screen.findByRole('button', { name: 'Run task' }));
  expect(await screen.findByText(/does not accept tasks/)).toBeTruthy();
});

it('says an unknown agent does not exist', async () => {
  show('agt_unknown');
  expect((await screen.findByRole('alert')).textContent).toBe('This agent does not exist.');
});
