// Bytes a server wrote never reach the user's terminal raw: contract (diagnosis line and excerpts), diff (non-JSON
// bodies), coverage (operationId and key from the fake) and spec-change (a journal's `at` and `path`) print every C0/C1
// control as a visible escape.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runContract, startFakeBackend, fakeToken } from '../contract/contract-runner.ts';
import { repoRoot, type SpawnedServer } from '../support/spawned-server.ts';
import { terminalSafe } from '../../verifier-client/terminal-text.ts';
import { coverageAnswer, runCli, startHostileServer, terminalAttack, type HostileServer } from './hostile-server.ts';

// Any C0 control but newline and tab, DEL, or a C1 control.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('terminalSafe', () => {
  test.each([
    ['OSC 0 (window title)', '\u001b]0;pwned\u0007', '\\x1b]0;pwned\\x07'],
    ['clear screen', '\u001b[2J', '\\x1b[2J'],
    ['8-bit CSI', '\u009b31m', '\\x9b31m'],
    ['carriage return', 'ok\rFAIL', 'ok\\x0dFAIL'],
    ['a right-to-left override', 'a\u202eb', 'a\\u202eb'],
    ['newlines and tabs stay', 'a\n\tb', 'a\n\tb'],
  ])('%s', (_name, text, shown) => {
    expect(terminalSafe(text)).toBe(shown);
  });
});

describe('every CLI prints server text with its control characters escaped', () => {
  let hostile: HostileServer;
  let fake: SpawnedServer;
  let directory = '';
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'agent-registry-terminal-'));
    hostile = await startHostileServer((req, res) => {
      if (req.url === '/__mock/coverage') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(coverageAnswer(`getAgent${terminalAttack}`, `200${terminalAttack}`));
        return;
      }
      if (req.url === '/__mock/journal') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            capacity: 10,
            entries: [{ at: terminalAttack, method: 'GET', path: `/v1/agents/${terminalAttack}`, status: 200 }],
          }),
        );
        return;
      }
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`down ${terminalAttack}`);
    });
    fake = await startFakeBackend();
  }, 60_000);
  afterAll(async () => {
    await hostile.close();
    await fake.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  test('contract', async () => {
    const run = await runContract({ API_BASE_URL: hostile.url, API_TOKEN: await fakeToken() }, [
      '--seed',
      '1',
      '--runs',
      '1',
      '--max-writes',
      '0',
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('\\x1b]0;pwned\\x07');
    expect(raw.test(run.stdout + run.stderr)).toBe(false);
  }, 240_000);

  test('diff', async () => {
    const run = await runCli(
      'diff',
      ['--fake', fake.baseUrl, '--real', hostile.url, '--seed', '1', '--max-writes', '0'],
      {
        API_TOKEN: await fakeToken(),
      },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('\\x1b[2J');
    expect(raw.test(run.stdout + run.stderr)).toBe(false);
  }, 120_000);

  test('coverage', async () => {
    const run = await runCli('coverage', ['--base-url', hostile.url]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('\\x1b[2J');
    expect(raw.test(run.stdout + run.stderr)).toBe(false);
  });

  test('spec-change', async () => {
    // A head without GET /v1/agents/{agentId}: the journal's retrieve is then a call the change breaks, listed with its
    // path and time as the server wrote them.
    const head = join(directory, 'head.yaml');
    writeFileSync(
      head,
      readFileSync(join(repoRoot, 'spec/openapi.yaml'), 'utf8').replace(
        '  /v1/agents/{agentId}:\n',
        '  /v2/agents/{agentId}:\n',
      ),
    );
    const run = await runCli('spec-change', ['--base', 'spec/openapi.yaml', '--head', head, '--journal', hostile.url]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('\\x1b[2J');
    expect(raw.test(run.stdout + run.stderr)).toBe(false);
  });
});
