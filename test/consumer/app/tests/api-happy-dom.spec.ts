// @vitest-environment happy-dom
// The kit in vitest's happy-dom environment. happy-dom enforces CORS with a preflight of its own, so the app calls the
// API on its own origin here (relative URLs), as the README advises.
import { expect, it } from 'vitest';
import { deployRetrieveExecute } from './agent-flow.ts';
import { useMockServer } from './mock-server.ts';

useMockServer();

it('deploys, retrieves and executes in the happy-dom environment', async () => {
  expect(navigator.userAgent).toMatch(/HappyDOM/);
  await deployRetrieveExecute(location.origin);
});
