// The coverage subcommand as a user runs it, against a real fake process: the table, --min, --json, --html, mistakes.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { PROBLEMS } from '../../mocks/core/problems.ts';
import { operations } from '../../spec/index.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Four documented pairs get answered below (getAgent 200 and 404, deployAgent 401, executeAgentTask 409), out of every
// documented pair of the spec.
const pairs = [...operations.values()].reduce((sum, operation) => sum + operation.responses.size, 0);
const percent = (Math.round((4 / pairs) * 1000) / 10).toFixed(1);
const answered = new Set(['getAgent 200', 'getAgent 404', 'deployAgent 401', 'executeAgentTask 409']);
// What the table says was never seen: every other documented pair, in the spec's order of operations and statuses.
const neverSeen = [...operations.values()]
  .map(
    (operation) =>
      [
        operation.operationId,
        [...operation.responses.keys()].filter((status) => !answered.has(`${operation.operationId} ${status}`)),
      ] as const,
  )
  .filter(([, statuses]) => statuses.length > 0)
  .map(([operationId, statuses]) => `${operationId} ${statuses.join(', ')}`)
  .join('; ');
let fake: ChildProcess;
let baseUrl = '';
let directory = '';

function startFake(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['scripts/commands/serve.ts', '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.on('exit', (code) => reject(new Error(`the fake exited ${String(code)}`)));
  });
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/commands/coverage.ts', ...args], { cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'agent-registry-coverage-'));
  ({ child: fake, url: baseUrl } = await startFake([]));
  const token = await mintToken();
  const auth = { authorization: `Bearer ${token}` };
  // What a frontend's tests might do: one retrieve, one unknown agent, one deploy without a token, one forced 409.
  const list = (await (await fetch(`${baseUrl}/__mock/agents?status=active&limit=1`)).json()) as {
    agents: { agentId: string }[];
  };
  const agentId = list.agents[0]?.agentId ?? '';
  await (await fetch(`${baseUrl}/v1/agents/${agentId}`, { headers: auth })).arrayBuffer();
  await (await fetch(`${baseUrl}/v1/agents/agt_unknown`, { headers: auth })).arrayBuffer();
  await (await fetch(`${baseUrl}/v1/agents/deploy`, { method: 'POST', body: '{}' })).arrayBuffer();
  await (
    await fetch(`${baseUrl}/v1/agents/${agentId}/execute`, {
      method: 'POST',
      headers: { ...auth, prefer: 'code=409', 'content-type': 'application/json' },
      body: '{"task":"x"}',
    })
  ).arrayBuffer();
}, 30_000);

afterAll(async () => {
  fake?.kill('SIGTERM');
  await rm(directory, { recursive: true, force: true });
});

describe('agent-registry-kit coverage', () => {
  it('prints what was answered, what never was, and the percentage with what it counts', async () => {
    const { code, stdout } = await run(['--base-url', baseUrl]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/agent-registry-kit coverage: http:\/\/127\.0\.0\.1:\d+, 4 API requests counted/);
    expect(stdout).toMatch(/ {2}getAgent {11}200 ×1 +400 · +401 · +404 ×1/);
    expect(stdout).toContain(`never seen: ${neverSeen}\n`);
    expect(stdout).toMatch(
      /Named examples: +1\/\d+ \([\d.]+%\)\n {2}never seen deployAgent: 201 deployed, 400 validation,/,
    );
    expect(stdout).not.toMatch(/never seen executeAgentTask: [^\n]*409 paused/);
    const kinds = Object.keys(PROBLEMS).length;
    expect(stdout).toContain(`Problem kinds:                 2/${kinds} (${((2 / kinds) * 100).toFixed(1)}%)`);
    expect(stdout).toMatch(/\n {2}never seen: validation, missing-body,/);
    expect(stdout).toContain(
      `contract coverage ${percent}%: 4 of ${pairs} documented (operation, status) pairs answered at least once`,
    );
  });

  it.each([
    ['0', 0],
    [percent, 0],
    [(Number(percent) + 0.1).toFixed(1), 1],
    ['100', 1],
  ])('--min %s exits %i', async (min, expected) => {
    const { code, stderr } = await run(['--base-url', baseUrl, '--min', min]);
    expect(code).toBe(expected);
    if (expected === 1)
      expect(stderr).toBe(`agent-registry-kit: contract coverage ${percent}% is below --min ${min}%\n`);
  });

  it('writes --json as the fake answered it and --html as one self-contained page', async () => {
    const json = join(directory, 'coverage.json');
    const html = join(directory, 'coverage.html');
    expect((await run(['--base-url', baseUrl, '--json', json, '--html', html])).code).toBe(0);
    const report = JSON.parse(await readFile(json, 'utf8')) as { percent: number; requests: number };
    expect(report).toMatchObject({ percent: Number(percent), requests: 4 });
    const page = await readFile(html, 'utf8');
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).not.toMatch(/<script|<link|src=/);
    expect(page).toContain(`<div class="headline poor">${percent}%</div>`);
    expect(page).toContain('title="getAgent 404: answered 1 times">1</td>');
    expect(page).toContain('title="deployAgent 413: never answered">never</td>');
    expect(page).toContain(`Never seen: ${neverSeen}`);
  });

  it.each([
    [[], /--base-url is required/],
    [['--base-url', 'not a url'], /--base-url is not a URL/],
    [['--base-url', 'ftp://x'], /must be http or https/],
    [['--base-url', 'http://127.0.0.1:1', '--min', '120'], /--min must be a percentage from 0 to 100/],
    [['--base-url', 'http://127.0.0.1:1', '--min', 'lots'], /--min must be a percentage/],
    [['--base-url', 'http://127.0.0.1:1', '--colour'], /Unknown option '--colour'/],
    [
      ['--base-url', 'http://127.0.0.1:1'],
      /cannot read http:\/\/127\.0\.0\.1:1\/__mock\/coverage .*is the fake running/,
    ],
  ])('%j is one line and exit 2', async (args, message) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('says when the address is not the kit fake', async () => {
    const { code, stderr } = await run(['--base-url', `${baseUrl}/v1`]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/answered 404; is .* the kit's fake backend/);
  });

  it('reports what a fake with --state counted before it was stopped and started again', async () => {
    const state = join(directory, 'store.db');
    const first = await startFake(['--state', state]);
    await (await fetch(`${first.url}/v1/agents/agt_unknown`)).arrayBuffer();
    const stopped = new Promise((resolve) => first.child.on('exit', resolve));
    first.child.kill('SIGTERM');
    await stopped;
    const second = await startFake(['--state', state]);
    try {
      const { code, stdout } = await run(['--base-url', second.url]);
      expect(code).toBe(0);
      expect(stdout).toMatch(/, 1 API requests counted\n/);
      expect(stdout).toMatch(/ {2}getAgent {11}200 · +400 · +401 ×1 /);
    } finally {
      second.child.kill('SIGTERM');
    }
  });
});
