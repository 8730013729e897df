// Drives `npm run contract` from outside, as CI would: a child process with --json and --junit, whose outputs and reports
// the self-check reads. Also starts the targets (the fake backend, Prism) and mints the fake's token.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, prismMock, repoRoot, spawnServer, type SpawnedServer } from '../support/spawned-server.ts';
import type { ContractReport } from '../../contract-tests/report/contract-report.ts';

const run = promisify(execFile);

export interface ContractRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The --json report; undefined when the run stopped before writing it. */
  report: ContractReport | undefined;
  /** The --junit report's text; '' when not written. */
  junit: string;
  /** The raw --json text, for greps. */
  json: string;
}

/**
 * Runs scripts/commands/contract.ts with `env` (API_BASE_URL, API_TOKEN, ...) and `args`, always asking for both reports.
 * @example const { code, report } = await runContract({ API_BASE_URL: url, API_TOKEN: token }, ['--runs', '5']);
 */
export async function runContract(env: Record<string, string | undefined>, args: string[] = []): Promise<ContractRun> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-registry-contract-'));
  const jsonFile = join(dir, 'report.json');
  const junitFile = join(dir, 'junit.xml');
  const childEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE,
    NO_COLOR: '1',
  };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) childEnv[name] = value;
  let code = 0;
  let stdout = '';
  let stderr = '';
  try {
    ({ stdout, stderr } = await run(
      process.execPath,
      ['scripts/commands/contract.ts', '--json', jsonFile, '--junit', junitFile, ...args],
      { cwd: repoRoot, env: childEnv, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 },
    ));
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    code = typeof failed.code === 'number' ? failed.code : -1;
    stdout = failed.stdout ?? '';
    stderr = failed.stderr ?? '';
  }
  const read = (file: string): string => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  const json = read(jsonFile);
  const junit = read(junitFile);
  rmSync(dir, { recursive: true, force: true });
  return { code, stdout, stderr, json, junit, report: json === '' ? undefined : (JSON.parse(json) as ContractReport) };
}

/** The checks a report says failed, each with the rules of its violations. */
export function failedChecks(report: ContractReport): Array<{ id: string; rules: string[] }> {
  return report.checks
    .filter((c) => c.outcome === 'failed')
    .map((c) => ({ id: c.id, rules: [...new Set(c.violations.map((v) => v.rule))] }));
}

/** Every rule a failed check reported a violation of. */
export function violatedRules(report: ContractReport): Set<string> {
  return new Set(report.checks.filter((c) => c.outcome === 'failed').flatMap((c) => c.violations.map((v) => v.rule)));
}

/** Starts the project's fake backend on an ephemeral loopback port. */
export function startFakeBackend(): Promise<SpawnedServer> {
  return spawnServer({
    name: 'contract-fake',
    args: ['scripts/commands/serve.ts', '--port', '0'],
    ready: /fake backend listening on http:\/\/127\.0\.0\.1:(\d+)/,
    timeoutMs: 30_000,
  });
}

/** Starts Prism on the same document (static examples), on a free loopback port. */
export async function startPrism(): Promise<SpawnedServer> {
  const port = await freePort();
  return spawnServer({
    name: 'contract-prism',
    ...prismMock(port),
    timeoutMs: 60_000,
  });
}

/** A token the fake backend accepts (scripts/commands/token.ts prints only the token). */
export async function fakeToken(): Promise<string> {
  const { stdout } = await run(process.execPath, ['scripts/commands/token.ts'], { cwd: repoRoot });
  return stdout.trim();
}
