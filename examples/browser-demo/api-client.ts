// The demo's typed client of the Agent Registry API: openapi-fetch over the generated `paths`, with the bearer token attached.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../spec/index.ts';

/** A typed client: `client.GET('/v1/agents/{agentId}', { params: { path: { agentId } } })` and so on. */
export type ApiClient = Client<paths>;

export interface ApiClientOptions {
  /** Origin the API lives at; the msw handlers answer `/v1/...` on any origin, so the page's own origin works. */
  baseUrl: string;
  /** The token to send, read on every request so the page can switch tokens (to show a 401). Empty sends none. */
  token: () => string;
}

/**
 * Creates the client the demo uses for the three operations.
 * @example const api = createApiClient({ baseUrl: location.origin, token: () => token });
 * const { data, error, response } = await api.POST('/v1/agents/deploy', { body: { name: 'x', category: 'nft', model: 'gpt-4', initialSupply: 1 } });
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl });
  client.use({
    onRequest({ request }) {
      const token = options.token();
      if (token !== '') request.headers.set('authorization', `Bearer ${token}`);
      return request;
    },
  });
  return client;
}
