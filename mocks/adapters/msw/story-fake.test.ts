// createStoryFake as msw-storybook-addon uses it: before each story, the page's one msw worker (here msw's node server)
// drops the last story's handlers and takes this story's, so each story sees its own seed, agents, scenario and override.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../../spec/index.ts';
import type { AgentSummary } from '../../state/store/store-types.ts';
import { MockInputError } from '../../domain/input-error.ts';
import { mintToken } from '../../core/request/auth.ts';
import { OverrideError } from '../../core/steering/overrides.ts';
import { createStoryFake, type StoryFakeOptions } from './story-fake.ts';

const API = 'https://api.story.test';
// The page's worker: no handlers of its own, as the addon starts it.
const worker = setupServer();
let token = '';
beforeAll(async () => {
  worker.listen({ onUnhandledFrame: 'error' });
  token = await mintToken();
});
afterAll(() => worker.close());

/** What the addon does before a story renders: the last story's handlers go, this story's fake answers. */
async function story(options: StoryFakeOptions = {}): Promise<Awaited<ReturnType<typeof createStoryFake>>> {
  const fake = await createStoryFake({ baseUrl: API, ...options });
  worker.resetHandlers();
  worker.use(...fake.handlers);
  return fake;
}

async function getAgent(agentId: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${API}/v1/agents/${agentId}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.json() };
}

describe('createStoryFake', () => {
  it('gives each story a fake of its own: agents seeded in one story are not in the next', async () => {
    const first = await story({ seed: 7, agents: [{ name: 'Only Here' }, { status: 'paused' }] });
    expect(first.agents.map((agent) => agent.name)[0]).toBe('Only Here');
    expect(first.agents[1]?.status).toBe('paused');
    const shown = await getAgent(first.agents[0]?.agentId ?? '');
    expect(shown).toMatchObject({ status: 200, body: { name: 'Only Here' } });

    await story({ seed: 7 });
    expect((await getAgent(first.agents[0]?.agentId ?? '')).status).toBe(404);
  });

  it('serves the catalogue of the story’s seed', async () => {
    const [a, b] = await Promise.all([createStoryFake({ seed: 7 }), createStoryFake({ seed: 8 })]);
    const firstOf = (fake: typeof a): AgentSummary | undefined => fake.core.store.list({ limit: 1 }).agents[0];
    const seven = firstOf(a);
    expect(seven?.agentId).not.toBe(firstOf(b)?.agentId);
    await story({ seed: 7 });
    expect(await getAgent(seven?.agentId ?? '')).toMatchObject({ status: 200, body: { name: seven?.name } });
  });

  it('answers a story’s scenario and the override its setup sets, and no other story’s', async () => {
    const broken = await story({ seed: 7, scenarios: { operations: { getAgent: { errorStatus: 500 } } } });
    const id = broken.core.store.list({ limit: 1 }).agents[0]?.agentId ?? '';
    const failed = await getAgent(id);
    expect(failed.status).toBe(500);
    expect((failed.body as Problem).title).toBe('Internal server error');

    await story({ seed: 7, agents: [{}], setup: (api, [agent]) => api.setAgentStatus(agent?.agentId ?? '', 'paused') });
    expect((await getAgent(id)).status).toBe(200);

    const overridden = await story({ seed: 7, setup: (api) => api.override('getAgent', 404) });
    expect((await getAgent(id)).status).toBe(404);
    expect(overridden.core.store.get(id)).toBeDefined();
  });

  it('refuses a seed or an override that breaks the spec, as the test API does', async () => {
    await expect(createStoryFake({ agents: [{ name: 'N'.repeat(300) }] })).rejects.toBeInstanceOf(MockInputError);
    await expect(
      createStoryFake({
        // @ts-expect-error: 418 is no status getAgent documents
        setup: (api) => api.override('getAgent', 418),
      }),
    ).rejects.toBeInstanceOf(OverrideError);
  });
});
