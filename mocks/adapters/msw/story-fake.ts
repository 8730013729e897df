// A fake of its own for each story (Storybook with msw-storybook-addon, or any page that renders one component at a
// time): msw handlers over a fresh core, seeded and steered through the test API before the story renders. Storybook is
// not imported: a story's setup is plain data in its parameters, and the page hands the handlers to its msw worker.
import type { HttpHandler } from 'msw';
import type { Agent } from '../../../spec/index.ts';
import type { MockCore } from '../../assembly/mock-core.ts';
import type { AgentSeed } from '../../state/agent-seed.ts';
import { createTestApi, type MockTestApi } from '../../test-api/test-api.ts';
import { createHandlers, type MockHandlerOptions } from './handlers.ts';

/** What one story's fake starts from: the handler options (`seed`, `baseUrl`, `scenarios`…), plus what to seed and steer. */
export interface StoryFakeOptions extends Omit<MockHandlerOptions, 'core' | 'storage'> {
  /** Agents stored before the story renders, in this order (each checked as `api.seedAgent` checks it). */
  agents?: readonly AgentSeed[];
  /**
   * Anything else the test API does, once the agents are stored: an override, a task, an agent's status, the clock.
   * @example setup: (api) => api.override('getAgent', 500)
   */
  setup?: (api: MockTestApi, agents: readonly Agent[]) => unknown;
}

/** One story's fake: the handlers to give msw (`worker.use(...fake.handlers)`), its core, its test API and seeded agents. */
export interface StoryFake {
  handlers: HttpHandler[];
  core: MockCore;
  api: MockTestApi;
  /** The records `agents` stored, in the same order (their `agentId`s are what the story shows). */
  agents: Agent[];
}

/**
 * A fresh fake for one story: its own core in memory (nothing shared with the page's other stories or a reload), the
 * given agents seeded and `setup` run. A refused seed or override rejects with `MockInputError` / `OverrideError`.
 * @example
 * // .storybook/preview.tsx, with msw-storybook-addon in main.ts's addons (it gives `msw`, the worker, to beforeEach)
 * loaders: [async ({ parameters }) => ({ fake: await createStoryFake(parameters.agentRegistry) })],
 * beforeEach: ({ msw, loaded }) => void msw.use(...loaded.fake.handlers),
 */
export async function createStoryFake(options: StoryFakeOptions = {}): Promise<StoryFake> {
  const { agents: seeds = [], setup, ...handlerOptions } = options;
  const { all, core } = createHandlers(handlerOptions);
  const api = createTestApi(core);
  const agents: Agent[] = [];
  for (const seed of seeds) agents.push(await api.seedAgent(seed));
  await setup?.(api, agents);
  return { handlers: all, core, api, agents };
}
