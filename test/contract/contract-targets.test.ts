// The contract suite against real targets over HTTP: the fake backend passes, Prism passes what a stateless mock can,
// and the CLI's promises hold (token never printed, caps honoured, read-only sends nothing a correct server accepts).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFixtureServer } from '../support/fixture-server.ts';
import type { SpawnedServer } from '../support/spawned-server.ts';
import { startBreakingProxy, type Breakage } from './breaking-proxy.ts';
import { brokenServers } from './broken-servers.ts';
import { namedChecks } from '../../contract-tests/check-plan.ts';
import { operations, takesJsonBody } from '../../spec/index.ts';
import { fakeToken, failedChecks, runContract, startFakeBackend, startPrism } from './contract-runner.ts';

/** The operations that take a JSON body: only they have generated cases and body checks. */
const bodyOperations = [...operations.keys()].filter(takesJsonBody);

const seedArgs = ['--seed', '20261122', '--runs', '10'];
// Each test's 300 s only ends a hung contract run, never times one: with test files side by side on a loaded machine a
// run takes minutes (docs/performance.md, "Contract suite and test suite run times").
// The runs are independent (each its own CLI process, its own proxy, agents of its own on the one fake), and each spends
// most of its time waiting on a request's round trip through three processes, so the describes run side by side: one
// after another, this file was the longest of `npm test`. Prism's run comes first as the longest (it waits out its
// timeouts).
let fake: SpawnedServer | undefined;
let token = '';

beforeAll(async () => {
  fake = await startFakeBackend();
  token = await fakeToken();
}, 60_000);

afterAll(async () => {
  await fake?.stop();
});

function fakeUrl(): string {
  if (!fake) throw new Error('the fake backend did not start');
  return fake.baseUrl;
}

describe('against Prism serving the same document', { concurrent: true }, () => {
  let prism: SpawnedServer | undefined;
  beforeAll(async () => {
    prism = await startPrism();
  }, 90_000);
  afterAll(async () => {
    await prism?.stop();
  });

  test('the stateless checks pass; the stateful ones, auth and Prism’s known gaps fail, as the README says', async () => {
    if (!prism) throw new Error('Prism did not start');
    // Prism never answers a malformed JSON body, so those checks wait out the timeout; 5 s keeps the run bounded
    // while leaving a loaded CI machine room to answer every other request (2 s made this test flaky under load).
    const run = await runContract({ API_BASE_URL: prism.baseUrl, API_TOKEN: token }, [
      ...seedArgs,
      '--timeout',
      '5000',
    ]);
    expect(run.code).toBe(1);
    const failed = (run.report ? failedChecks(run.report) : []).map((c) => c.id).sort();
    expect(failed).toEqual(
      [
        // Prism answers a missing or non-Bearer token 401 with a placeholder challenge ("string") and accepts any
        // bearer token, so every auth check of every operation fails.
        ...namedChecks.filter((c) => c.check === 'auth').map((c) => c.id),
        // Stateless: what is deployed is not what is retrieved (by the named checks and the generated read-back),
        // every deploy and task has the example's id, and an unknown id of any operation is found.
        'behaviour/deployAgent/retrievable',
        'behaviour/deployAgent/defaults',
        'behaviour/deployAgent/distinct-ids',
        'behaviour/deployAgent/edges',
        'behaviour/executeAgentTask/distinct-task-ids',
        ...namedChecks.filter((c) => c.check === 'behaviour' && c.id.endsWith('/unknown')).map((c) => c.id),
        ...bodyOperations.map((operationId) => `generated/${operationId}/valid`),
        // Prism never answers a malformed JSON body, and answers a body without Content-Type 400 instead of 415.
        ...namedChecks
          .filter((c) => c.id.endsWith('/malformed-json') || c.id.endsWith('/content-type-missing'))
          .map((c) => c.id),
        // Prism takes an empty query value (`cursor=`) for a valid one: a query parameter's min-length case fails.
        ...namedChecks.filter((c) => /\/query-[^/]+-min-length$/.test(c.id)).map((c) => c.id),
      ].sort(),
    );
    const passed = run.report?.checks.filter((c) => c.outcome === 'passed').map((c) => c.id) ?? [];
    expect(passed.filter((id) => id.startsWith('conformance/')).length).toBe(operations.size);
    expect(passed.filter((id) => id.startsWith('generated/')).sort()).toEqual(
      bodyOperations.map((operationId) => `generated/${operationId}/invalid`).sort(),
    );
    expect(passed.filter((id) => id.startsWith('reliability/')).length).toBe(operations.size);
  }, 300_000);
});

