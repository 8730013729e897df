// Every client of a fake's control plane sends the fake's --control-token when it is set, and prints it nowhere:
// coverage and spec-change --journal (from MOCK_CONTROL_TOKEN), connectTestApi (its option, or MOCK_CONTROL_TOKEN) and
// the Playwright fixture's session (its option, or the token of the fake it started). A fake that requires the token
// refuses each of them without it, so a client that forgot to send it fails here.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { MockInputError } from '../../mocks/domain/input-error.ts';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';
import { openMockSession } from '../../mocks/adapters/playwright/playwright.ts';
import { connectTestApi } from '../../mocks/test-api/remote-test-api.ts';
import { startMockServer, type RunningMockServer } from '../../mocks/entries/server.ts';
import { repoRoot } from '../support/spawned-server.ts';
import { coverageAnswer, runCli, startHostileServer, type HostileServer } from './hostile-server.ts';

const secret = 'c0ntrol-T0ken-for-tests-7f3a';

describe('against a fake started with --control-token', () => {
  let fake: RunningMockServer;
  beforeAll(async () => {
    fake = await startMockServer({ port: 0, logger: silentLogger, controlToken: secret });
  });
  afterAll(() => fake.close());
  afterEach(() => {
    delete process.env.MOCK_CONTROL_TOKEN;
  });

  test.each([
    ['coverage', () => ['--base-url', fake.url]],
    ['spec-change', () => ['--base', 'spec/openapi.yaml', '--journal', fake.url]],
  ])(
    '%s sends MOCK_CONTROL_TOKEN, and without it says to export it',
    async (script, args) => {
      const sent = await runCli(script, args(), { MOCK_CONTROL_TOKEN: secret });
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stdout + sent.stderr).not.toContain(secret);
      const missing = await runCli(script, args());
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/answered 403; if the fake runs with --control-token, export MOCK_CONTROL_TOKEN/);
    },
    60_000,
  );

  test('pact export sends MOCK_CONTROL_TOKEN and writes it nowhere, and without it says to export it', async () => {
    await fetch(`${fake.url}/v1/agents/agt_none`, { headers: { authorization: `Bearer ${await mintToken()}` } });
    const work = mkdtempSync(join(tmpdir(), 'agent-registry-pact-token-'));
    try {
      const out = join(work, 'pact.json');
      const args = ['export', '--base-url', fake.url, '--consumer', 'web', '--provider', 'api', '--out', out];
      const sent = await runCli('pact', args, { MOCK_CONTROL_TOKEN: secret });
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stdout + sent.stderr + readFileSync(out, 'utf8')).not.toContain(secret);
      const missing = await runCli('pact', args);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/answered 403; if the fake runs with --control-token, export MOCK_CONTROL_TOKEN/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);

  test('connectTestApi sends its controlToken option, else MOCK_CONTROL_TOKEN', async () => {
    await connectTestApi({ baseUrl: fake.url, controlToken: secret }).seedAgent({ name: 'By option' });
    process.env.MOCK_CONTROL_TOKEN = secret;
    await connectTestApi({ baseUrl: fake.url }).seedAgent({ name: 'By environment' });
  });

  test('connectTestApi without the token is refused, and the error does not hold a token it was given', async () => {
    const refused = connectTestApi({ baseUrl: fake.url }).seedAgent();
    await expect(refused).rejects.toBeInstanceOf(MockInputError);
    await expect(refused).rejects.toThrow(/answered 403/);
    const wrong = await connectTestApi({ baseUrl: fake.url, controlToken: `${secret}-wrong` })
      .reset()
      .catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(MockInputError);
    expect(String((wrong as Error).message)).not.toContain(secret);
  });

  test('the Playwright fixture sends the token with every call of the session, its final DELETE included', async () => {
    const id = 'pw-control-token-0-0';
    const { session, close } = await openMockSession({ url: fake.url, id, controlToken: secret });
    await session.seedAgent({ name: 'In the session' });
    const listed = async (): Promise<string[]> => {
      const answer = await fetch(`${fake.url}/__mock/sessions`, { headers: { 'x-mock-control-token': secret } });
      const body = (await answer.json()) as { sessions: Array<{ id: string }> };
      return body.sessions.map((s) => s.id);
    };
    expect(await listed()).toContain(id);
    await close();
    expect(await listed()).not.toContain(id);
    await expect(openMockSession({ url: fake.url, id, controlToken: undefined })).rejects.toThrow(/answered 403/);
  });
});

describe('a control plane that echoes the token: the CLIs send it and never print it', () => {
  let echo: HostileServer;
  let directory = '';
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'agent-registry-control-token-'));
    echo = await startHostileServer((req, res) => {
      if (req.headers['x-mock-control-token'] !== secret) {
        res.writeHead(401, { 'content-type': 'text/plain' });
        res.end('token required');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url === '/__mock/coverage') res.end(coverageAnswer(`op-${secret}`, `200 ${secret}`));
      else
        res.end(
          JSON.stringify({
            capacity: 10,
            entries: [{ at: `at ${secret}`, method: 'GET', path: `/v1/agents/${secret}`, status: 200 }],
          }),
        );
    });
  });
  afterAll(async () => {
    await echo.close();
    rmSync(directory, { recursive: true, force: true });
  });

  test('coverage', async () => {
    const run = await runCli('coverage', ['--base-url', echo.url], { MOCK_CONTROL_TOKEN: secret });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('op-<redacted>');
    expect(run.stdout + run.stderr).not.toContain(secret);
  });

  test('spec-change --journal', async () => {
    // A head without GET /v1/agents/{agentId}: the journal's retrieve is then listed, with the path and time it echoed.
    const head = join(directory, 'head.yaml');
    const spec = readFileSync(join(repoRoot, 'spec/openapi.yaml'), 'utf8');
    writeFileSync(head, spec.replace('  /v1/agents/{agentId}:\n', '  /v2/agents/{agentId}:\n'));
    const run = await runCli('spec-change', ['--base', 'spec/openapi.yaml', '--head', head, '--journal', echo.url], {
      MOCK_CONTROL_TOKEN: secret,
    });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('/v1/agents/<redacted>');
    expect(run.stdout + run.stderr).not.toContain(secret);
  });
});
