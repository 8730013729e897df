// Auth where the globals are not Node's own (vitest's jsdom environment swaps in jsdom's Uint8Array), and what the
// authenticator does with an error that is not the token's fault.
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuthenticator, mintToken } from './auth.ts';
import { createMockCore } from '../../assembly/mock-core.ts';
import { silentLogger } from '../../domain/logger.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('auth across realms', () => {
  it('mints and accepts a token while the global Uint8Array is another realm’s, as under jsdom', async () => {
    const foreign = runInNewContext('Uint8Array') as Uint8ArrayConstructor;
    vi.stubGlobal('Uint8Array', foreign);
    // The situation jsdom creates: bytes from Node's TextEncoder fail `instanceof Uint8Array`.
    expect(new TextEncoder().encode('x') instanceof Uint8Array).toBe(false);
    const token = await mintToken({ sub: 'alice' });
    const result = await createAuthenticator().authenticate(`Bearer ${token}`);
    expect(result).toEqual({ ok: true, sub: 'alice' });
  });
});

describe('an unexpected verification error', () => {
  it('is thrown as itself, not reported as a malformed token', async () => {
    const token = await mintToken();
    const failure = new Error('the key store is unavailable');
    vi.spyOn(crypto.subtle, 'importKey').mockRejectedValue(failure);
    await expect(createAuthenticator().authenticate(`Bearer ${token}`)).rejects.toBe(failure);
  });

  it('becomes a 500 problem from the core, never a 401', async () => {
    const token = await mintToken();
    vi.spyOn(crypto.subtle, 'importKey').mockRejectedValue(new Error('the key store is unavailable'));
    const core = createMockCore({ logger: silentLogger });
    const response = await core.handle({
      method: 'GET',
      path: '/v1/agents/agt_x',
      query: '',
      headers: { authorization: `Bearer ${token}` },
      body: null,
    });
    expect(response.status).toBe(500);
    expect(response.headers['content-type']).toBe('application/problem+json');
  });
});
