// The CLIs that read what a server or a file hands them stay bounded and answer in one line: spec-change on huge
// journals and reports (no crash, never exit 1 for one), on specs it cannot use (exit 2, one line), endless bodies and
// /dev/zero (stopped at a cap), and URLs with a password (refused, never printed).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from '../support/spawned-server.ts';
import { runContract } from '../contract/contract-runner.ts';
import { endless, runCli, startHostileServer, type HostileServer } from './hostile-server.ts';

// A loose view of the document: the cases below reach into it to break it.
// biome-ignore lint/suspicious/noExplicitAny: the cases write anywhere in the parsed YAML
type Spec = Record<string, any>;

const spec = parse(readFileSync(join(repoRoot, 'spec/openapi.yaml'), 'utf8')) as Spec;
let directory = '';
let server: HostileServer;
const journalEntries = 150_000;

/** Stands for an array nested 5,000 deep, spliced into the JSON text (JSON.stringify itself would overflow). */
const deepMark = '<deep>';

function writeSpec(name: string, change: (document: Spec) => void): string {
  const document = structuredClone(spec);
  change(document);
  const file = join(directory, name);
  writeFileSync(file, JSON.stringify(document).replace(`"${deepMark}"`, `${'['.repeat(5000)}${']'.repeat(5000)}`));
  return file;
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'agent-registry-bounded-'));
  const entry = { at: '2026-01-01T00:00:00.000Z', method: 'GET', path: '/v1/agents/agt_1', status: 200 };
  const bigJournal = JSON.stringify({
    capacity: journalEntries,
    entries: Array.from({ length: journalEntries }, () => entry),
  });
  server = await startHostileServer((req, res) => {
    if (req.url?.startsWith('/big/__mock/journal')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(bigJournal);
    } else endless(res, 'application/json', '{"entries":[');
  });
  const exchange = {
    request: { method: 'GET', url: 'http://127.0.0.1:4010/v1/agents/agt_1' },
    response: { status: 404, headers: {}, body: '' },
  };
  writeFileSync(
    join(directory, 'big-report.json'),
    JSON.stringify({
      baseUrl: 'http://127.0.0.1:4010',
      checks: [{ id: 'c', exchanges: Array.from({ length: journalEntries }, () => exchange) }],
    }),
  );
}, 60_000);

