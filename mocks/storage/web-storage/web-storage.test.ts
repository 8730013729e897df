import { afterEach, describe, expect, it, vi } from 'vitest';
import { callCore as call, deployThroughCore as deploy } from '../../../test/support/core-call.ts';
import { createFixedClock } from '../../domain/clock.ts';
import { createMockCore, type MockCore } from '../../assembly/mock-core.ts';
import type { Logger } from '../../domain/logger.ts';
import { createTestApi } from '../../test-api/test-api.ts';
import { openPageStorage, openWebStorage, webStorageKey, type WebStorageLike } from './web-storage.ts';

const START = Date.parse('2026-11-20T12:00:00.000Z');
const KEY = webStorageKey(5, 36);

/** Web Storage as a page has it, in a Map; `quota` makes every write beyond that many characters throw as browsers do. */
class FakeWebStorage implements WebStorageLike {
  readonly items = new Map<string, string>();
  readonly quota: number;
  constructor(quota = Number.POSITIVE_INFINITY) {
    this.quota = quota;
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    if (value.length > this.quota) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info: () => {}, error: () => {}, warn: (message) => warnings.push(message) };
}

/** A page load: a new core over the same Web Storage, as `setupMockWorker` makes one. */
function pageLoad(store: WebStorageLike, logger: Logger = recordingLogger(), seed = 5): MockCore {
  const storage = openWebStorage({ store, seed, catalogueSize: 36, maxTasks: 100, logger });
  return createMockCore({ seed, clock: createFixedClock(START), logger, maxTasks: 100, failureRatio: 0, storage });
}

