// Storybook for the consumer app: msw-storybook-addon starts msw's worker (public/mockServiceWorker.js, which
// `msw init public/` wrote) and hands it to every story's beforeEach; preview.tsx gives each story a fake of its own.
import type { StorybookConfig } from '@storybook/react-vite';

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../stories/*.stories.tsx'],
  addons: ['msw-storybook-addon'],
  staticDirs: ['../public'],
  core: { disableTelemetry: true },
};
export default config;