describe('against the fake backend', { concurrent: true }, () => {
  test('every check passes and the run exits 0', async () => {
    const run = await runContract({ API_BASE_URL: fakeUrl(), API_TOKEN: token }, seedArgs);
    expect(run.report, run.stderr).toBeDefined();
    expect({ code: run.code, failed: run.report ? failedChecks(run.report) : [], errors: run.report?.errors }).toEqual({
      code: 0,
      failed: [],
      errors: [],
    });
    expect(run.report?.summary.skipped).toBe(0);
    for (const check of ['conformance', 'auth', 'request-validation', 'behaviour', 'generated']) {
      expect(
        run.report?.checks.some((c) => c.check === check && c.outcome === 'passed'),
        check,
      ).toBe(true);
    }
    expect(run.junit).toContain('<testsuites');
    expect(run.stdout).toContain('PASSED');
    // Status coverage: the suite provokes the statuses a correct server answers to its requests, the fake answers none
    // it does not document; 500 (a server fault) and 409 (it needs an agent the API cannot pause) are never provoked.
    const coverage = run.report?.statusCoverage;
    const pairs = (list: { operationId: string; status: number }[] = []): string[] =>
      list.map((p) => `${p.operationId} ${p.status}`);
    expect(pairs(coverage?.seen)).toEqual(
      expect.arrayContaining(['deployAgent 201', 'deployAgent 400', 'getAgent 404', 'executeAgentTask 415']),
    );
    expect(pairs(coverage?.neverSeen)).toEqual(
      expect.arrayContaining(['deployAgent 500', 'getAgent 500', 'executeAgentTask 409']),
    );
    expect(coverage?.undocumented).toEqual([]);
    expect(run.stdout).toContain(`status coverage ${coverage?.percent.toFixed(1)}%:`);
    expect(run.junit).toContain(`<property name="statusCoverage.percent" value="${coverage?.percent.toFixed(1)}"/>`);
  }, 300_000);
});

describe('generated cases', { concurrent: true }, () => {
  test('a failure is shrunk, printed with its replay command, and the command replays exactly that case', async () => {
    const nonInteger =
      brokenServers.find(([name]) => name.startsWith('answers 500 when initialSupply'))?.[1].given({ token }) ?? {};
    const proxy = await startBreakingProxy(fakeUrl(), nonInteger);
    try {
      const run = await runContract({ API_BASE_URL: proxy.url, API_TOKEN: token }, seedArgs);
      const failure = run.report?.checks.find((c) => c.id === 'generated/deployAgent/valid');
      expect(failure?.outcome).toBe('failed');
      const replay = failure?.generated?.replay ?? '';
      expect(run.stdout).toContain(`replay: ${replay}`);
      expect(replay).toMatch(
        /^npm run contract -- --seed 20261122 --runs 10 --replay generated\/deployAgent\/valid:[\d:]+$/,
      );
      // Shrunk: only the required fields are left, and initialSupply is a small non-integer.
      const body = JSON.parse(failure?.generated?.counterexample ?? '{}') as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['category', 'initialSupply', 'model', 'name']);
      const again = await runContract(
        { API_BASE_URL: proxy.url, API_TOKEN: token },
        replay.replace('npm run contract -- ', '').split(' '),
      );
      const replayed = again.report?.checks.find((c) => c.id === 'generated/deployAgent/valid');
      expect(replayed?.generated?.counterexample).toBe(failure?.generated?.counterexample);
    } finally {
      await proxy.close();
    }
  }, 300_000);
});

describe('a server that answers every request 200 {}', { concurrent: true }, () => {
  test('gets one screen: the diagnosis first, each violation once, the per-operation summary last', async () => {
    const server = await startFixtureServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    try {
      const run = await runContract({ API_BASE_URL: server.url, API_TOKEN: token }, seedArgs);
      expect(run.code).toBe(1);
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines.length, run.stdout).toBeLessThanOrEqual(50);
      // The three lines of the plan, a blank line, then the diagnosis.
      expect(lines[4]).toMatch(/^Diagnosis: Every answer \(\d+ of \d+\) was the same, 200 application\/json \{\}/);
      expect(run.stdout.split('status 200 is not documented for deployAgent')).toHaveLength(2);
      // One summary line per operation, in the spec's order, then the verdict.
      expect(lines.slice(-(operations.size + 1)).map((line) => line.split(' ')[0])).toEqual([
        ...operations.keys(),
        'FAILED:',
      ]);
      expect(run.report?.diagnosis).toHaveLength(1);
    } finally {
      await server.close();
    }
  }, 300_000);
});