describe('openWebStorage', () => {
  it('resumes after a reload: deployed agents, changed catalogue agents, tasks, clock and scenarios', async () => {
    const store = new FakeWebStorage();
    const first = pageLoad(store);
    const agentId = await deploy(first, 'Kept Agent');
    const catalogueId = first.store.catalogue.entry(0).agent.agentId;
    expect((await call(first, 'PUT', `/__mock/agents/${catalogueId}/status`, { status: 'paused' })).status).toBe(200);
    const task = await call(first, 'POST', `/v1/agents/${agentId}/execute`, { task: 'x', priority: 'high' });
    expect(task.status).toBe(200);
    expect((await call(first, 'PUT', '/__mock/scenarios', { latencyMs: 5 })).status).toBe(200);
    await first.advanceClock(1000);
    await first.persist();

    const second = pageLoad(store);
    const kept = await call(second, 'GET', `/v1/agents/${agentId}`);
    expect(kept.status).toBe(200);
    expect(JSON.parse(kept.body)).toMatchObject({ agentId, name: 'Kept Agent' });
    expect(second.store.get(catalogueId)?.status).toBe('paused');
    expect(second.clock.offset).toBe(first.clock.offset);
    expect(second.scenarios.config).toEqual({ latencyMs: 5 });
    const { taskId } = JSON.parse(task.body) as { taskId: string };
    expect((await call(second, 'GET', `/__mock/tasks/${taskId}`)).status).toBe(200);
    // The random stream resumes too: the next deploy gets the id the first page would have given it, not a repeat.
    expect(await deploy(second, 'Next Agent')).not.toBe(agentId);
  });

  it('keeps an override set on the fake (PUT /__mock/overrides) over a reload, until a reset', async () => {
    const store = new FakeWebStorage();
    const first = pageLoad(store);
    const agentId = first.store.catalogue.entry(0).agent.agentId;
    expect((await call(first, 'PUT', '/__mock/overrides', { operation: 'getAgent', status: 500 })).status).toBe(200);
    const logger = recordingLogger();
    const second = pageLoad(store, logger);
    expect((await call(second, 'GET', `/v1/agents/${agentId}`)).status).toBe(500);
    expect(logger.warnings).toEqual([]);
    await call(second, 'POST', '/__mock/reset');
    const third = pageLoad(store, logger);
    expect((await call(third, 'GET', `/v1/agents/${agentId}`)).status).toBe(200);
    expect(logger.warnings).toEqual([]);
  });

  it('keeps seeds apart: a page with another seed starts from its own catalogue', async () => {
    const store = new FakeWebStorage();
    const first = pageLoad(store);
    const agentId = await deploy(first, 'Seed Five');
    await first.persist();
    const other = pageLoad(store, recordingLogger(), 6);
    expect((await call(other, 'GET', `/v1/agents/${agentId}`)).status).toBe(404);
    expect([...store.items.keys()].sort()).toEqual([KEY, webStorageKey(6, 36)].sort());
  });

  it.each([
    ['not JSON', () => '{'],
    ['foreign', () => JSON.stringify({ hello: 'world' })],
    [
      'an agent breaking the schema',
      (saved: string) => saved.replace('"name":"Tampered"', `"name":${JSON.stringify('x'.repeat(300))}`),
    ],
    ['a bad clock', (saved: string) => saved.replace(/"clock":\d+/, '"clock":-5')],
    ['an unknown document', (saved: string) => saved.replace('"documents":{', '"documents":{"evil":1,')],
    [
      'an override nobody could set',
      (saved: string) =>
        saved.replace('"documents":{', '"documents":{"overrides":[{"operation":"getAgent","status":418}],'),
    ],
  ])('discards a snapshot that is %s, with a warning, and starts from the seed', async (_, tamper) => {
    const store = new FakeWebStorage();
    const first = pageLoad(store);
    const agentId = await deploy(first, 'Tampered');
    await first.advanceClock(10);
    await first.persist();
    const saved = store.getItem(KEY) ?? '';
    const tampered = tamper(saved);
    expect(tampered).not.toBe(saved);
    store.setItem(KEY, tampered);

    const logger = recordingLogger();
    const second = pageLoad(store, logger);
    expect((await call(second, 'GET', `/v1/agents/${agentId}`)).status).toBe(404);
    expect(second.store.agentCount).toBe(36);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/is discarded and the fake starts from the seed/);
  });

  it('reset empties what is saved: the next page load starts from the seed', async () => {
    const store = new FakeWebStorage();
    const first = pageLoad(store);
    const agentId = await deploy(first, 'Gone After Reset');
    await first.persist();
    expect(store.getItem(KEY)).toContain('Gone After Reset');
    expect((await call(first, 'POST', '/__mock/reset')).status).toBe(200);
    expect(store.getItem(KEY)).not.toContain('Gone After Reset');
    expect((await call(pageLoad(store), 'GET', `/v1/agents/${agentId}`)).status).toBe(404);
  });

  it('saves a reset from the page too: the test API, and core.reset() without awaiting anything after it', async () => {
    const store = new FakeWebStorage();
    const first = pageLoad(store);
    await deploy(first, 'Reset By The Api');
    await createTestApi(first).reset();
    expect(store.getItem(KEY)).not.toContain('Reset By The Api');
    await deploy(first, 'Reset By The Core');
    await first.persist();
    expect(store.getItem(KEY)).toContain('Reset By The Core');
    first.reset();
    await Promise.resolve();
    await Promise.resolve();
    expect(store.getItem(KEY)).not.toContain('Reset By The Core');
  });

  it('on a quota error keeps answering from memory, warns once, and leaves no stale snapshot behind', async () => {
    const store = new FakeWebStorage(2500);
    const logger = recordingLogger();
    const core = pageLoad(store, logger);
    expect(store.getItem(KEY)).toBeNull();
    await core.persist();
    expect(store.getItem(KEY)).not.toBeNull();
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push(await deploy(core, `Agent ${index}`));
    for (const agentId of ids) expect((await call(core, 'GET', `/v1/agents/${agentId}`)).status).toBe(200);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/no longer fits in the page's storage .*quota/);
    expect(store.getItem(KEY)).toBeNull();
  });
});

describe('openPageStorage', () => {
  afterEach(() => vi.unstubAllGlobals());
  const expected = { seed: 5, catalogueSize: 36, maxTasks: 100 };

  it.each([
    ['session', 'sessionStorage'],
    ['local', 'localStorage'],
  ] as const)("persist: '%s' keeps the snapshot in %s", async (persist, global) => {
    const store = new FakeWebStorage();
    vi.stubGlobal(global, store);
    const storage = openPageStorage(persist, { ...expected, logger: recordingLogger() });
    expect(storage.durable).toBe(true);
    storage.writeDocument('clock', 0);
    await storage.commit();
    expect(store.getItem(KEY)).toContain('"clock":0');
  });

  it('falls back to memory with a warning where the page may not use its storage, and when told to', () => {
    const logger = recordingLogger();
    vi.stubGlobal('sessionStorage', undefined);
    expect(openPageStorage('session', { ...expected, logger }).durable).toBe(false);
    const original = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    });
    expect(openPageStorage('local', { ...expected, logger }).durable).toBe(false);
    if (original) Object.defineProperty(globalThis, 'localStorage', original);
    else Reflect.deleteProperty(globalThis, 'localStorage');
    expect(logger.warnings).toEqual([
      expect.stringMatching(/no sessionStorage; the fake keeps its state in memory only/),
      expect.stringMatching(/localStorage cannot be used \(denied\)/),
    ]);
    expect(openPageStorage(false, { ...expected, logger }).durable).toBe(false);
    expect(logger.warnings).toHaveLength(2);
  });
});
