// `agent-registry-kit spec-change` as a process: a git ref or a file as the base, exit 0 when nothing breaks, exit 1 with
// the classified changes and the rejected recordings listed, --json written, and one-line mistakes with exit 2.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot } from '../support/spawned-server.ts';

const run = promisify(execFile);
const script = join(repoRoot, 'scripts/commands/spec-change.ts');
const spec = readFileSync(join(repoRoot, 'spec/openapi.yaml'), 'utf8');
let dir = '';

async function specChange(args: string[], cwd = repoRoot): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args], { cwd, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-registry-spec-change-'));
  // A repository of its own whose last commit holds the spec, so `--base HEAD` is read with git show.
  mkdirSync(join(dir, 'spec'));
  writeFileSync(join(dir, 'spec/openapi.yaml'), spec);
  const git = (...args: string[]) => run('git', args, { cwd: dir });
  await git('init', '-q');
  await git('add', 'spec/openapi.yaml');
  await git('-c', 'user.name=kit', '-c', 'user.email=kit@example.invalid', 'commit', '-qm', 'base');
  writeFileSync(join(dir, 'head.yaml'), spec.replace('enum: [low, normal, high]', 'enum: [normal, high]'));
  writeFileSync(
    join(dir, 'report.json'),
    JSON.stringify({
      baseUrl: 'http://127.0.0.1:4010',
      checks: [
        {
          id: 'behaviour/executeAgentTask/priorities',
          exchanges: [
            {
              request: {
                method: 'POST',
                url: 'http://127.0.0.1:4010/v1/agents/agt_1/execute',
                headers: { 'content-type': 'application/json', authorization: 'Bearer <API_TOKEN>' },
                body: '{"task":"t","priority":"low"}',
              },
              response: {
                status: 200,
                headers: { 'content-type': 'application/json' },
                body: '{"taskId":"tsk_1","status":"queued","estimatedCompletion":1,"cost":1}',
              },
            },
          ],
        },
      ],
    }),
  );
}, 30_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('spec-change', () => {
  test('a git ref against an unchanged file: compatible, exit 0', async () => {
    const result = await specChange(['--base', 'HEAD', '--head', 'spec/openapi.yaml'], dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('agent-registry-kit spec-change: HEAD:spec/openapi.yaml → spec/openapi.yaml');
    expect(result.stdout).toMatch(/^COMPATIBLE: /m);
  });

  test('a removed request enum value: the change and the recorded call it breaks, exit 1, --json', async () => {
    const json = join(dir, 'out.json');
    const result = await specChange(
      ['--base', 'HEAD', '--head', 'head.yaml', '--report', 'report.json', '--json', json],
      dir,
    );
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/✗ clients enum-value-removed\s+\/components\/schemas\/TaskPriority\/enum/);
    expect(result.stdout).toContain(
      '✗ report behaviour/executeAgentTask/priorities #0: POST /v1/agents/agt_1/execute request now rejected',
    );
    expect(result.stdout).toContain('/priority must be one of normal, high');
    expect(result.stdout).toMatch(/^BREAKING: 1 change\(s\) break clients, 0 break servers, 1 recorded/m);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { verdict: string; changes: Array<{ pointer: string }> };
    expect(report.verdict).toBe('breaking');
    expect(report.changes.map((c) => c.pointer)).toEqual(['/components/schemas/TaskPriority/enum']);
  });

  test.each([
    [[], /--base is required/],
    [
      ['--base', 'no-such-ref-or-file'],
      /"no-such-ref-or-file" is not a file, and git cannot show no-such-ref-or-file:spec\/openapi.yaml/,
    ],
    [['--base', 'HEAD', '--head', 'report.json'], /report.json is not an OpenAPI document/],
    [['--base', 'HEAD', '--report', 'missing.json'], /cannot read the report missing.json/],
    [['--base', 'HEAD', '--report', 'head.yaml'], /cannot read the report head.yaml/],
    [['--base', 'HEAD', '--journal', 'http://127.0.0.1:1'], /cannot read http:\/\/127.0.0.1:1\/__mock\/journal/],
    [['--base', 'HEAD', '--bogus'], /Unknown option '--bogus'/],
  ])('%j: one line, exit 2', async (args, message) => {
    const result = await specChange(args, dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
