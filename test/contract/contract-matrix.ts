// Many contract runs in one child process, one after the other: vitest and the suite's modules load once instead of
// once per run, which would make the broken-server matrix the slowest file of `npm test`. Each run is the CLI's own
// (scripts/commands/contract.ts's readArgs, the suite's runner contract-tests/suite-runner.ts), so a run here reports
// what `npm run contract` would.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContractReport } from '../../contract-tests/report/contract-report.ts';
import type { SuiteSettings } from '../../contract-tests/suite-runner.ts';
import { repoRoot } from '../support/spawned-server.ts';
import type { ContractRun } from './contract-runner.ts';

/** One contract run: its environment (API_BASE_URL, API_TOKEN, API_AGENT_ID) and command-line arguments. */
export interface MatrixJob {
  env: Record<string, string | undefined>;
  args: string[];
}

/** What the child reads on stdin: the jobs, and the setup files every run of the suite loads first. */
export interface MatrixInput {
  jobs: MatrixJob[];
  setupFiles: string[];
}

/**
 * Runs the jobs in `processes` child processes (the jobs dealt out in turn, each child running its share one after the
 * other) and returns their runs in the jobs' order; `code` is what the CLI would exit with. `suite.setupFiles` (paths
 * from the repository's root) are loaded before the suite in every run: an in-process server behind fetch, say.
 * @example const [run] = await runContractMatrix([{ env: { API_BASE_URL: url, API_TOKEN: token }, args: ['--runs', '5'] }]);
 */
export async function runContractMatrix(
  jobs: readonly MatrixJob[],
  processes = 1,
  suite: Pick<SuiteSettings, 'setupFiles'> = {},
): Promise<ContractRun[]> {
  const shares = Array.from({ length: Math.max(1, Math.min(processes, jobs.length)) }, (_, share) =>
    jobs.map((job, index) => ({ job, index })).filter(({ index }) => index % processes === share),
  );
  const setupFiles = suite.setupFiles ?? [];
  const results = await Promise.all(
    shares.map((share) => runInOneProcess({ jobs: share.map(({ job }) => job), setupFiles })),
  );
  const runs: ContractRun[] = new Array<ContractRun>(jobs.length);
  for (const [s, share] of shares.entries()) {
    for (const [position, { index }] of share.entries()) {
      const run = results[s]?.[position];
      if (run) runs[index] = run;
    }
  }
  return runs;
}

/** Runs the jobs one after the other in one child process. */
async function runInOneProcess(input: MatrixInput): Promise<ContractRun[]> {
  const { jobs } = input;
  const dir = mkdtempSync(join(tmpdir(), 'agent-registry-matrix-'));
  try {
    // stdout is not needed (each run's console report is a file), and waiting for 'exit', not 'close', does not wait
    // on a vitest worker the child forked that may still hold a copy of its stdio for a moment.
    const child = spawn(process.execPath, ['test/contract/contract-matrix-child.ts', dir], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE,
        NO_COLOR: '1',
      },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.stdin.end(JSON.stringify(input));
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    if (code !== 0) throw new Error(`the contract matrix exited with ${code}: ${stderr}`);
    return jobs.map((_, index) => {
      const read = (suffix: string): string => {
        try {
          return readFileSync(join(dir, `${index}${suffix}`), 'utf8');
        } catch {
          return '';
        }
      };
      const json = read('.json');
      const report = json === '' ? undefined : (JSON.parse(json) as ContractReport);
      return {
        code: report?.verdict === 'passed' ? 0 : 1,
        stdout: read('.out'),
        stderr,
        json,
        junit: read('.xml'),
        report,
      };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