afterAll(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('spec-change on a journal or report above 110k entries finishes (it overflowed the stack, exit 1)', () => {
  test.each([
    ['--journal', () => `${server.url}/big`],
    ['--report', () => join(directory, 'big-report.json')],
  ])(
    '%s',
    async (flag, value) => {
      const run = await runCli('spec-change', ['--base', 'spec/openapi.yaml', flag, value()], {}, 120_000);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(
        new RegExp(`${journalEntries.toLocaleString('en').replaceAll(',', ',?')}|${journalEntries}`),
      );
    },
    150_000,
  );
});

describe('spec-change on a spec it cannot use: one line, exit 2', () => {
  const cases: Array<[string, (document: Spec) => void, RegExp]> = [
    [
      'a $ref cycle',
      (d) => {
        d.components.schemas.Loop1 = { $ref: '#/components/schemas/Loop2' };
        d.components.schemas.Loop2 = { $ref: '#/components/schemas/Loop1' };
        d.components.schemas.Agent.properties.loop = { $ref: '#/components/schemas/Loop1' };
      },
      /loop of \$refs/,
    ],
    [
      'an external $ref',
      (d) => (d.components.schemas.Agent.properties.name = { $ref: 'file:///etc/passwd' }),
      /not a reference inside the document/,
    ],
    ['no components.schemas', (d) => delete d.components.schemas, /not in the document|no components\.schemas/],
    [
      'an invalid schema',
      (d) => (d.components.schemas.Agent.properties.name = { type: 'strin' }),
      /schema at \/components\/schemas\/Agent is invalid/,
    ],
    ['JSON nested 5,000 deep', (d) => (d['x-deep'] = deepMark), /nested deeper than/],
  ];
  test.each(cases)(
    '%s, as head and as base',
    async (name, change, message) => {
      const file = writeSpec(`${name.replaceAll(/\W/g, '-')}.json`, change);
      for (const args of [
        ['--base', 'spec/openapi.yaml', '--head', file],
        ['--base', file],
      ]) {
        const run = await runCli('spec-change', args);
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toMatch(message);
        expect(run.stderr.trim().split('\n')).toHaveLength(1);
      }
    },
    60_000,
  );
});

describe('endless input is cut at a cap', () => {
  // spec-change streams any size (test/cli/spec-change-large.test.ts), so endless input is stopped by what it holds:
  // endless filler never completes a value, and NUL bytes are not JSON.
  test('spec-change --journal', async () => {
    const run = await runCli('spec-change', ['--base', 'spec/openapi.yaml', '--journal', server.url]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/more than 16 MiB without one complete JSON value/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);

  test('spec-change --report /dev/zero', async () => {
    const run = await runCli('spec-change', ['--base', 'spec/openapi.yaml', '--report', '/dev/zero']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/cannot read the report \/dev\/zero \(it is not JSON/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);

  test('contract: the reachability probe reads no body, and each check stops reading at the cap', async () => {
    const run = await runContract({ API_BASE_URL: server.url, API_TOKEN: 'tok_bounded_reads_1' }, [
      '--max-writes',
      '0',
      '--runs',
      '1',
      '--timeout',
      '20000',
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/larger than 16 MiB; stopped reading/);
  }, 120_000);

  test('coverage', async () => {
    const run = await runCli('coverage', ['--base-url', server.url, '--timeout', '60000']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/larger than \d+ MiB/);
  }, 60_000);

  // A run that is not refused starts a server and is killed at the hang guard (code -1): only a refusal passes.
  test.each([
    [
      'proxy --ca, a file over 16 MiB',
      'proxy',
      ['--upstream', 'https://127.0.0.1:9', '--port', '0', '--ca'],
      'big',
      /cannot read --ca .*larger than 16 MiB/,
    ],
    [
      'proxy --ca /dev/zero',
      'proxy',
      ['--upstream', 'https://127.0.0.1:9', '--port', '0', '--ca'],
      '/dev/zero',
      /cannot read --ca \/dev\/zero .*larger than 16 MiB/,
    ],
    [
      'serve --from-recording, an exchange over 16 MiB',
      'serve',
      ['--port', '0', '--from-recording'],
      'big-recording',
      /cannot read --from-recording .*16 MiB/,
    ],
    [
      'serve --from-recording /dev/zero',
      'serve',
      ['--port', '0', '--from-recording'],
      '/dev/zero',
      /cannot read --from-recording \/dev\/zero \(.*not JSON/,
    ],
  ])(
    '%s: one line, exit 2',
    async (_name, command, args, input, message) => {
      const file =
        input === 'big'
          ? join(directory, 'big.pem')
          : input === 'big-recording'
            ? join(directory, 'big-recording.json')
            : input;
      if (input === 'big') writeFileSync(file, 'x'.repeat(17 * 1024 * 1024));
      if (input === 'big-recording')
        writeFileSync(
          file,
          JSON.stringify({
            format: 'agent-registry-kit-recording',
            version: 1,
            exchanges: [
              {
                request: { method: 'GET', url: '/v1/agents/agt_1' },
                response: { status: 200, body: 'x'.repeat(17 * 1024 * 1024) },
              },
            ],
          }),
        );
      const run = await runCli(command, [...args, file], {}, 30_000);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    },
    60_000,
  );
});

describe('a URL with a password is refused and never printed', () => {
  test.each([
    ['coverage', ['--base-url']],
    ['spec-change', ['--base', 'spec/openapi.yaml', '--journal']],
  ])('%s', async (script, args) => {
    const run = await runCli(script, [...args, 'http://admin:S3cretPass@127.0.0.1:1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/must not carry a user or password/);
    expect(run.stdout + run.stderr).not.toContain('S3cretPass');
  });
});
