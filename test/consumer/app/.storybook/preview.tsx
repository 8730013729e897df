// Each story gets a fresh fake of the kit, set up from its `parameters.agentRegistry` (seed, agents, scenarios, and a
// `setup` through the test API for overrides and the rest): a loader builds it, and beforeEach puts its handlers in
// front of msw-storybook-addon's worker, which drops them again when the story ends.
import type { Preview } from '@storybook/react-vite';
import { createStoryFake, mintToken, type StoryFake, type StoryFakeOptions } from 'agent-registry-kit/browser';
import type { SetupWorker } from 'msw/browser';

const preview: Preview = {
  loaders: [
    async ({ parameters }) => ({
      fake: await createStoryFake(parameters.agentRegistry as StoryFakeOptions | undefined),
      token: await mintToken(),
    }),
  ],
  beforeEach({ loaded, msw }: { loaded: Record<string, unknown>; msw?: SetupWorker }) {
    msw?.use(...(loaded.fake as StoryFake).handlers);
  },
};
export default preview;
