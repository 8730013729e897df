// @vitest-environment jsdom
// The component's error paths against the kit's fake, and a second test file adding to the same Pact file as
// agent-card-pact.spec.tsx: an expired token, an msw override's 500 (in the journal like any answer), an override that
// answers once, and a task read back. `api.writePact` merges this file's interactions with the other file's.
import { cleanup, configure, render, screen } from '@testing-library/react';
import { mintToken, overrideHandler, setupMockServer } from 'agent-registry-kit/node';
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
  const written = await server.api.writePact({
    consumer: 'agent-card',
    provider: 'agent-registry',
    file: process.env.PACT_FILE ?? 'pacts/agent-card.json',
  });
  // This file's four, and the other file's when it wrote first.
  expect(written.interactions).toBeGreaterThanOrEqual(4);
  server.close();
});

it('asks to sign in again when the token expired', async () => {
  const expired = await mintToken({ sub: 'agent-card', expired: true });
  render(<AgentCard baseUrl={API} agentId="agt_WCC01FaiMscDbRzp" token={expired} />);
  expect((await screen.findByRole('alert')).textContent).toBe('Your session expired: sign in again.');
});

it('shows an msw override’s 500, which the fake’s journal holds like any answer', async () => {
  server.use(overrideHandler('getAgent', 500, undefined, { baseUrl: API }));
  render(<AgentCard baseUrl={API} agentId="agt_WCC01FaiMscDbRzp" token={token} />);
  expect((await screen.findByRole('alert')).textContent).toBe('The registry is having trouble (500).');
  const [seen] = await server.api.requests('getAgent', { status: 500 });
  expect(seen).toMatchObject({ status: 500, forcedBy: 'overrideHandler', params: { agentId: 'agt_WCC01FaiMscDbRzp' } });
});

it('recovers on refresh from an override that answers once', async () => {
  const agent = await server.api.seedAgent({ name: 'Once Deprecated', status: 'deprecated' });
  await server.api.override('getAgent', 503, undefined, { once: true });
  render(<AgentCard baseUrl={API} agentId={agent.agentId} token={token} />);
  expect((await screen.findByRole('alert')).textContent).toBe('The registry is having trouble (503).');
  cleanup();
  render(<AgentCard baseUrl={API} agentId={agent.agentId} token={token} />);
  expect(await screen.findByText('Once Deprecated')).toBeTruthy();
  expect((await server.api.requests('getAgent')).map((request) => request.status)).toEqual([503, 200]);
});

it('reads a task back from the fake once its clock passed the finish', async () => {
  const agent = await server.api.seedAgent({ name: 'Task Keeper' });
  const task = await server.api.seedTask({ agentId: agent.agentId, status: 'queued', outcome: 'completed' });
  expect((await server.api.task(task.taskId)).status).toBe('queued');
  await server.api.advanceClock(3_600_000);
  expect(await server.api.task(task.taskId)).toMatchObject({ taskId: task.taskId, status: 'completed' });
});
