// What the guides' snippets take from the text around them (the consumer test writes each snippet beside this file,
// doc-snippets.ts): the setup's `server` and imports, a value an earlier line made, the app's own components. Only
// names the guides use without declaring them; everything a snippet declares or imports is its own.
import type { ReactElement } from 'react';
import type { Agent } from 'agent-registry-kit/spec';

declare global {
  // The test file's setup (docs/testing-your-app.md, "The setup, once per test file") and its imports.
  const server: import('agent-registry-kit/node').MockServer;
  const overrideHandler: typeof import('agent-registry-kit/node').overrideHandler;
  const uncheckedOverrideHandler: typeof import('agent-registry-kit/node').uncheckedOverrideHandler;
  const mintToken: typeof import('agent-registry-kit/node').mintToken;
  const setupMockWorker: typeof import('agent-registry-kit/browser').setupMockWorker;
  type MockTestApi = import('agent-registry-kit/node').MockTestApi;
  type StoryFake = import('agent-registry-kit/browser').StoryFake;
  const vi: typeof import('vitest').vi;
  const expect: typeof import('vitest').expect;
  const beforeAll: typeof import('vitest').beforeAll;
  const afterEach: typeof import('vitest').afterEach;
  const afterAll: typeof import('vitest').afterAll;
  // Not `screen`: the DOM's own global of that name would stand in its place; the snippets import Testing Library's.
  const fireEvent: typeof import('@testing-library/react').fireEvent;
  const render: typeof import('@testing-library/react').render;
  const QueryClient: typeof import('@tanstack/react-query').QueryClient;
  const QueryClientProvider: typeof import('@tanstack/react-query').QueryClientProvider;
  const createRoot: typeof import('react-dom/client').createRoot;
  const createClient: typeof import('openapi-fetch').default;
  type paths = import('agent-registry-kit/spec').paths;
  // Values an earlier line of the same recipe made.
  const agent: Agent;
  const agentId: string;
  const token: string;
  const baseUrl: string;
  const url: string;
  const body: string;
  const retryAfterSeconds: number;
  // The app's own code the recipes name.
  class ApiError extends Error {
    status: number;
    retryAfterSeconds: number | undefined;
  }
  function App(): ReactElement;
  function AgentCard(props: { baseUrl: string; agentId: string; token: string }): ReactElement;
  function AgentQueryCard(props: { agentId: string }): ReactElement;
}
