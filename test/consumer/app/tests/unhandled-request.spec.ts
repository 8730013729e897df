// @vitest-environment node
// Expected to FAIL: a request no handler covers, to a server that would answer it, must not reach the network when the
// fake listens with onUnhandledFrame: 'error'. The consumer test checks that this file fails and why.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { useMockServer } from './mock-server.ts';

useMockServer({ baseUrl: 'https://api.example.test' });

it('lets an unhandled request through (it must not)', async () => {
  const real = createServer((_request, response) => response.end('real network'));
  await new Promise<void>((resolve) => real.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = real.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/v1/agents/unmocked`);
    expect(await response.text()).toBe('real network');
  } finally {
    real.close();
  }
});
