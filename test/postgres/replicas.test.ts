// Three replicas of `serve` on one PostgreSQL behave as one fake: a seeded random mix of requests sent to random
// replicas, one of them killed with kill -9 mid-run, checked against a model of what the fake acknowledged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRandom } from '../../mocks/domain/random.ts';
import { agentCategories, agentModels } from '../../spec/index.ts';
import type { SpawnedServer } from '../support/spawned-server.ts';
import { bearer, startFake } from '../robustness/fake-process.ts';
import { newDatabase } from './databases.ts';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

let token = '';
const call = async (server: SpawnedServer, method: string, path: string, body?: unknown): Promise<Answer> => {
  const response = await fetch(server.baseUrl + path, {
    method,
    headers: { authorization: token, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
};

describe('three replicas on one PostgreSQL', { timeout: 180_000 }, () => {
  let url = '';
  const replicas: SpawnedServer[] = [];
  const alive: SpawnedServer[] = [];
  beforeAll(async () => {
    token = await bearer('replicas');
    url = await newDatabase();
    // Started together: the schema is created once, under the advisory lock.
    replicas.push(...(await Promise.all([0, 1, 2].map(() => startFake(['--state', url, '--seed', '7'])))));
    alive.push(...replicas);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
  });

  it('keeps read-your-writes, unique ids and exactly-once settlement across replicas, one killed mid-run', async () => {
    const random = createRandom(2026);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random.next() * items.length)] as T;
    const other = (server: SpawnedServer): SpawnedServer => pick(alive.filter((replica) => replica !== server));
    const agents = new Map<string, { name: string; status: string }>();
    const tasks = new Map<string, string>();
    // The clock offset every replica must answer with (advanced through one replica, read by the others).
    let offsetMs = 0;
    for (let step = 0; step < 160; step += 1) {
      if (step === 80) {
        // kill -9 under load: the replica's acknowledged writes are in the database already.
        const victim = alive.splice(2, 1)[0] as SpawnedServer;
        victim.child.kill('SIGKILL');
        await victim.exited;
      }
      const server = pick(alive);
      const roll = random.next();
      const known = [...agents.keys()];
      if (roll < 0.35 || known.length === 0) {
        const name = `Agent ${step}`;
        const before = Date.now();
        const deployed = await call(server, 'POST', '/v1/agents/deploy', {
          name,
          category: pick(agentCategories),
          model: pick(agentModels),
          initialSupply: 1000,
        });
        expect(deployed.status).toBe(201);
        // A replica that has not pulled since another advanced the clock must not stamp the deploy with its old offset.
        expect(Date.parse(String(deployed.body.deployedAt))).toBeGreaterThanOrEqual(before + offsetMs);
        const agentId = String(deployed.body.agentId);
        expect(agents.has(agentId)).toBe(false);
        agents.set(agentId, { name, status: 'active' });
        // Read-your-writes: the very next request, on another replica.
        const read = await call(other(server), 'GET', `/v1/agents/${agentId}`);
        expect(read.status).toBe(200);
        expect(read.body.name).toBe(name);
      } else if (roll < 0.6) {
        const agentId = pick(known);
        const read = await call(server, 'GET', `/v1/agents/${agentId}`);
        expect(read.status).toBe(200);
        expect(read.body.status).toBe(agents.get(agentId)?.status);
      } else if (roll < 0.85) {
        const agentId = pick(known);
        const submitted = await call(server, 'POST', `/v1/agents/${agentId}/execute`, { task: `step ${step}` });
        if (agents.get(agentId)?.status !== 'active') {
          expect(submitted.status).toBe(409);
          continue;
        }
        expect(submitted.status).toBeLessThan(300);
        const taskId = String(submitted.body.taskId);
        expect(tasks.has(taskId)).toBe(false);
        tasks.set(taskId, agentId);
        expect((await call(other(server), 'GET', `/__mock/tasks/${taskId}`)).status).toBe(200);
      } else if (roll < 0.95) {
        const agentId = pick(known);
        const status = agents.get(agentId)?.status === 'active' ? 'paused' : 'active';
        expect((await call(server, 'PUT', `/__mock/agents/${agentId}/status`, { status })).status).toBe(200);
        agents.set(agentId, { name: agents.get(agentId)?.name ?? '', status });
        const read = await call(other(server), 'GET', `/v1/agents/${agentId}`);
        expect(read.body.status).toBe(status);
      } else {
        const advanced = await call(server, 'POST', '/__mock/clock/advance', { seconds: 1 });
        expect(advanced.status).toBe(200);
        expect((await call(other(server), 'GET', '/__mock/clock')).body.offsetMs).toBe(advanced.body.offsetMs);
        offsetMs = Number(advanced.body.offsetMs);
      }
    }
    expect(tasks.size).toBeGreaterThan(10);

    // Every task finishes; each is counted once in its agent's figures, whichever replica settled it.
    await call(alive[0] as SpawnedServer, 'POST', '/__mock/clock/advance', { seconds: 86_400 });
    const completed = new Map<string, number>();
    for (const [taskId, agentId] of tasks) {
      const views = await Promise.all(alive.map((replica) => call(replica, 'GET', `/__mock/tasks/${taskId}`)));
      const status = views[0]?.body.status;
      expect(['completed', 'failed']).toContain(status);
      for (const view of views) expect(view.body).toEqual(views[0]?.body);
      if (status === 'completed') completed.set(agentId, (completed.get(agentId) ?? 0) + 1);
    }
    for (const agentId of new Set(tasks.values())) {
      const views = await Promise.all(alive.map((replica) => call(replica, 'GET', `/v1/agents/${agentId}`)));
      const performance = views[0]?.body.performance as { tasksCompleted: number };
      expect(performance.tasksCompleted).toBe(completed.get(agentId) ?? 0);
      for (const view of views) expect(view.body).toEqual(views[0]?.body);
    }

    // A replica started now (the killed one's successor) serves the same state.
    const successor = await startFake(['--state', url, '--seed', '7']);
    replicas.push(successor);
    alive.push(successor);
    const health = await Promise.all(alive.map((replica) => call(replica, 'GET', '/__mock/health')));
    for (const answer of health) expect(answer.body.agents).toBe(36 + agents.size);
  });

  it('counts a rate limit across replicas and resets all of them from one', async () => {
    const [first, second, third] = alive as [SpawnedServer, SpawnedServer, SpawnedServer];
    const limited = await call(first, 'PUT', '/__mock/scenarios', { rateLimit: { limit: 4, windowSeconds: 3600 } });
    expect(limited.status).toBe(200);
    const statuses: number[] = [];
    for (let index = 0; index < 9; index += 1) {
      const server = [first, second, third][index % 3] as SpawnedServer;
      statuses.push((await call(server, 'GET', '/v1/agents/agt_none')).status);
    }
    expect(statuses.filter((status) => status !== 429)).toHaveLength(4);
    expect((await call(second, 'DELETE', '/__mock/scenarios')).status).toBeLessThan(300);
    expect((await call(third, 'GET', '/v1/agents/agt_none')).status).toBe(404);

    const made = await call(third, 'POST', '/v1/agents/deploy', {
      name: 'Before reset',
      category: 'defi',
      model: 'gpt-4',
      initialSupply: 5,
    });
    const deployed = String(made.body.agentId);
    expect((await call(first, 'GET', `/v1/agents/${deployed}`)).status).toBe(200);
    expect((await call(second, 'POST', '/__mock/reset')).status).toBe(200);
    expect((await call(first, 'GET', `/v1/agents/${deployed}`)).status).toBe(404);
    expect((await call(third, 'GET', '/__mock/clock')).body.offsetMs).toBe(0);
  });
});
