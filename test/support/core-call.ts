// Sends one authorized JSON request straight to a core, for the unit tests of stored state (no HTTP in between).
import { mintToken } from '../../mocks/core/request/auth.ts';
import type { MockCore } from '../../mocks/assembly/mock-core.ts';
import type { MockResponse } from '../../mocks/core/mock-http.ts';

let token = '';

/**
 * One request with a valid token (or the given Authorization, e.g. a token minted at a fixed clock's time) and a JSON
 * body (or none), answered by the core.
 * @example const answer = await callCore(core, 'PUT', '/__mock/overrides', { operation: 'getAgent', status: 404 });
 */
export async function callCore(
  core: MockCore,
  method: string,
  path: string,
  body?: unknown,
  authorization?: string,
): Promise<MockResponse> {
  token ||= await mintToken();
  return core.handle({
    method,
    path,
    query: '',
    headers: { authorization: authorization ?? `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
  });
}

/**
 * Deploys a small agent through the core, expects 201, and answers its agentId.
 * @example const agentId = await deployThroughCore(core, 'Kept');
 */
export async function deployThroughCore(core: MockCore, name: string): Promise<string> {
  const response = await callCore(core, 'POST', '/v1/agents/deploy', {
    name,
    category: 'defi',
    model: 'gpt-4',
    initialSupply: 10,
  });
  if (response.status !== 201) throw new Error(`deploy answered ${response.status}: ${response.body}`);
  return (JSON.parse(response.body) as { agentId: string }).agentId;
}

/**
 * `callCore`, with the answer's status and its JSON body parsed (an empty object when there is none).
 * @example const { status, body } = await answerCore(core, 'GET', `/v1/agents/${id}`, undefined, authorization);
 */
export async function answerCore(
  core: MockCore,
  method: string,
  path: string,
  body?: unknown,
  authorization?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await callCore(core, method, path, body, authorization);
  return { status: response.status, body: response.body ? (JSON.parse(response.body) as Record<string, unknown>) : {} };
}
