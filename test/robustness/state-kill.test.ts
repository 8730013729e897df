// `--state`: kill -9 the fake while deploys are in flight, restart it on the same database, and find every agent whose
// deploy was acknowledged before the kill (the fake answers 201 only after the commit that holds the agent is on disk).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import type { SpawnedServer } from '../support/spawned-server.ts';
import { bearer, keepAliveAgent, send, startFake } from './fake-process.ts';

const WRITERS = 20;
/** Kill once this many deploys have been acknowledged, with WRITERS more still in flight. */
const ACKNOWLEDGED_BEFORE_KILL = 300;

const directory = mkdtempSync(join(tmpdir(), 'agent-registry-kit-state-'));
const stateFile = join(directory, 'store.db');
const servers: SpawnedServer[] = [];
const agents: Agent[] = [];

afterAll(async () => {
  for (const agent of agents) agent.destroy();
  for (const server of servers) await server.stop();
  rmSync(directory, { recursive: true, force: true });
});

describe('kill -9 under load with --state', () => {
  const acknowledged = new Map<string, string>();
  let inFlightAtKill = 0;

  it('keeps answering deploys until it is killed', async () => {
    const first = await startFake(['--state', stateFile]);
    servers.push(first);
    const agent = keepAliveAgent(WRITERS);
    agents.push(agent);
    const authorization = await bearer('state-kill');
    let counter = 0;
    let killed = false;
    let inFlight = 0;
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        while (!killed) {
          counter += 1;
          const name = `durable agent ${counter}`;
          inFlight += 1;
          try {
            const response = await send(agent, first.baseUrl, {
              method: 'POST',
              path: '/v1/agents/deploy',
              headers: { authorization, 'content-type': 'application/json' },
              body: JSON.stringify({ name, category: 'defi', model: 'llama-2', initialSupply: 10 }),
            });
            if (response.status === 201)
              acknowledged.set((JSON.parse(response.body) as { agentId: string }).agentId, name);
            else failures.push(`${response.status} ${response.body.slice(0, 200)}`);
          } catch (error) {
            // After the kill, requests in flight fail with a reset: they were never acknowledged, so nothing is owed.
            if (!killed) failures.push(String(error));
          } finally {
            inFlight -= 1;
          }
          if (!killed && acknowledged.size >= ACKNOWLEDGED_BEFORE_KILL) {
            killed = true;
            inFlightAtKill = inFlight;
            first.child.kill('SIGKILL');
          }
        }
      }),
    );
    expect(failures).toEqual([]);
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(acknowledged.size).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL);
    expect(inFlightAtKill).toBeGreaterThan(0);
  });

  it('left a database that is whole and holds every acknowledged agent', () => {
    // Only the database and its write-ahead log: no temporary file of an interrupted write.
    expect(readdirSync(directory).filter((name) => !/^store\.db(-wal)?$/.test(name))).toEqual([]);
    const db = new DatabaseSync(stateFile);
    try {
      expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
      const rows = db.prepare('SELECT agent_id, agent FROM agents').all() as { agent_id: string; agent: string }[];
      const inFile = new Map(rows.map((row) => [row.agent_id, (JSON.parse(row.agent) as { name: string }).name]));
      expect([...acknowledged].filter(([agentId, name]) => inFile.get(agentId) !== name)).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('serves every acknowledged agent again after a restart on the same file', async () => {
    const second = await startFake(['--state', stateFile]);
    servers.push(second);
    const agent = keepAliveAgent(WRITERS);
    agents.push(agent);
    const authorization = await bearer('state-kill');
    const lost: string[] = [];
    for (const [agentId, name] of acknowledged) {
      const response = await send(agent, second.baseUrl, {
        method: 'GET',
        path: `/v1/agents/${encodeURIComponent(agentId)}`,
        headers: { authorization },
      });
      if (response.status !== 200 || (JSON.parse(response.body) as { name: string }).name !== name)
        lost.push(`${agentId}: ${response.status}`);
    }
    expect(lost).toEqual([]);
  });
});
