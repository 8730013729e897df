// @vitest-environment node
// The kit in vitest's node environment.
import { expect, it } from 'vitest';
import { deployRetrieveExecute } from './agent-flow.ts';
import { useMockServer } from './mock-server.ts';

useMockServer({ baseUrl: 'https://api.example.test' });

it('deploys, retrieves and executes in the node environment', async () => {
  expect(typeof document).toBe('undefined');
  await deployRetrieveExecute('https://api.example.test');
});
