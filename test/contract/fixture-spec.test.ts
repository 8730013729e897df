// The shapes the API is likely to grow, added to ONE fixture copy of the spec (test/support/fixture-shapes.ts: a list
// with query filters, a cursor and a required header; two path parameters; a oneOf body answered 204; a header, a
// cookie and a query parameter on the retrieve), are picked up by the fake, the contract plan (paths filled through
// the links), the proxy, pact export and verify, diff, bench, coverage and spec-change, with no edit to their code;
// the contract suite's cases on each new parameter fail the repository's own fake, ignorant of them. The copy gets
// the spec, `npm run generate` (the one expensive step) and the handlers the operation table requires.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFixtureShapes } from '../support/fixture-shapes.ts';
import { copyTrackedFiles, makeCopyDirectory, runInCopy } from '../support/repo-copy.ts';
import { repoRoot, spawnServer, type SpawnedServer } from '../support/spawned-server.ts';

const directory = makeCopyDirectory('agent-registry-fixture-spec-');
const copy = directory.root;
const servers: SpawnedServer[] = [];
let token = '';
/** The contract run's --json report, once the test that makes it has run: spec-change replays it. */
const contractReport = Promise.withResolvers<string>();

async function inCopy(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string }> {
  const result = await runInCopy(copy, args, { env });
  return { code: result.code, stdout: result.code === 0 ? result.stdout : result.output };
}

/** The id of an agent of a fake's seeded catalogue. */
async function anAgent(baseUrl: string): Promise<string> {
  const list = (await (await fetch(`${baseUrl}/__mock/agents?limit=1`)).json()) as { agents: { agentId: string }[] };
  return list.agents[0]?.agentId ?? '';
}

function startCopiedFake(name: string, root?: string): Promise<SpawnedServer> {
  return spawnServer({
    name,
    args: [join(root ?? copy, 'scripts/commands/serve.ts'), '--port', '0'],
    ready: /fake backend listening on http:\/\/127\.0\.0\.1:(\d+)/,
  });
}

beforeAll(async () => {
  await copyTrackedFiles(copy);
  addFixtureShapes(copy);
  const generated = await inCopy(['tools/generate.ts']);
  expect(generated.code, generated.stdout).toBe(0);
  token = (await inCopy(['scripts/commands/token.ts'])).stdout.trim();
  servers.push(await startCopiedFake('fixture-fake-a'), await startCopiedFake('fixture-fake-b'));
  // The repository's own fake knows no `view`: a server that ignores the new parameter.
  servers.push(await startCopiedFake('fixture-ignoring-fake', repoRoot));
}, 300_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  directory.remove();
});

