// `agent-registry-kit pact verify` as a process: exit 0 on a compatible pact, 1 with the finding on an incompatible
// one, 2 in one line on a mistake (no command, no --pact, a missing, endless or invalid file); --seed-only, --json and
// --junit; and a pact holding a real credential or terminal escapes: none of it reaches the screen or a report raw.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, terminalAttack } from './hostile-server.ts';

const fixtures = 'test/pact/fixtures';
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** A JWT-shaped credential as an app would record it, and its parts: none may be printed or written. */
const secret = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJyZWFsLXVzZXItNDIifQ.c2VjcmV0LXNpZ25hdHVyZS1vZi10aGUtcmVhbC10b2tlbg';

let directory = '';
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'agent-registry-pact-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('pact verify', () => {
  test('a compatible pact: the header line, the verdict, exit 0', async () => {
    const run = await runCli('pact', ['verify', '--pact', `${fixtures}/valid/v3-several-interactions.json`]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(
      /^agent-registry-kit pact verify: .*v3-several-interactions\.json \(Pact 3, web-app → agent-registry, 3 interactions\)/,
    );
    expect(run.stdout).toMatch(/^compatible: every interaction agrees with the spec$/m);
    expect(run.code).toBe(0);
  });

  test('an incompatible pact: the interaction, its provider state, pointer, rule and origin, exit 1', async () => {
    const run = await runCli('pact', ['verify', '--pact', `${fixtures}/broken/wrong-enum.json`]);
    expect(run.stdout).toContain(
      '✗ "a request for a paused agent" (given agent agt_3Hd8sQ1mZc6YbN2e exists with status paused) GET /v1/agents/{agentId} → 200',
    );
    expect(run.stdout).toMatch(
      /response: \/status must be one of active, paused, deprecated \(found "retired"\) \[body-schema, seed, spec #\/components\/schemas\/AgentStatus\/enum; under matcher regex/,
    );
    expect(run.stdout).toMatch(/^incompatible: 1 finding in 1 interaction \(1 seed, 0 assumption\)$/m);
    expect(run.stdout.split('\n').length).toBeLessThan(25);
    expect(run.code).toBe(1);
  });

  test('--seed-only: a broken assumption is a warning and the pact passes; a broken seed rule still fails', async () => {
    const assumed = await runCli('pact', [
      'verify',
      '--seed-only',
      '--pact',
      `${fixtures}/broken/assumed-name-bound.json`,
    ]);
    expect(assumed.stdout).toMatch(
      /warning \(assumption, --seed-only\): request: \/name must NOT have more than 100 characters/,
    );
    expect(assumed.code).toBe(0);
    const seed = await runCli('pact', ['verify', '--seed-only', '--pact', `${fixtures}/broken/request-enum.json`]);
    expect(seed.code).toBe(1);
  });

  test('--json and --junit hold every interaction and finding', async () => {
    const json = join(directory, 'report.json');
    const junit = join(directory, 'report.xml');
    const run = await runCli('pact', [
      'verify',
      '--pact',
      `${fixtures}/broken/response-content-type.json`,
      '--json',
      json,
      '--junit',
      junit,
    ]);
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report).toMatchObject({ verdict: 'incompatible', pact: { version: 3, consumer: 'web-app' } });
    expect(report.interactions[0].findings.map((finding: { rule: string }) => finding.rule)).toEqual([
      'content-type',
      'body-is-json',
    ]);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(
      /<testsuites name="agent-registry-kit pact verify web-app → agent-registry" tests="1" failures="1"/,
    );
    expect(xml).toContain(
      '<failure message="Content-Type must be application/json, got text/html" type="content-type">',
    );
  });

  test('a pact with a real credential and escapes in its description: redacted and escaped everywhere', async () => {
    const pact = JSON.parse(readFileSync(`${fixtures}/broken/undocumented-status.json`, 'utf8'));
    pact.interactions[0].description = `a request ${terminalAttack} sent with ${secret}`;
    pact.interactions[0].request.headers.Authorization = `Bearer ${secret}`;
    pact.interactions[0].providerStates[0].name = `the token is ${secret}`;
    const file = join(directory, 'secret.json');
    writeFileSync(file, JSON.stringify(pact));
    const json = join(directory, 'secret-report.json');
    const junit = join(directory, 'secret-report.xml');
    const run = await runCli('pact', ['verify', '--pact', file, '--json', json, '--junit', junit]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('<redacted>');
    for (const output of [run.stdout, run.stderr, readFileSync(json, 'utf8'), readFileSync(junit, 'utf8')]) {
      for (const part of [secret, ...secret.split('.'), Buffer.from(secret).toString('base64').slice(4, 40)])
        expect(output).not.toContain(part);
    }
    expect(run.stdout).not.toMatch(raw);
    expect(run.stdout).toContain('\\x1b]0;pwned');
  });

  test.each([
    ['no command', [], /^agent-registry-kit: pact needs a command; usage: agent-registry-kit pact <verify/],
    ['an unknown command', ['publish'], /^agent-registry-kit: unknown pact command "publish"; usage: /],
    ['no --pact', ['verify'], /^agent-registry-kit: --pact is required; usage: agent-registry-kit pact verify/],
    ['an unknown flag', ['verify', '--pact', 'x', '--strict'], /^agent-registry-kit: Unknown option '--strict'/],
    [
      'a missing file',
      ['verify', '--pact', 'no-such-pact.json'],
      /^agent-registry-kit: cannot read the pact no-such-pact\.json \(ENOENT/,
    ],
    [
      'an endless file',
      ['verify', '--pact', '/dev/zero'],
      /^agent-registry-kit: cannot read the pact \/dev\/zero \(it is larger than 16 MiB\)/,
    ],
    [
      'a file that is no pact',
      ['verify', '--pact', 'package.json'],
      /^agent-registry-kit: package\.json is not a Pact file: it has no "interactions" list\n$/,
    ],
  ])('%s: one line, exit 2', async (_name, args, message) => {
    const run = await runCli('pact', args);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stdout).toBe('');
    expect(run.code).toBe(2);
  });
});