describe('undocumented fields', { concurrent: true }, () => {
  test('are reported as warnings, not failures', async () => {
    const extraField: Breakage = {
      response: (res, req) =>
        req.method === 'GET' && res.status === 200
          ? { ...res, body: res.body.replace(/^\{/, '{"internalScore":7,') }
          : res,
    };
    const proxy = await startBreakingProxy(fakeUrl(), extraField);
    try {
      const run = await runContract({ API_BASE_URL: proxy.url, API_TOKEN: token }, seedArgs);
      expect(run.code, run.stdout).toBe(0);
      const warnings = run.report?.checks.flatMap((c) => c.warnings) ?? [];
      expect(warnings.some((w) => w.rule === 'undocumented-field' && w.pointer === '/internalScore')).toBe(true);
      expect(run.stdout).toContain('/internalScore is not a documented field');
    } finally {
      await proxy.close();
    }
  }, 300_000);
});

describe('the token never appears in any output, log or report', { concurrent: true }, () => {
  test('not even when the server echoes it and failures dump the requests', async () => {
    const acceptsAlteredSignature = brokenServers
      .find(([name]) => name.startsWith('accepts a token whose signature'))?.[1]
      .given({ token });
    const echo: Breakage = {
      request: (req) => acceptsAlteredSignature?.request?.(req) ?? req,
      response: (res, req) => ({
        ...res,
        headers: { ...res.headers, 'x-echo-authorization': req.headers.authorization ?? '' },
        body:
          res.status === 401
            ? res.body.replace('"detail":"', `"detail":"you sent ${req.headers.authorization ?? 'nothing'}; `)
            : res.body,
      }),
    };
    const proxy = await startBreakingProxy(fakeUrl(), echo);
    try {
      const run = await runContract({ API_BASE_URL: proxy.url, API_TOKEN: token }, seedArgs);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('<API_TOKEN');
      // The echo really happened: what the server sent back is in the report, redacted.
      expect(run.json).toContain('you sent Basic <redacted>');
      expect(run.json).toContain('"x-echo-authorization": "Bearer <redacted>"');
      const signature = token.split('.')[2] ?? token;
      const secrets = [token, ...token.split('.'), signature.slice(1)].filter((secret) => secret.length >= 8);
      for (const [where, text] of Object.entries({
        stdout: run.stdout,
        stderr: run.stderr,
        json: run.json,
        junit: run.junit,
      })) {
        if (where !== 'stderr') expect(text.length, where).toBeGreaterThan(0);
        for (const secret of secrets) expect(text.includes(secret), `${where} contains part of the token`).toBe(false);
      }
    } finally {
      await proxy.close();
    }
  }, 300_000);
});

describe('safety against real servers', { concurrent: true }, () => {
  test('--max-writes caps every POST, and a capped check is reported as skipped and fails the run', async () => {
    const proxy = await startBreakingProxy(fakeUrl(), {});
    try {
      const run = await runContract({ API_BASE_URL: proxy.url, API_TOKEN: token }, [...seedArgs, '--max-writes', '12']);
      expect(proxy.log.filter((entry) => entry.method === 'POST').length).toBeLessThanOrEqual(12);
      expect(run.code).toBe(1);
      expect(run.report?.summary.skippedByCap).toBeGreaterThan(0);
      expect(run.report?.summary.failed).toBe(0);
      expect(run.stdout).toContain('does not count as a pass');
    } finally {
      await proxy.close();
    }
  }, 300_000);

  test('--read-only sends only GETs and requests the server rejects, and passes on a correct server', async () => {
    const deployed = await fetch(`${fakeUrl()}/v1/agents/deploy`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'read-only target', category: 'defi', model: 'llama-2', initialSupply: 1000 }),
    });
    const { agentId } = (await deployed.json()) as { agentId: string };
    const proxy = await startBreakingProxy(fakeUrl(), {});
    try {
      const run = await runContract({ API_BASE_URL: proxy.url, API_TOKEN: token, API_AGENT_ID: agentId }, [
        ...seedArgs,
        '--read-only',
      ]);
      expect(run.code, run.stdout).toBe(0);
      const acceptedPosts = proxy.log.filter((entry) => entry.method === 'POST' && entry.status < 400);
      expect(acceptedPosts).toEqual([]);
      expect(proxy.log.some((entry) => entry.method === 'GET' && entry.status === 200)).toBe(true);
      expect(run.report?.checks.some((c) => c.skipReason === 'read-only')).toBe(true);
    } finally {
      await proxy.close();
    }
  }, 300_000);

  test('--seed-only turns failures of assumption rules into warnings', async () => {
    const notQueued =
      brokenServers.find(([name]) => name.startsWith('a new task is processing'))?.[1].given({ token }) ?? {};
    const proxy = await startBreakingProxy(fakeUrl(), notQueued);
    try {
      const run = await runContract({ API_BASE_URL: proxy.url, API_TOKEN: token }, [...seedArgs, '--seed-only']);
      expect(run.code, run.stdout).toBe(0);
      const warnings = run.report?.checks.flatMap((c) => c.warnings) ?? [];
      expect(warnings.some((w) => w.rule === 'new-task-queued' && w.origin === 'assumption')).toBe(true);
    } finally {
      await proxy.close();
    }
  }, 300_000);
});