// The four steps only read the copy and write files of their own, and each mostly waits on the processes it starts, so
// they run side by side. The bench's figures are not checked, only that it answered every request 2xx; coverage lists
// every documented operation whatever was called before it.
describe('an operation added only to a fixture copy of the spec', { timeout: 400_000, concurrent: true }, () => {
  it('one `npm run generate` leaves every generated file fresh, the README table listing the operation', async () => {
    // The doc tables are rendered from the generated document: from the old one, a second run would be needed.
    const check = await inCopy(['tools/generate.ts', '--check']);
    expect(check.code, check.stdout).toBe(0);
    expect(readFileSync(join(copy, 'README.md'), 'utf8')).toContain(
      '| `GET /v1/fixture-tasks/{taskId}` | `getFixtureTask` |',
    );
  });

  it('the contract plan checks it with every path parameter filled, and the copied fake passes', async () => {
    const report = join(copy, 'report.json');
    const result = await inCopy(['scripts/commands/contract.ts', '--seed-only', '--runs', '2', '--json', report], {
      API_BASE_URL: servers[0]?.baseUrl,
      API_TOKEN: token,
    });
    contractReport.resolve(report);
    expect(result.code, `${result.stdout}\n${servers[0]?.output().slice(-3000)}`).toBe(0);
    const checks = (JSON.parse(readFileSync(report, 'utf8')) as { checks: Array<Record<string, unknown>> }).checks;
    const mine = checks.filter((check) => check.operationId === 'getFixtureTask');
    expect(mine.map((check) => check.id)).toEqual(
      expect.arrayContaining([
        'conformance/getFixtureTask/200',
        'auth/getFixtureTask/missing',
        'behaviour/getFixtureTask/unknown',
        'reliability/getFixtureTask/repeated',
        'request-validation/getFixtureTask/taskId-max-length',
      ]),
    );
    expect(mine.filter((check) => check.outcome !== 'passed')).toEqual([]);
    // The new query parameter has cases of its own, and the copied fake, which read it from the spec, passes them.
    const onView = checks.filter((check) => String(check.id).startsWith('request-validation/getAgent/query-view-'));
    expect(onView.map((check) => check.id)).toEqual(
      expect.arrayContaining([
        'request-validation/getAgent/query-view-enum-case',
        'request-validation/getAgent/query-view-repeated',
      ]),
    );
    // The parameter is an assumption, so under --seed-only a miss would be a warning: none is allowed either.
    expect(
      onView.filter((check) => check.outcome !== 'passed' || (check.warnings as unknown[] | undefined)?.length),
    ).toEqual([]);
    // Every new shape has its cases, and the copied fake passes them: each parameter location, the list, the two path
    // parameters (filled from a deploy and an execute), the oneOf body and its 204.
    const ids = checks.map((check) => String(check.id));
    const shapes = [
      'conformance/listFixtureAgents/200',
      'request-validation/listFixtureAgents/query-limit-maximum-step',
      'request-validation/listFixtureAgents/query-limit-at-maximum',
      'request-validation/listFixtureAgents/query-status-enum-case',
      'request-validation/listFixtureAgents/header-x-fixture-tenant-missing',
      'request-validation/listFixtureAgents/header-x-fixture-tenant-max-length',
      'request-validation/getAgent/header-x-fixture-trace-enum-case',
      'request-validation/getAgent/cookie-fixturedepth-maximum-step',
      'request-validation/getAgent/cookie-fixturedepth-at-minimum',
      'request-validation/getAgent/cookie-fixturedepth-repeated',
      'conformance/getFixtureAgentTask/200',
      'behaviour/getFixtureAgentTask/unknown',
      'conformance/labelFixtureAgent/204',
      'request-validation/labelFixtureAgent/body-not-object',
    ];
    expect(ids).toEqual(expect.arrayContaining(shapes));
    const shaped = checks.filter(
      (check) =>
        shapes.includes(String(check.id)) ||
        ['listFixtureAgents', 'getFixtureAgentTask', 'labelFixtureAgent'].includes(String(check.operationId)),
    );
    expect(shaped.filter((check) => check.outcome !== 'passed').map((check) => check.id)).toEqual([]);
    // The 200 came from a real task: the path was filled from an execute's answer, not a literal `{taskId}`.
    const conformance = mine.find((check) => check.id === 'conformance/getFixtureTask/200') as {
      exchanges: Array<{ request: { url: string }; response?: { status: number } }>;
    };
    expect(conformance.exchanges.at(-1)?.request.url).toMatch(/\/v1\/fixture-tasks\/[^/{}]+$/);
    expect(conformance.exchanges.at(-1)?.response?.status).toBe(200);
  });

  it('the new query parameter: the copied fake refuses a bad value with 400 naming it and serves a good one', async () => {
    const base = servers[0]?.baseUrl ?? '';
    const agentId = await anAgent(base);
    const get = (query: string) =>
      fetch(`${base}/v1/agents/${agentId}?${query}`, { headers: { authorization: `Bearer ${token}` } });
    const bad = await get('view=fulll');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: unknown[] }).errors).toEqual([
      { path: '/query/view', message: 'must be one of full, summary' },
    ]);
    expect((await get('view=full')).status).toBe(200);
    expect((await get('view=full&view=summary')).status).toBe(400);
  });

  it("the contract suite's cases on it fail a server that ignores it, and the proxy blames that server's 200", async () => {
    const ignoring = servers[2]?.baseUrl ?? '';
    const agentId = await anAgent(ignoring);
    const report = join(copy, 'ignoring.json');
    await inCopy(['scripts/commands/contract.ts', '--read-only', '--runs', '1', '--json', report], {
      API_BASE_URL: ignoring,
      API_TOKEN: token,
      API_AGENT_ID: agentId,
    });
    const checks = (JSON.parse(readFileSync(report, 'utf8')) as { checks: Array<Record<string, unknown>> }).checks;
    const enumCase = checks.find((check) => check.id === 'request-validation/getAgent/query-view-enum-case') as
      | { outcome: string; violations: Array<{ rule: string }> }
      | undefined;
    expect(enumCase?.outcome).toBe('failed');
    expect(enumCase?.violations.map((violation) => violation.rule)).toContain('rejects-invalid-request');
    // So do its cases on the header and the cookie: that server never reads them.
    for (const id of ['header-x-fixture-trace-enum-case', 'cookie-fixturedepth-maximum-step'])
      expect(checks.find((check) => check.id === `request-validation/getAgent/${id}`)?.outcome, id).toBe('failed');
    // And the list's cases on its required header and its query filters (ids read from a report, never guessed): the
    // repository's own fake, which has no such list, fails each.
    for (const id of [
      'header-x-fixture-tenant-missing',
      'header-x-fixture-tenant-max-length',
      'query-limit-maximum-step',
      'query-limit-type',
      'query-status-enum-case',
      'query-category-enum-case',
    ])
      expect(checks.find((check) => check.id === `request-validation/listFixtureAgents/${id}`)?.outcome, id).toBe(
        'failed',
      );
    const proxy = await spawnServer({
      name: 'fixture-proxy',
      args: [join(copy, 'scripts/cli.ts'), 'proxy', '--upstream', ignoring, '--port', '0'],
      ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    });
    try {
      const answer = await fetch(`${proxy.baseUrl}/v1/agents/${agentId}?view=fulll`, {
        headers: { authorization: `Bearer ${token}`, 'x-fixture-trace': 'Brief', cookie: 'fixtureDepth=9' },
      });
      expect(answer.status).toBe(200);
      const seen = (await (await fetch(`${proxy.baseUrl}/__mock/violations`)).json()) as {
        groups: Array<{ violation: { part: string; rule: string; pointer: string } }>;
      };
      const found = seen.groups.map(({ violation }) => `${violation.part} ${violation.rule} ${violation.pointer}`);
      expect(found).toEqual(
        expect.arrayContaining([
          'request query-parameter /query/view',
          'request header-parameter /header/X-Fixture-Trace',
          'request cookie-parameter /cookie/fixtureDepth',
          'response rejects-invalid-request ',
        ]),
      );
    } finally {
      await proxy.stop();
    }
  });

  it('diff calls it on both servers with a task each created, and they agree', async () => {
    const json = join(copy, 'diff.json');
    const result = await inCopy(
      [
        'scripts/commands/diff.ts',
        '--fake',
        servers[0]?.baseUrl ?? '',
        '--real',
        servers[1]?.baseUrl ?? '',
        '--json',
        json,
      ],
      { FAKE_TOKEN: token, REAL_TOKEN: token },
    );
    expect(existsSync(json), result.stdout).toBe(true);
    const steps = (
      JSON.parse(readFileSync(json, 'utf8')) as {
        steps: Array<{ id: string; outcome: string; fake?: { response?: { status: number } } }>;
      }
    ).steps;
    const step = steps.find((candidate) => candidate.id === 'call/getFixtureTask');
    expect(step?.outcome, result.stdout).toBe('agree');
    // Agreeing on a 404 or a 500 would prove nothing: both servers found the task their own execute created.
    expect(step?.fake?.response?.status).toBe(200);
    // So do the list (its required header sent) and the two-parameter read of a task of the agent that ran it.
    for (const id of ['call/listFixtureAgents', 'call/getFixtureAgentTask']) {
      const called = steps.find((candidate) => candidate.id === id);
      expect(called?.outcome, id).toBe('agree');
      expect(called?.fake?.response?.status, id).toBe(200);
    }
  });

  it('bench measures it with every request answered 2xx, and coverage lists its documented statuses', async () => {
    const json = join(copy, 'bench.json');
    const bench = await inCopy([
      'benchmarks/bench.ts',
      '--sections',
      'throughput',
      '--targets',
      'fake',
      '--duration',
      '1',
      '--rounds',
      '1',
      '--connections',
      '1',
      '--json',
      json,
    ]);
    expect(bench.code, bench.stdout).toBe(0);
    const rows = (
      JSON.parse(readFileSync(json, 'utf8')) as {
        throughput: { rows: Array<{ op: string; runs: Array<{ total: number; non2xx: number }> }> };
      }
    ).throughput.rows;
    const row = rows.find((candidate) => candidate.op === 'getFixtureTask');
    expect(row?.runs[0]?.total).toBeGreaterThan(0);
    expect(row?.runs[0]?.non2xx).toBe(0);
    const coverage = await inCopy(['scripts/commands/coverage.ts', '--base-url', servers[0]?.baseUrl ?? ''], {
      API_TOKEN: token,
    });
    for (const operationId of ['getFixtureTask', 'listFixtureAgents', 'getFixtureAgentTask', 'labelFixtureAgent'])
      expect(coverage.stdout).toContain(operationId);
  });
  it("the fake's core: a list filtered and paged by its query and header, two path parameters, a oneOf body's 204", async () => {
    const base = servers[0]?.baseUrl ?? '';
    const auth = { authorization: `Bearer ${token}` };
    const list = (query: string, tenant: string | null = 'team-a') =>
      fetch(`${base}/v1/fixture-agents?${query}`, {
        headers: { ...auth, ...(tenant !== null && { 'x-fixture-tenant': tenant }) },
      });
    type Page = { items: Array<{ agentId: string; status: string; category: string }>; nextCursor: string | null };
    const first = (await (await list('limit=2&status=active')).json()) as Page;
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toBe('2');
    const second = (await (await list(`limit=2&status=active&cursor=${first.nextCursor}`)).json()) as Page;
    expect(second.items.map((agent) => agent.agentId)).not.toContain(first.items[0]?.agentId);
    expect([...first.items, ...second.items].every((agent) => agent.status === 'active')).toBe(true);
    const trading = (await (await list('category=trading')).json()) as Page;
    expect(trading.items.length).toBeGreaterThan(0);
    expect(trading.items.length).toBeLessThanOrEqual(20);
    expect(trading.items.every((agent) => agent.category === 'trading')).toBe(true);
    const refused = await list('limit=101&status=Active', null);
    expect(refused.status).toBe(400);
    const problem = (await refused.json()) as { detail: string; errors: Array<{ path: string }> };
    expect(problem.detail).toBe('The parameters status query, limit query, X-Fixture-Tenant header break the schema.');
    expect(problem.errors.map((error) => error.path)).toEqual([
      '/query/status',
      '/query/limit',
      '/header/X-Fixture-Tenant',
    ]);
    const agentId = first.items[0]?.agentId ?? '';
    const json = { ...auth, 'content-type': 'application/json' };
    const execute = await fetch(`${base}/v1/agents/${agentId}/execute`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ task: 'Summarise the day' }),
    });
    const { taskId } = (await execute.json()) as { taskId: string };
    const task = (id: string) => fetch(`${base}/v1/fixture-agents/${id}/tasks/${taskId}`, { headers: auth });
    expect((await task(agentId)).status).toBe(200);
    expect((await task(second.items[0]?.agentId ?? '')).status).toBe(404);
    const label = (body: unknown) =>
      fetch(`${base}/v1/fixture-agents/${agentId}/labels`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(body),
      });
    const labelled = await label({ kind: 'note', note: 'Answers in French.' });
    expect(labelled.status).toBe(204);
    expect(await labelled.text()).toBe('');
    expect((await label({ kind: 'tag', note: 'both?' })).status).toBe(400);
    const retrieve = await fetch(`${base}/v1/agents/${agentId}`, {
      headers: { ...auth, 'x-fixture-trace': 'verbose', cookie: 'session=s; fixtureDepth=0' },
    });
    expect(((await retrieve.json()) as { errors: unknown[] }).errors).toEqual([
      { path: '/header/X-Fixture-Trace', message: 'must be one of brief, detailed' },
      { path: '/cookie/fixtureDepth', message: 'must be >= 1' },
    ]);
  });

  it('pact export carries the declared query, header and cookie parameters, and pact verify checks them', async () => {
    const fake = await startCopiedFake('fixture-pact-fake');
    try {
      const auth = { authorization: `Bearer ${token}` };
      const agentId = await anAgent(fake.baseUrl);
      const headers = { ...auth, 'x-fixture-trace': 'brief', cookie: 'session=secret-session; fixtureDepth=2' };
      expect((await fetch(`${fake.baseUrl}/v1/agents/${agentId}`, { headers })).status).toBe(200);
      const listed = await fetch(`${fake.baseUrl}/v1/fixture-agents?limit=5&status=active`, {
        headers: { ...auth, 'x-fixture-tenant': 'team-a' },
      });
      expect(listed.status).toBe(200);
      const text = await (await fetch(`${fake.baseUrl}/__mock/pact?consumer=web-app&provider=agent-registry`)).text();
      expect(text).not.toContain('secret-session');
      expect(text).not.toContain(token);
      type Interaction = {
        request: { path: string; query?: Record<string, string[]>; headers: Record<string, string[]> };
      };
      const pact = JSON.parse(text) as { interactions: Interaction[] };
      const requestTo = (path: string) => pact.interactions.find((one) => one.request.path === path)?.request;
      expect(requestTo(`/v1/agents/${agentId}`)?.headers).toMatchObject({
        'X-Fixture-Trace': ['brief'],
        Cookie: ['fixtureDepth=2'],
      });
      expect(requestTo('/v1/fixture-agents')).toMatchObject({
        query: { limit: ['5'], status: ['active'] },
        headers: { 'X-Fixture-Tenant': ['team-a'] },
      });
      const file = join(copy, 'fixture-pact.json');
      writeFileSync(file, text);
      const verified = await inCopy(['scripts/cli.ts', 'pact', 'verify', '--pact', file]);
      expect(verified.code, verified.stdout).toBe(0);
      // The same pact with a header off its enum and a limit past its maximum: both are the consumer's mistakes.
      const broken = join(copy, 'fixture-pact-broken.json');
      writeFileSync(broken, text.replace('"brief"', '"Brief"').replace(/"limit": \[\s*"5"\s*\]/, '"limit": ["500"]'));
      const json = join(copy, 'fixture-pact-broken-report.json');
      const refused = await inCopy(['scripts/cli.ts', 'pact', 'verify', '--pact', broken, '--json', json]);
      expect(refused.code, refused.stdout).toBe(1);
      const found = readFileSync(json, 'utf8');
      expect(found).toContain('/header/X-Fixture-Trace');
      expect(found).toContain('/query/limit');
    } finally {
      await fake.stop();
    }
  });

  it('spec-change names a tightened header and query parameter, and the replayed contract run breaks on the query', async () => {
    const head = join(copy, 'fixture-head.yaml');
    writeFileSync(
      head,
      readFileSync(join(copy, 'spec/openapi.yaml'), 'utf8')
        .replace(/(name: X-Fixture-Tenant[\s\S]*?maxLength: )32/, '$14')
        .replace(/(name: limit[\s\S]*?maximum: )100/, '$150'),
    );
    const json = join(copy, 'fixture-spec-change.json');
    const report = await contractReport.promise;
    const result = await inCopy([
      'scripts/commands/spec-change.ts',
      '--base',
      join(copy, 'spec/openapi.yaml'),
      '--head',
      head,
      '--report',
      report,
      '--json',
      json,
    ]);
    expect(result.code, result.stdout).toBe(1);
    const written = readFileSync(json, 'utf8');
    expect(written).toContain('X-Fixture-Tenant');
    expect(written).toMatch(/limit/);
    expect(written).toContain('/query/limit must be <= 50');
  });
});
