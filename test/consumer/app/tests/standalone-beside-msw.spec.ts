// @vitest-environment node
// The README's msw setup (a request no handler covers fails) and a standalone fake in one file: the test API's calls
// to the running fake are meant for the network, and msw lets them through.
import { connectTestApi, startMockServer } from 'agent-registry-kit/server';
import { expect, it } from 'vitest';
import { useMockServer } from './mock-server.ts';

useMockServer({ baseUrl: 'https://api.example.test' });

it('seeds and reads back a standalone fake while msw errors on unhandled requests', async () => {
  const fake = await startMockServer({ port: 0 });
  try {
    const api = connectTestApi({ baseUrl: fake.url });
    expect((await api.seedAgent({ name: 'Past msw' })).name).toBe('Past msw');
    expect(await api.requests('deployAgent')).toEqual([]);
  } finally {
    await fake.close();
  }
});
