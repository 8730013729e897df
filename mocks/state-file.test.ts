import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mintToken } from './auth.ts';
import { createFixedClock } from './clock.ts';
import { createMockCore, type MockCore } from './core.ts';
import { silentLogger } from './logger.ts';
import { openStateFile, writeFileAtomic } from './state-file.ts';

const START = Date.parse('2026-11-20T12:00:00.000Z');
let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'agent-registry-state-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function coreWithState(file: string): Promise<MockCore> {
  const state = await openStateFile(file, silentLogger);
  const core = createMockCore({
    seed: 5,
    clock: createFixedClock(START),
    logger: silentLogger,
    persist: () => state.commit(),
  });
  await state.attach(core);
  return core;
}

async function deploy(core: MockCore, token: string, name: string): Promise<{ status: number; agentId: string }> {
  const response = await core.handle({
    method: 'POST',
    path: '/v1/agents/deploy',
    query: '',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: new TextEncoder().encode(JSON.stringify({ name, category: 'defi', model: 'gpt-4', initialSupply: 10 })),
  });
  return { status: response.status, agentId: (JSON.parse(response.body) as { agentId: string }).agentId };
}

describe('writeFileAtomic', () => {
  it('replaces the file and leaves no temporary file behind', async () => {
    const file = join(directory, 'state.json');
    await writeFileAtomic(file, 'one');
    await writeFileAtomic(file, 'two');
    expect(await readFile(file, 'utf8')).toBe('two');
    expect(await readdir(directory)).toEqual(['state.json']);
  });
});

describe('openStateFile', () => {
  it('creates the file on attach and restores it after a restart', async () => {
    const file = join(directory, 'state.json');
    const token = await mintToken();
    const first = await coreWithState(file);
    const { agentId } = await deploy(first, token, 'kept');
    first.clock.advance(5000);
    await first.persist();
    const second = await coreWithState(file);
    expect(second.store.get(agentId)?.name).toBe('kept');
    expect(second.clock.offset).toBe(5000);
  });

  it('acknowledges concurrent deploys only once a write holding them is on disk (group commit)', async () => {
    const file = join(directory, 'state.json');
    const token = await mintToken();
    const core = await coreWithState(file);
    const results = await Promise.all(Array.from({ length: 200 }, (_, index) => deploy(core, token, `bot-${index}`)));
    expect(results.every((result) => result.status === 201)).toBe(true);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { agents: { agent: { agentId: string } }[] };
    const ids = new Set(saved.agents.map((entry) => entry.agent.agentId));
    for (const result of results) expect(ids.has(result.agentId)).toBe(true);
  });

  it('refuses a corrupt file with a message that says what to do', async () => {
    const file = join(directory, 'state.json');
    await writeFile(file, '{"version":1,"agents":[');
    await expect(openStateFile(file, silentLogger)).rejects.toThrow(/not valid JSON; move it away/);
    await writeFile(file, '{"hello":"world"}');
    await expect(openStateFile(file, silentLogger)).rejects.toThrow(/not a state written by this kit/);
  });

  it('refuses a state whose clock offset is out of bounds (1e309 would make every answer a 500)', async () => {
    const file = join(directory, 'state.json');
    const core = await coreWithState(file);
    await deploy(core, await mintToken(), 'kept');
    const valid = await readFile(file, 'utf8');
    expect(valid).toContain('"clockOffset":0');
    await writeFile(file, valid.replace('"clockOffset":0', '"clockOffset":1e309'));
    await expect(openStateFile(file, silentLogger)).rejects.toThrow(/clockOffset that must be a finite number/);
    await writeFile(file, valid.replace('"clockOffset":0', '"clockOffset":-5'));
    await expect(openStateFile(file, silentLogger)).rejects.toThrow(/clockOffset/);
  });

  it('creates a missing directory, and refuses a path it cannot write', async () => {
    const state = await openStateFile(join(directory, 'new-dir', 'state.json'), silentLogger);
    expect(state.path).toBe(join(directory, 'new-dir', 'state.json'));
    await writeFile(join(directory, 'a-file'), '');
    await expect(openStateFile(join(directory, 'a-file', 'state.json'), silentLogger)).rejects.toThrow(
      /cannot (read|write next to) the state file/,
    );
  });
});
