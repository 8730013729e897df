// No memory growth per request: once the task history and the request journal are full, tens of thousands more
// requests (valid and invalid, deploys excepted: each adds an agent by design) leave the heap where it was after a full GC.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { createMockCore, type MockCore } from '../../mocks/assembly/mock-core.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';
import type { MockRequest } from '../../mocks/core/mock-http.ts';

const MAX_TASKS = 500;
const JOURNAL_SIZE = 200;
const BATCH = 20_000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

let core: MockCore;
let mix: MockRequest[] = [];

beforeAll(async () => {
  core = createMockCore({ logger: silentLogger, maxTasks: MAX_TASKS, journalSize: JOURNAL_SIZE });
  const authorization = `Bearer ${await mintToken({ sub: 'memory' })}`;
  const json = { authorization, 'content-type': 'application/json' };
  const body = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));
  const deployed = await core.handle({
    method: 'POST',
    path: '/v1/agents/deploy',
    query: '',
    headers: json,
    body: body({ name: 'kept', category: 'gaming', model: 'gpt-4', initialSupply: 10 }),
  });
  const { agentId } = JSON.parse(deployed.body) as { agentId: string };
  mix = [
    { method: 'GET', path: `/v1/agents/${agentId}`, query: '', headers: { authorization }, body: null },
    {
      method: 'POST',
      path: `/v1/agents/${agentId}/execute`,
      query: '',
      headers: json,
      body: body({ task: 'summarise', parameters: { window: '24h' }, priority: 'high' }),
    },
    { method: 'GET', path: '/v1/agents/agt_doesNotExist', query: '', headers: { authorization }, body: null },
    { method: 'POST', path: '/v1/agents/deploy', query: '', headers: json, body: new TextEncoder().encode('{"name":') },
    {
      method: 'POST',
      path: '/v1/agents/deploy',
      query: '',
      headers: json,
      body: body({ name: '', category: 'poker', initialSupply: -1 }),
    },
    {
      method: 'GET',
      path: `/v1/agents/${agentId}`,
      query: '',
      headers: { authorization: 'Bearer not-a-jwt' },
      body: null,
    },
    { method: 'DELETE', path: `/v1/agents/${agentId}`, query: '', headers: { authorization }, body: null },
  ];
});

async function drive(count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    const request = mix[index % mix.length];
    if (request) await core.handle(request);
  }
}

describe(`${BATCH.toLocaleString('en-US')} requests after the bounds are reached`, () => {
  it('keeps the task history and the journal at their bounds', async () => {
    await drive(BATCH);
    expect(core.store.taskCount).toBeLessThanOrEqual(MAX_TASKS);
    expect(core.store.taskCount).toBeGreaterThan(MAX_TASKS / 2);
    expect(core.journal.capacity).toBe(JOURNAL_SIZE);
    expect(core.journal.entries().length).toBe(JOURNAL_SIZE);
  });

  it('leaves the heap where it was after a full GC (under 1 MB of drift)', { timeout: 60_000 }, async () => {
    const before = heapAfterGc();
    await drive(BATCH);
    const after = heapAfterGc();
    expect(after - before).toBeLessThan(1024 * 1024);
  });
});
