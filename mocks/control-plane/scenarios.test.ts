// Scenarios set through the control plane, through the core in-process: forced error statuses, error ratios, the rate
// limit and its headers, latency, the task failure ratio, a refused scenario; and the same seed giving the same answers.
import { describe, expect, it } from 'vitest';
import { START, useCoreUnderTest } from '../../test/support/core-under-test.ts';
import { createFixedClock } from '../domain/clock.ts';
import { createMockCore } from '../assembly/mock-core.ts';
import { silentLogger } from '../domain/logger.ts';
import { checkResponse } from '../../spec/index.ts';

const fake = useCoreUnderTest();
const { send, anActiveAgent } = fake;

describe('scenarios', () => {
  it('forces a documented error status on one operation', async () => {
    const agentId = await anActiveAgent();
    expect((await send('PUT', '/__mock/scenarios', { operations: { getAgent: { errorStatus: 500 } } })).status).toBe(
      200,
    );
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(500);
    expect((await send('POST', `/v1/agents/${agentId}/execute`, { task: 'x' })).status).toBe(200);
    expect((await send('DELETE', '/__mock/scenarios')).status).toBe(204);
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(200);
  });

  it('applies an error ratio deterministically per seed', async () => {
    const agentId = await anActiveAgent();
    const run = async (): Promise<number[]> => {
      fake.core = createMockCore({ seed: 9, clock: createFixedClock(START), logger: silentLogger });
      await send('PUT', '/__mock/scenarios', { operations: { getAgent: { errorStatus: 500, errorRatio: 0.5 } } });
      const statuses: number[] = [];
      for (let index = 0; index < 40; index += 1) statuses.push((await send('GET', `/v1/agents/${agentId}`)).status);
      return statuses;
    };
    const first = await run();
    expect(first).toEqual(await run());
    expect(first.filter((status) => status === 500).length).toBeGreaterThan(5);
    expect(first.filter((status) => status === 500).length).toBeLessThan(35);
  });

  it('rate-limits with 429 and Retry-After on the mock clock', async () => {
    const agentId = await anActiveAgent();
    await send('PUT', '/__mock/scenarios', { rateLimit: { limit: 2, windowSeconds: 10 } });
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(200);
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(200);
    const limited = await send('GET', `/v1/agents/${agentId}`);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('10');
    fake.core.clock.advance(10_000);
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(200);
  });

  it('sends the RateLimit headers on every answer while the rate limit is on, and none otherwise', async () => {
    const agentId = await anActiveAgent();
    const limitHeaders = (answer: Awaited<ReturnType<typeof send>>): (string | undefined)[] => [
      answer.headers['ratelimit-limit'],
      answer.headers['ratelimit-remaining'],
      answer.headers['ratelimit-reset'],
    ];
    expect(limitHeaders(await send('GET', `/v1/agents/${agentId}`))).toEqual([undefined, undefined, undefined]);
    await send('PUT', '/__mock/scenarios', { rateLimit: { limit: 2, windowSeconds: 10 } });
    const answers = [await send('GET', `/v1/agents/${agentId}`)];
    fake.core.clock.advance(4_000);
    answers.push(await send('GET', '/v1/agents/agt_none'), await send('GET', `/v1/agents/${agentId}`));
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 429]);
    expect(answers.map(limitHeaders)).toEqual([
      ['2', '1', '10'],
      ['2', '0', '6'],
      ['2', '0', '6'],
    ]);
    for (const { status, headers, body } of answers) {
      const check = checkResponse({
        operationId: 'getAgent',
        status,
        contentType: headers['content-type'],
        body,
        headers,
      });
      expect(check.violations).toEqual([]);
    }
  });

  it('waits the global plus the per-operation latency before answering', async () => {
    // The sleeper is injected: the test sees what the core waits for, and whether the answer waits for it, without timing.
    const waits: number[] = [];
    let release = (): void => {};
    fake.core = createMockCore({
      seed: 42,
      clock: createFixedClock(START),
      logger: silentLogger,
      sleep: (ms) => {
        waits.push(ms);
        return new Promise((resolve) => {
          release = resolve;
        });
      },
    });
    const agentId = await anActiveAgent();
    // Verified tokens are cached: after this the answer takes only microtasks, so "not answered yet" means "waiting".
    expect((await send('GET', `/v1/agents/${agentId}`)).status).toBe(200);
    await send('PUT', '/__mock/scenarios', { latencyMs: 300, operations: { getAgent: { latencyMs: 100 } } });
    expect(waits).toEqual([]);
    let answered = false;
    const pending = send('GET', `/v1/agents/${agentId}`).then((answer) => {
      answered = true;
      return answer;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(waits).toEqual([400]);
    expect(answered).toBe(false);
    release();
    expect((await pending).status).toBe(200);
    let deployed = false;
    const deploy = send('POST', '/v1/agents/deploy', { name: 'a', category: 'nft', model: 'gpt-4', initialSupply: 1 });
    void deploy.then(() => {
      deployed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(waits).toEqual([400, 300]);
    expect(deployed).toBe(false);
    release();
    expect((await deploy).status).toBe(201);
  });

  it('sets the task failure ratio', async () => {
    const agentId = await anActiveAgent();
    await send('PUT', '/__mock/scenarios', { taskFailureRatio: 1 });
    const { taskId } = (await send('POST', `/v1/agents/${agentId}/execute`, { task: 'x' })).json() as {
      taskId: string;
    };
    fake.core.clock.advance(600_000);
    expect((await send('GET', `/__mock/tasks/${taskId}`)).json().status).toBe('failed');
  });

  it('refuses an invalid scenario with every reason', async () => {
    const answer = await send('PUT', '/__mock/scenarios', {
      latencyMs: -1,
      operations: { getAgent: { errorStatus: 409 }, nope: {} },
      rateLimit: { limit: 0 },
      extra: 1,
    });
    expect(answer.status).toBe(400);
    expect((answer.json().errors as { path: string }[]).map((error) => error.path).sort()).toEqual([
      '/extra',
      '/latencyMs',
      '/operations/getAgent/errorStatus',
      '/operations/nope',
      '/rateLimit/limit',
      '/rateLimit/windowSeconds',
    ]);
  });
});

describe('determinism', () => {
  it('the same seed gives byte-identical agents and the same ids for the same requests', async () => {
    const run = async (): Promise<string> => {
      fake.core = createMockCore({ seed: 'demo', clock: createFixedClock(START), logger: silentLogger });
      const list = (await send('GET', '/__mock/agents?limit=1000')).body;
      const deployed = (
        await send('POST', '/v1/agents/deploy', { name: 'a', category: 'nft', model: 'gpt-4', initialSupply: 1 })
      ).body;
      const agentId = (JSON.parse(deployed) as { agentId: string }).agentId;
      const task = (await send('POST', `/v1/agents/${agentId}/execute`, { task: 'x' })).body;
      const agents = await Promise.all(
        (JSON.parse(list) as { agents: { agentId: string }[] }).agents.map(
          async (agent) => (await send('GET', `/v1/agents/${agent.agentId}`)).body,
        ),
      );
      return [list, deployed, task, ...agents].join('\n');
    };
    expect(await run()).toBe(await run());
  });
});
