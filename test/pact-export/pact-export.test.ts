// `agent-registry-kit pact export` against a running serve, and the pact it writes checked by Pact's own verifier
// (@pact-foundation/pact, its Rust core from npm): it passes against a fresh serve set up through
// POST /__mock/provider-states, and fails against a server that breaks one answer (a broken server of the contract
// suite's self-check). The export is the same bytes twice and holds the token in no form.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBreakingProxy, type RunningProxy } from '../contract/breaking-proxy.ts';
import { brokenServers } from '../contract/broken-servers.ts';
import { echoForms } from '../contract/echoing-server.ts';
import { fakeToken, startFakeBackend } from '../contract/contract-runner.ts';
import type { SpawnedServer } from '../support/spawned-server.ts';
import { runCli } from '../cli/hostile-server.ts';

// Pact's verifier otherwise reports each run to its makers.
process.env.PACT_DO_NOT_TRACK = 'true';
const { Verifier } = await import('@pact-foundation/pact');

let recorded: SpawnedServer;
let fresh: SpawnedServer;
let broken: RunningProxy;
let token = '';
const work = mkdtempSync(join(tmpdir(), 'pact-export-'));

async function send(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const answer = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  return { status: answer.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

/** What an app does against the fake: deploy, retrieve, run tasks, meet a paused agent, an unknown one, a 500. */
async function appFlow(base: string): Promise<void> {
  const deployed = await send(base, 'POST', '/v1/agents/deploy', {
    name: 'Pact Bot',
    category: 'defi',
    model: 'gpt-4',
    initialSupply: 1000,
    capabilities: ['swap', 'quote'],
  });
  expect(deployed.status).toBe(201);
  const agentId = String(deployed.body.agentId);
  expect((await send(base, 'GET', `/v1/agents/${agentId}`)).status).toBe(200);
  expect((await send(base, 'POST', `/v1/agents/${agentId}/execute`, { task: 'Summarise today' })).status).toBe(200);
  const list = (await (await fetch(`${base}/__mock/agents?status=active&limit=1`)).json()) as {
    agents: { agentId: string }[];
  };
  const catalogue = list.agents[0]?.agentId ?? '';
  // In a session of its own, as the Playwright fixture runs each test: it adds to the same pact.
  const session = { 'x-mock-session': 'pw-paused' };
  await fetch(`${base}/__mock/agents/${catalogue}/status`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...session },
    body: JSON.stringify({ status: 'paused' }),
  });
  expect((await send(base, 'GET', `/v1/agents/${catalogue}`, undefined, session)).status).toBe(200);
  expect((await send(base, 'POST', `/v1/agents/${catalogue}/execute`, { task: 'x' }, session)).status).toBe(409);
  expect((await send(base, 'GET', '/v1/agents/agt_nobody')).status).toBe(404);
  expect((await send(base, 'POST', `/v1/agents/${agentId}/execute`, { task: '' })).status).toBe(400);
  await fetch(`${base}/__mock/scenarios`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ operations: { getAgent: { errorStatus: 500 } } }),
  });
  expect((await send(base, 'GET', `/v1/agents/${agentId}`)).status).toBe(500);
  // Between tests the app's suite resets the fake: the pact keeps what came before.
  await fetch(`${base}/__mock/reset`, { method: 'POST' });
}

const exportPact = (out: string, extra: string[] = []) =>
  runCli('pact', [
    'export',
    '--base-url',
    recorded.baseUrl,
    '--consumer',
    'web-app',
    '--provider',
    'agent-registry',
    '--out',
    out,
    ...extra,
  ]);

/** Pact's verifier on `pact` against `base`, states set up through the fake's own state-change endpoint. */
async function verify(pact: string, base: string): Promise<{ passed: boolean; output: string }> {
  const verifier = new Verifier({
    providerBaseUrl: base,
    pactUrls: [pact],
    providerStatesSetupUrl: `${fresh.baseUrl}/__mock/provider-states`,
    // The provider's side supplies a valid token: the pact holds only a stand-in.
    customProviderHeaders: { Authorization: `Bearer ${token}` },
    logLevel: 'error',
  });
  try {
    const result = (await verifier.verifyProvider()) as unknown;
    return { passed: true, output: JSON.stringify(result) };
  } catch (error) {
    return { passed: false, output: error instanceof Error ? error.message : String(error) };
  }
}

beforeAll(async () => {
  [recorded, fresh, token] = await Promise.all([startFakeBackend(), startFakeBackend(), fakeToken()]);
  const [, wrongPrice] = brokenServers.find(([name]) => name === 'agent price of the wrong type (a string)') ?? [];
  if (!wrongPrice) throw new Error('the broken-server catalogue has no "agent price of the wrong type (a string)"');
  broken = await startBreakingProxy(fresh.baseUrl, wrongPrice.given({ token }));
  await appFlow(recorded.baseUrl);
}, 120_000);

afterAll(async () => {
  await Promise.all([recorded?.stop(), fresh?.stop(), broken?.close()]);
  rmSync(work, { recursive: true, force: true });
});

