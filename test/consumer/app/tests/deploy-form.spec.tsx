// @vitest-environment jsdom
// The deploy form against the kit's fake in jsdom: what the form posted is read back from the fake
// (`api.waitForRequest`, `api.requests`), typed and validated as the fake saw it, instead of stubbing fetch.
import { cleanup, configure, fireEvent, render, screen } from '@testing-library/react';
import { mintToken, setupMockServer } from 'agent-registry-kit/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { DeployForm } from '../src/DeployForm';

configure({ asyncUtilTimeout: 15_000 });

const API = 'https://api.example.test';
const server = setupMockServer({ seed: 7, baseUrl: API, failureRatio: 0 });
let token = '';
beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'error' });
  token = await mintToken();
});
afterEach(async () => {
  cleanup();
  await server.api.reset();
});
afterAll(() => server.close());

it('posts the name, category and revenue share the user entered', async () => {
  render(<DeployForm baseUrl={API} token={token} />);
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Yield Scout' } });
  fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'defi' } });
  fireEvent.change(screen.getByLabelText('Revenue share'), { target: { value: '0.1' } });
  fireEvent.click(screen.getByRole('button', { name: 'Deploy' }));
  const sent = await server.api.waitForRequest('deployAgent');
  expect(sent.body).toMatchObject({ name: 'Yield Scout', category: 'defi', revenueShare: 0.1 });
  expect(sent.status).toBe(201);
  await screen.findByText(/^Deployed agt_/);
  expect(await server.api.requests('deployAgent', { body: { revenueShare: 0.1 } })).toHaveLength(1);
});

it('leaves an empty revenue share out: sentBody has no revenueShare, the validated body the spec’s default', async () => {
  render(<DeployForm baseUrl={API} token={token} />);
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'No Share' } });
  fireEvent.change(screen.getByLabelText('Revenue share'), { target: { value: '' } });
  fireEvent.click(screen.getByRole('button', { name: 'Deploy' }));
  const sent = await server.api.waitForRequest('deployAgent');
  expect(sent.sentBody).toBeDefined();
  expect(sent.sentBody && 'revenueShare' in sent.sentBody).toBe(false);
  expect(sent.body?.revenueShare).toBe(0);
  expect(await server.api.requests('deployAgent', { sentBody: { name: 'No Share' } })).toHaveLength(1);
});

it('sends nothing when the name is empty', async () => {
  render(<DeployForm baseUrl={API} token={token} />);
  fireEvent.click(screen.getByRole('button', { name: 'Deploy' }));
  await screen.findByText('Give the agent a name.');
  expect(await server.api.requests('deployAgent')).toEqual([]);
});
