// Type-checked with tsc --strict, moduleResolution bundler and no allowImportingTsExtensions: every typed entry of the
// kit, used as an app would use it.
import { setupMockWorker, type MockWorker } from 'agent-registry-kit/browser';
import { createFixedClock, createMockCore, expectConforms, type MockCore } from 'agent-registry-kit/core';
import { createHandlers, handlers } from 'agent-registry-kit/handlers';
import { mintToken, setupMockServer, type MockServer } from 'agent-registry-kit/node';
import {
  assumptions,
  checkResponse,
  openapiDocument,
  validateRequestBody,
  type Agent,
  type DeployRequest,
} from 'agent-registry-kit/spec';

export const server: MockServer = setupMockServer({ seed: 7, clock: createFixedClock(0) });
export const worker: () => MockWorker = () => setupMockWorker({ baseUrl: 'https://api.example.test' });
export const core: MockCore = createMockCore();
export const handlerCount: number = handlers.length + createHandlers().all.length;
export const token: Promise<string> = mintToken({ sub: 'alice' });
export const decisions: number = assumptions.length;
export const title: unknown = openapiDocument;
export const request: DeployRequest = { name: 'Bot', category: 'defi', model: 'gpt-4', initialSupply: 1 };
export const validated = validateRequestBody('deployAgent', request);
export const checks = [checkResponse, expectConforms];
export const agentName = (agent: Agent): string => agent.name;
// @ts-expect-error: the kit's types are real, not any: a name is a string
export const wrong: DeployRequest = { name: 1, category: 'defi', model: 'gpt-4', initialSupply: 1 };
