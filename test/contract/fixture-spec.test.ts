// An operation added to a FIXTURE copy of the spec (GET /v1/fixture-tasks/{taskId}, its taskId linked from the execute
// result; a name of its own, so the test still holds once the live spec has a task read of its own)
// is picked up by the fake, the contract plan (its path filled through the links: deploy, execute, then the task),
// diff, bench and coverage, with no edit to their code; and an optional enum query parameter added to the retrieve
// reaches the fake, the contract suite (which fails the repository's own fake, ignorant of it) and the proxy. The copy of the repository gets the spec, `npm run generate`
// and a handler (the fake's operation table requires one); nothing else of it is touched.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { copyTrackedFiles } from '../support/repo-copy.ts';
import { repoRoot, spawnServer, type SpawnedServer } from '../support/spawned-server.ts';

const run = promisify(execFile);
const copy = mkdtempSync(join(tmpdir(), 'agent-registry-fixture-spec-'));
const servers: SpawnedServer[] = [];
let token = '';

/** The parts of the document the fixture touches. */
interface Document {
  paths: Record<string, Record<string, { responses: Record<string, object>; [key: string]: unknown }>>;
}

/**
 * The issue a spec grows most often: an optional enum query parameter on an existing operation (the retrieve), with no
 * edit but the spec and `npm run generate`.
 */
function addQueryParameter(document: Document): void {
  const retrieve = document.paths['/v1/agents/{agentId}']?.get;
  if (!retrieve || !Array.isArray(retrieve.parameters)) throw new Error('the fixture expects the retrieve operation');
  retrieve.parameters.push({
    name: 'view',
    in: 'query',
    description: 'How much of the agent to answer.',
    'x-assumption': 'A fixture parameter: the service description has no view.',
    schema: { type: 'string', enum: ['full', 'summary'] },
  });
}

/** The fixture operation: a task by its id, whose valid value only an execute on a deployed agent gives. */
function addOperation(document: Document): void {
  const execute = document.paths['/v1/agents/{agentId}/execute']?.post;
  if (!execute) throw new Error('the fixture expects the live spec to have the execute operation');
  execute.responses['200'] = {
    ...execute.responses['200'],
    links: { GetFixtureTask: { operationId: 'getFixtureTask', parameters: { taskId: '$response.body#/taskId' } } },
  };
  document.paths['/v1/fixture-tasks/{taskId}'] = {
    get: {
      operationId: 'getFixtureTask',
      summary: 'Retrieve a task',
      tags: ['Tasks'],
      security: [{ bearerAuth: [] }],
      parameters: [{ name: 'taskId', in: 'path', required: true, schema: { $ref: '#/components/schemas/TaskId' } }],
      responses: {
        '200': {
          description: 'The task.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['taskId', 'status'],
                properties: {
                  taskId: { $ref: '#/components/schemas/TaskId' },
                  status: { $ref: '#/components/schemas/TaskStatus' },
                },
              },
            },
          },
        },
        '400': { $ref: '#/components/responses/InvalidAgentId' },
        '401': { $ref: '#/components/responses/Unauthorized' },
        '404': { $ref: '#/components/responses/AgentNotFound' },
        '429': { $ref: '#/components/responses/TooManyRequests' },
        '500': { $ref: '#/components/responses/InternalServerError' },
      },
    },
  };
}

/** The generic handler the fixture supplies: the store's task, or the shared 404. */
const handler = `import { jsonResponse } from '../core/mock-http.ts';
import { agentNotFound, type OperationHandler } from './operation-handler.ts';

export const getFixtureTask: OperationHandler<'getFixtureTask'> = ({ params, instance }, { store }) => {
  const task = store.findTask(params.taskId);
  return task === undefined ? agentNotFound(params.taskId, instance) : jsonResponse(200, JSON.stringify(task));
};
`;

async function inCopy(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, args, {
      cwd: copy,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE,
        NO_COLOR: '1',
        ...env,
      },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 300_000,
    });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, stdout: `${failed.stdout}\n${failed.stderr}` };
  }
}

/** The id of an agent of a fake's seeded catalogue. */
async function anAgent(baseUrl: string): Promise<string> {
  const list = (await (await fetch(`${baseUrl}/__mock/agents?limit=1`)).json()) as { agents: { agentId: string }[] };
  return list.agents[0]?.agentId ?? '';
}

function startCopiedFake(name: string, root = copy): Promise<SpawnedServer> {
  return spawnServer({
    name,
    args: [join(root, 'scripts/commands/serve.ts'), '--port', '0'],
    ready: /fake backend listening on http:\/\/127\.0\.0\.1:(\d+)/,
  });
}

beforeAll(async () => {
  await copyTrackedFiles(copy);
  const specFile = join(copy, 'spec/openapi.yaml');
  const document = parse(readFileSync(specFile, 'utf8')) as Document;
  addOperation(document);
  addQueryParameter(document);
  writeFileSync(specFile, stringify(document));
  writeFileSync(join(copy, 'mocks/operations/getFixtureTask.ts'), handler);
  const table = join(copy, 'mocks/operations/operation-table.ts');
  writeFileSync(
    table,
    `import { getFixtureTask } from './getFixtureTask.ts';\n${readFileSync(table, 'utf8')}`.replace(
      'export const operationTable = {',
      "export const operationTable = { getFixtureTask: { handle: getFixtureTask, reads: 'stored-records' },",
    ),
  );
  const generated = await inCopy(['tools/generate.ts']);
  expect(generated.code, generated.stdout).toBe(0);
  token = (await inCopy(['scripts/commands/token.ts'])).stdout.trim();
  servers.push(await startCopiedFake('fixture-fake-a'), await startCopiedFake('fixture-fake-b'));
  // The repository's own fake knows no `view`: a server that ignores the new parameter.
  servers.push(await startCopiedFake('fixture-ignoring-fake', repoRoot));
}, 300_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  rmSync(copy, { recursive: true, force: true });
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
    const proxy = await spawnServer({
      name: 'fixture-proxy',
      args: [join(copy, 'scripts/cli.ts'), 'proxy', '--upstream', ignoring, '--port', '0'],
      ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    });
    try {
      const answer = await fetch(`${proxy.baseUrl}/v1/agents/${agentId}?view=fulll`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(answer.status).toBe(200);
      const seen = (await (await fetch(`${proxy.baseUrl}/__mock/violations`)).json()) as {
        groups: Array<{ violation: { part: string; rule: string; pointer: string } }>;
      };
      const found = seen.groups.map(({ violation }) => `${violation.part} ${violation.rule} ${violation.pointer}`);
      expect(found).toEqual(
        expect.arrayContaining(['request query-parameter /query/view', 'response rejects-invalid-request ']),
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
    const steps = (
      JSON.parse(readFileSync(json, 'utf8')) as {
        steps: Array<{ id: string; outcome: string; fake?: { response?: { status: number } } }>;
      }
    ).steps;
    const step = steps.find((candidate) => candidate.id === 'call/getFixtureTask');
    expect(step?.outcome, result.stdout).toBe('agree');
    // Agreeing on a 404 or a 500 would prove nothing: both servers found the task their own execute created.
    expect(step?.fake?.response?.status).toBe(200);
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
    expect(coverage.stdout).toMatch(/getFixtureTask/);
  });
});
