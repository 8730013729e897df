// What every test environment of the scratch app runs against the kit's msw handlers: deploy an agent, retrieve it,
// submit a task to it, each answer checked against the spec before its body is read.
import { expectConforms } from 'agent-registry-kit/core';
import { mintToken } from 'agent-registry-kit/node';
import type { Agent, DeployResult, TaskSubmission } from 'agent-registry-kit/spec';
import { expect } from 'vitest';

async function send(
  method: string,
  url: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expectConforms({
    method,
    path: new URL(url, 'http://base.invalid').pathname,
    status: response.status,
    headers: response.headers,
    body: text,
  });
  return { status: response.status, text };
}

/**
 * Deploys, retrieves and executes through `fetch` at `baseUrl` (intercepted by msw), with a token from mintToken.
 * @example await deployRetrieveExecute('https://api.example.test');
 */
export async function deployRetrieveExecute(baseUrl: string): Promise<void> {
  const token = await mintToken({ sub: 'consumer-app' });
  const deployed = await send('POST', `${baseUrl}/v1/agents/deploy`, token, {
    name: 'Consumer Bot',
    category: 'defi',
    model: 'gpt-4',
    initialSupply: 1000,
  });
  expect(deployed.status, deployed.text).toBe(201);
  const { agentId } = JSON.parse(deployed.text) as DeployResult;

  const retrieved = await send('GET', `${baseUrl}/v1/agents/${agentId}`, token);
  expect(retrieved.status, retrieved.text).toBe(200);
  expect(JSON.parse(retrieved.text) as Agent).toMatchObject({ agentId, name: 'Consumer Bot', creator: 'consumer-app' });

  const executed = await send('POST', `${baseUrl}/v1/agents/${agentId}/execute`, token, { task: 'Summarise today' });
  expect(executed.status, executed.text).toBe(200);
  expect((JSON.parse(executed.text) as TaskSubmission).status).toBe('queued');
}
