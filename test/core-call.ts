// Sends one authorized JSON request straight to a core, for the unit tests of stored state (no HTTP in between).
import { mintToken } from '../mocks/auth.ts';
import type { MockCore } from '../mocks/core.ts';
import type { MockResponse } from '../mocks/mock-http.ts';

let token = '';

/**
 * One request with a valid token and a JSON body (or none), answered by the core.
 * @example const answer = await callCore(core, 'PUT', '/__mock/overrides', { operation: 'getAgent', status: 404 });
 */
export async function callCore(core: MockCore, method: string, path: string, body?: unknown): Promise<MockResponse> {
  token ||= await mintToken();
  return core.handle({
    method,
    path,
    query: '',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
  });
}
