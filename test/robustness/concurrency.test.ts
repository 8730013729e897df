// Many deploys and task submissions at once against the standalone fake: nothing acknowledged is lost, no id is reused.
import type { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpawnedServer } from '../support/spawned-server.ts';
import { bearer, keepAliveAgent, send, startFake } from './fake-process.ts';

const DEPLOYS = 400;
const EXECUTES_PER_AGENT = 2;
const IN_FLIGHT = 50;

let fake: SpawnedServer;
let agent: Agent;
let authorization = '';

beforeAll(async () => {
  fake = await startFake();
  agent = keepAliveAgent(IN_FLIGHT);
  authorization = await bearer('concurrency');
});

afterAll(async () => {
  agent?.destroy();
  await fake?.stop();
});

/** Runs `work(0..count-1)` with at most `limit` at a time. */
async function pool<T>(count: number, limit: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) {
        const index = next;
        next += 1;
        results[index] = await work(index);
      }
    }),
  );
  return results;
}

const json = { 'content-type': 'application/json' };

describe(`${DEPLOYS} deploys and ${DEPLOYS * EXECUTES_PER_AGENT} task submissions, ${IN_FLIGHT} in flight`, () => {
  const deployed: { name: string; agentId: string }[] = [];
  const tasks: { agentId: string; taskId: string }[] = [];
  let agentsBefore = 0;

  it('acknowledges every one of them', async () => {
    const health = await send(agent, fake.baseUrl, { method: 'GET', path: '/__mock/health' });
    agentsBefore = (JSON.parse(health.body) as { agents: number }).agents;
    // Each worker deploys, then submits tasks to what it deployed, so executes and deploys interleave on the server.
    const outcomes = await pool(DEPLOYS, IN_FLIGHT, async (index) => {
      const name = `concurrent agent ${index}`;
      const response = await send(agent, fake.baseUrl, {
        method: 'POST',
        path: '/v1/agents/deploy',
        headers: { authorization, ...json },
        body: JSON.stringify({ name, category: 'automation', model: 'gpt-4', initialSupply: 1000 + index }),
      });
      if (response.status !== 201) return `deploy ${index}: ${response.status} ${response.body.slice(0, 200)}`;
      const { agentId } = JSON.parse(response.body) as { agentId: string };
      deployed.push({ name, agentId });
      for (let round = 0; round < EXECUTES_PER_AGENT; round += 1) {
        const submitted = await send(agent, fake.baseUrl, {
          method: 'POST',
          path: `/v1/agents/${encodeURIComponent(agentId)}/execute`,
          headers: { authorization, ...json },
          body: JSON.stringify({ task: `task ${round} of agent ${index}`, priority: round ? 'high' : 'low' }),
        });
        if (submitted.status !== 200)
          return `execute on ${agentId}: ${submitted.status} ${submitted.body.slice(0, 200)}`;
        tasks.push({ agentId, taskId: (JSON.parse(submitted.body) as { taskId: string }).taskId });
      }
      return 'ok';
    });
    expect(outcomes.filter((outcome) => outcome !== 'ok')).toEqual([]);
    expect(deployed).toHaveLength(DEPLOYS);
    expect(tasks).toHaveLength(DEPLOYS * EXECUTES_PER_AGENT);
  });

  it('gave every agent and every task its own id', () => {
    expect(new Set(deployed.map((entry) => entry.agentId)).size).toBe(DEPLOYS);
    expect(new Set(tasks.map((entry) => entry.taskId)).size).toBe(DEPLOYS * EXECUTES_PER_AGENT);
  });

  it('can retrieve every acknowledged agent, as it was deployed', async () => {
    const missing = await pool(deployed.length, IN_FLIGHT, async (index) => {
      const entry = deployed[index];
      if (!entry) return 'no entry';
      const response = await send(agent, fake.baseUrl, {
        method: 'GET',
        path: `/v1/agents/${encodeURIComponent(entry.agentId)}`,
        headers: { authorization },
      });
      if (response.status !== 200) return `${entry.agentId}: ${response.status}`;
      const body = JSON.parse(response.body) as { agentId: string; name: string };
      return body.agentId === entry.agentId && body.name === entry.name ? 'ok' : `${entry.agentId}: got ${body.name}`;
    });
    expect(missing.filter((outcome) => outcome !== 'ok')).toEqual([]);
    const health = await send(agent, fake.baseUrl, { method: 'GET', path: '/__mock/health' });
    expect((JSON.parse(health.body) as { agents: number }).agents).toBe(agentsBefore + DEPLOYS);
  });

  it('can find every acknowledged task, on the agent it was submitted to', async () => {
    const missing = await pool(tasks.length, IN_FLIGHT, async (index) => {
      const entry = tasks[index];
      if (!entry) return 'no entry';
      const response = await send(agent, fake.baseUrl, {
        method: 'GET',
        path: `/__mock/tasks/${encodeURIComponent(entry.taskId)}`,
      });
      if (response.status !== 200) return `${entry.taskId}: ${response.status}`;
      return (JSON.parse(response.body) as { agentId: string }).agentId === entry.agentId
        ? 'ok'
        : `${entry.taskId}: wrong agent`;
    });
    expect(missing.filter((outcome) => outcome !== 'ok')).toEqual([]);
  });
});
