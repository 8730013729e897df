// What the proxy's tests and its benchmark play the app: a short, fixed session against the Agent Registry API (valid
// calls, then the mistakes an app makes), and the servers behind the proxy: the fake, and upstreams that fail.
import { startFixtureServer } from '../support/fixture-server.ts';

/** One call of the app's session. */
export interface AppCall {
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * The app's session: retrieve an agent, deploy one, retrieve it, give it a task, deploy with a fractional supply, look up an unknown one, call (read and write) without credentials; then the
 * requests the spec forbids (a revenueShare above 1, a priority outside its enum, JSON sent as text/plain, malformed
 * JSON, task parameters as an array).
 * @example for (const call of appSession(token, agentId)) await fetch(proxy.url + call.path, call);
 */
export function appSession(token: string, agentId: string): AppCall[] {
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const deploy = { name: 'Proxy Probe', category: 'defi', model: 'gpt-4', initialSupply: 1000 };
  return [
    { name: 'retrieve', method: 'GET', path: `/v1/agents/${agentId}`, headers: auth },
    { name: 'deploy', method: 'POST', path: '/v1/agents/deploy', headers: json, body: JSON.stringify(deploy) },
    {
      name: 'task',
      method: 'POST',
      path: `/v1/agents/${agentId}/execute`,
      headers: json,
      body: JSON.stringify({ task: 'Summarise the order book', priority: 'low' }),
    },
    {
      name: 'fractional initialSupply',
      method: 'POST',
      path: '/v1/agents/deploy',
      headers: json,
      body: JSON.stringify({ ...deploy, initialSupply: 10.5 }),
    },
    // The agent the last deploy created, read back and given a task: what the proxy's cross-exchange rules compare.
    { name: 'retrieve deployed', method: 'GET', path: `/v1/agents/${DEPLOYED}`, headers: auth },
    {
      name: 'task to deployed',
      method: 'POST',
      path: `/v1/agents/${DEPLOYED}/execute`,
      headers: json,
      body: JSON.stringify({ task: 'Watch the pool', priority: 'high' }),
    },
    { name: 'unknown agent', method: 'GET', path: '/v1/agents/agt_UnknownUnknown00', headers: auth },
    { name: 'no credentials', method: 'GET', path: `/v1/agents/${agentId}`, headers: {} },
    // A page whose login expired still sends valid writes: the description makes every operation need the token.
    {
      name: 'deploy without credentials',
      method: 'POST',
      path: '/v1/agents/deploy',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(deploy),
    },
    {
      name: 'task without credentials',
      method: 'POST',
      path: `/v1/agents/${agentId}/execute`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ task: 'Summarise the order book' }),
    },
    {
      name: 'revenueShare above 1',
      method: 'POST',
      path: '/v1/agents/deploy',
      headers: json,
      body: JSON.stringify({ ...deploy, revenueShare: 5 }),
    },
    {
      name: 'priority outside its enum',
      method: 'POST',
      path: `/v1/agents/${agentId}/execute`,
      headers: json,
      body: JSON.stringify({ task: 'x', priority: 'urgent' }),
    },
    {
      name: 'JSON sent as text/plain',
      method: 'POST',
      path: '/v1/agents/deploy',
      headers: { ...auth, 'content-type': 'text/plain' },
      body: JSON.stringify(deploy),
    },
    { name: 'malformed JSON', method: 'POST', path: '/v1/agents/deploy', headers: json, body: '{"name": ' },
    {
      name: 'parameters as an array',
      method: 'POST',
      path: `/v1/agents/${agentId}/execute`,
      headers: json,
      body: JSON.stringify({ task: 'x', parameters: [] }),
    },
  ];
}

/** Stands in a call's path for the agentId the session's last deploy answered (known only once it has). */
const DEPLOYED = '{deployed}';

/**
 * Plays the session's calls in order against `base`, filling `{deployed}` with the agentId of the last 201 deploy.
 * @example const answers = await playSession(proxy.url, appSession(token, agentId));
 */
export async function playSession(base: string, calls: readonly AppCall[]): Promise<Response[]> {
  const answers: Response[] = [];
  let deployed = 'agt_NothingDeployedYet';
  for (const call of calls) {
    const answer = await fetch(base + call.path.replace(DEPLOYED, deployed), {
      method: call.method,
      headers: call.headers,
      ...(call.body !== undefined && { body: call.body }),
    });
    const text = await answer.clone().text();
    if (call.method === 'POST' && answer.status === 201) {
      try {
        const body = JSON.parse(text) as { agentId?: unknown };
        if (typeof body.agentId === 'string') deployed = body.agentId;
      } catch {
        // Not JSON: the proxy reports it; the next calls keep the id they had.
      }
    }
    answers.push(answer);
  }
  return answers;
}

/** The valid calls of the session only (those a correct app makes). */
export const validCallNames = [
  'retrieve',
  'deploy',
  'task',
  'fractional initialSupply',
  'retrieve deployed',
  'task to deployed',
  'unknown agent',
  'no credentials',
];

/** A running test upstream. */
export interface TestUpstream {
  url: string;
  close(): Promise<void>;
}

/**
 * An upstream that takes every request and never answers: the proxy's timeout must turn it into a 504.
 * @example const slow = await startSilentUpstream(); createUpstream(slow.url)
 */
export async function startSilentUpstream(): Promise<TestUpstream> {
  return startFixtureServer((req) => req.resume());
}

/**
 * A loopback port nothing listens on (bound, then closed).
 * @example const down = await closedPortUrl(); // http://127.0.0.1:<port>
 */
export async function closedPortUrl(): Promise<string> {
  const server = await startFixtureServer();
  await server.close();
  return server.url;
}
