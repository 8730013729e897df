// Overrides set through the control plane or the test API are a stored document, as scenarios are: a restart with
// --state answers with them, a reset or DELETE clears them durably, and a stored entry is rebuilt through the checks
// PUT /__mock/overrides applies (the refusals at start-up are in sqlite-storage.test.ts's hostile table).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callCore as call } from '../../../test/support/core-call.ts';
import { createMockCore, type MockCore } from '../../assembly/mock-core.ts';
import { silentLogger } from '../../domain/logger.ts';
import { openSqliteStorage, type SqliteStorage } from '../../storage/sqlite/sqlite-storage.ts';
import { parseStoredOverrides } from './stored-overrides.ts';
import { createTestApi } from '../../test-api/test-api.ts';

let directory = '';
let file = '';
const open: SqliteStorage[] = [];
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'agent-registry-overrides-'));
  file = join(directory, 'state.db');
});
afterEach(async () => {
  for (const storage of open.splice(0)) await storage.close();
  rmSync(directory, { recursive: true, force: true });
});

/** A core on the state file, as `serve --state` makes one (a fresh open is a restart). */
function start(): { core: MockCore; storage: SqliteStorage } {
  const storage = openSqliteStorage(file, { seed: 5, catalogueSize: 12, maxTasks: 100, logger: silentLogger });
  open.push(storage);
  return {
    core: createMockCore({ seed: 5, catalogueSize: 12, storage, logger: silentLogger, failureRatio: 0 }),
    storage,
  };
}
async function restart(running: { storage: SqliteStorage }): Promise<MockCore> {
  open.splice(open.indexOf(running.storage), 1);
  await running.storage.close();
  return start().core;
}

const firstAgent = (core: MockCore): string => core.store.list({ offset: 0, limit: 1 }).agents[0]?.agentId ?? '';

describe('overrides over a restart with --state', () => {
  it('PUT /__mock/overrides survives a restart; DELETE /__mock/overrides and a reset are durable too', async () => {
    const running = start();
    const agentId = firstAgent(running.core);
    const set = await call(running.core, 'PUT', '/__mock/overrides', { operation: 'getAgent', status: 404 });
    expect(set.status).toBe(200);
    const unchecked = { operation: 'executeAgentTask', status: 418, body: { teapot: true }, unchecked: true };
    expect((await call(running.core, 'PUT', '/__mock/overrides', unchecked)).status).toBe(200);
    const second = await restart(running);
    expect((await call(second, 'GET', `/v1/agents/${agentId}`)).status).toBe(404);
    const listed = await call(second, 'POST', `/v1/agents/${agentId}/execute`, { task: 'x' });
    // Kept as it was set: unchecked, and still the deliberately broken answer it was.
    expect([listed.status, JSON.parse(listed.body)]).toEqual([418, { teapot: true }]);

    expect((await call(second, 'DELETE', '/__mock/overrides')).status).toBe(204);
    const third = await restart({ storage: open[open.length - 1] as SqliteStorage });
    expect((await call(third, 'GET', `/v1/agents/${agentId}`)).status).toBe(200);

    await call(third, 'PUT', '/__mock/overrides', { operation: 'getAgent', status: 500 });
    expect((await call(third, 'POST', '/__mock/reset')).status).toBeLessThan(300);
    const fourth = await restart({ storage: open[open.length - 1] as SqliteStorage });
    expect((await call(fourth, 'GET', `/v1/agents/${agentId}`)).status).toBe(200);
  });

  it("the core's test API (api.override) is kept the same way", async () => {
    const running = start();
    const agentId = firstAgent(running.core);
    await createTestApi(running.core).override('getAgent', 500);
    const restarted = await restart(running);
    expect((await call(restarted, 'GET', `/v1/agents/${agentId}`)).status).toBe(500);
  });
});

describe('parseStoredOverrides', () => {
  it('builds what PUT /__mock/overrides would have built', () => {
    const parsed = parseStoredOverrides([{ operation: 'getAgent', status: 404 }]);
    expect(parsed.ok && parsed.value.map((o) => [o.operation.operationId, o.response.status])).toEqual([
      ['getAgent', 404],
    ]);
  });

  it.each([
    ['not a list', { getAgent: 404 }, /must be a list/],
    ['a status out of range', [{ operation: 'getAgent', status: 99 }], /\/0\/status must be >= 100/],
    ['no such operation', [{ operation: 'DELETE /etc/passwd', status: 200 }], /neither an operationId/],
    [
      'one operation twice',
      [
        { operation: 'getAgent', status: 404 },
        { operation: 'getAgent', status: 500 },
      ],
      /a second time/,
    ],
    // `unchecked` lifts the spec's rules, never HTTP's: an edited row must not make the server frame an answer twice.
    [
      'an unchecked 101 with its own Transfer-Encoding',
      [{ operation: 'getAgent', status: 101, unchecked: true, headers: { 'transfer-encoding': 'chunked' } }],
      /status 101 is not a final answer.*transfer-encoding frames the message/,
    ],
    [
      'an unchecked answer with its own Content-Length',
      [{ operation: 'getAgent', status: 418, unchecked: true, headers: { 'Content-Length': '0' } }],
      /content-length frames the message/,
    ],
  ])('refuses %s, saying where', (_name, value, reason) => {
    const parsed = parseStoredOverrides(value);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).toMatch(reason);
  });
});
