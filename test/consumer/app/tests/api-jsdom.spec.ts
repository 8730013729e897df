// @vitest-environment jsdom
// The kit in vitest's jsdom environment, where the globals (Uint8Array among them) are jsdom's and not Node's.
import { expect, it } from 'vitest';
import { deployRetrieveExecute } from './agent-flow.ts';
import { useMockServer } from './mock-server.ts';

useMockServer({ baseUrl: 'https://api.example.test' });

it('deploys, retrieves and executes in the jsdom environment', async () => {
  expect(navigator.userAgent).toMatch(/jsdom/);
  await deployRetrieveExecute('https://api.example.test');
});