describe('pact export', () => {
  it('writes one interaction per operation, status and provider state, the same bytes twice', async () => {
    const [first, second] = [join(work, 'first.json'), join(work, 'pacts', 'second.json')];
    const run = await exportPact(first);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`wrote 8 interaction(s), Pact V4, to ${first}\n`);
    expect((await exportPact(second)).code).toBe(0);
    const text = readFileSync(first, 'utf8');
    expect(readFileSync(second, 'utf8')).toBe(text);
    const pact = JSON.parse(text) as { interactions: { description: string }[]; metadata: unknown };
    expect(pact.metadata).toMatchObject({ pactSpecification: { version: '4.0' } });
    expect(pact.interactions.map((interaction) => interaction.description)).toEqual([
      'Deploy an agent (POST /v1/agents/deploy): 201',
      'Retrieve an agent (GET /v1/agents/{agentId}): 200, given an agent exists with status active',
      'Retrieve an agent (GET /v1/agents/{agentId}): 200, given an agent exists with status paused',
      'Retrieve an agent (GET /v1/agents/{agentId}): 404, given no agent has the requested agentId',
      'Retrieve an agent (GET /v1/agents/{agentId}): 500, given the registry answers getAgent with 500',
      'Execute an agent task (POST /v1/agents/{agentId}/execute): 200, given an agent exists with status active',
      'Execute an agent task (POST /v1/agents/{agentId}/execute): 400, given an agent exists with status active',
      'Execute an agent task (POST /v1/agents/{agentId}/execute): 409, given an agent exists with status paused',
    ]);
  });

  it('holds the token in no encoding', async () => {
    const out = join(work, 'redaction.json');
    expect((await exportPact(out, ['--pact-version', '3'])).code).toBe(0);
    const text = `${readFileSync(join(work, 'first.json'), 'utf8')}\n${readFileSync(out, 'utf8')}`;
    const segments = token.split('.');
    for (const segment of segments) expect(text).not.toContain(segment);
    for (const form of echoForms(token)) expect(text, form.name).not.toContain(form.secret);
    expect(text).not.toContain(Buffer.from(segments[1] ?? '', 'base64url').toString('utf8'));
  });

  it('passes pact verify: what the fake answered is what the spec allows, the stand-in credential included', async () => {
    for (const file of ['first.json', 'redaction.json']) {
      const run = await runCli('pact', ['verify', '--pact', join(work, file)]);
      expect(run.code, `${file}: ${run.stdout}${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/8 of 8 HTTP interactions compatible/);
    }
  });

  it('passes Pact’s verifier against a fresh serve (V4 and V3), and fails against a server that breaks one answer', async () => {
    const v4 = await verify(join(work, 'first.json'), fresh.baseUrl);
    expect(v4.passed, v4.output).toBe(true);
    const v3 = await verify(join(work, 'redaction.json'), fresh.baseUrl);
    expect(v3.passed, v3.output).toBe(true);
    const refused = await verify(join(work, 'first.json'), broken.url);
    expect(refused.passed).toBe(false);
    expect(refused.output).toMatch(/tokenomics\.price/);
  }, 120_000);

  it('merges into a pact the file holds, and refuses in one line with status 2 a folder, `dir/` or a long name', async () => {
    const file = join(work, 'merged.json');
    const held = {
      consumer: { name: 'web-app' },
      provider: { name: 'agent-registry' },
      interactions: [{ description: 'Another test file’s interaction', request: { method: 'GET', path: '/other' } }],
      metadata: { pactSpecification: { version: '4.0' } },
    };
    writeFileSync(file, JSON.stringify(held));
    const merged = await exportPact(file);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toBe(`wrote 8 interaction(s), Pact V4, to ${file} (9 in the file)\n`);
    const descriptions = (JSON.parse(readFileSync(file, 'utf8')) as { interactions: { description: string }[] })
      .interactions;
    expect(descriptions.at(-1)?.description).toBe('Another test file’s interaction');
    mkdirSync(join(work, 'a-folder'), { recursive: true });
    for (const [out, message] of [
      [join(work, 'a-folder'), /is a folder; give a file name/],
      [`${join(work, 'no-such-folder')}/`, /names a folder; give a file name/],
      [join(work, `${'n'.repeat(300)}.json`), /is too long a name/],
    ] as const) {
      const run = await exportPact(out);
      expect(run.code, out).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(message);
    }
    expect(existsSync(join(work, 'no-such-folder'))).toBe(false);
  });

  it('says in one line with status 2 what is wrong, and exits 1 with nothing written when the fake saw no request', async () => {
    const cases: [string[], RegExp][] = [
      [['export', '--consumer', 'web'], /--base-url is required/],
      [['export', '--base-url', recorded.baseUrl, '--provider', 'p', '--out', 'x.json'], /--consumer is required/],
      [
        [
          'export',
          '--base-url',
          recorded.baseUrl,
          '--consumer',
          'c',
          '--provider',
          'p',
          '--out',
          'x',
          '--pact-version',
          '2',
        ],
        /--pact-version must be 3 or 4/,
      ],
      [['import'], /unknown pact command "import"/],
    ];
    for (const [args, message] of cases) {
      const run = await runCli('pact', args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(message);
    }
    expect((await fetch(`${recorded.baseUrl}/__mock/pact`, { method: 'DELETE' })).status).toBe(204);
    const empty = await runCli('pact', [
      'export',
      '--base-url',
      recorded.baseUrl,
      '--consumer',
      'c',
      '--provider',
      'p',
      '--out',
      join(work, 'empty.json'),
    ]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/answered no request of the app yet/);
  });
});
