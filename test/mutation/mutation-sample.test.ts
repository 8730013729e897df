// `npm test`'s share of the mutation run (stryker.config.mjs, `npm run mutation`): Stryker itself, with the project's
// config, on a small fixed sample of the fake's mutants, so the wiring (the vitest config Stryker runs, the fake started
// in the suite's worker, the mutant switched on there) cannot rot unseen. A broken wiring shows as a failed initial run
// (Stryker exits non-zero) or as mutants that survive or are never reached. Without the type checker (a mutant that would
// not compile runs too, and the suite must notice it like any other) and with only the suite's behaviour checks, it
// costs one Stryker start and a few suite runs, not the full run's hour.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';
import { repoRoot } from '../support/spawned-server.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'agent-registry-mutation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The sample: the branches of the task and read handlers that tell a found agent from a missing one. */
const sample = ['mocks/operations/executeAgentTask.ts:15-15', 'mocks/operations/getAgent.ts:11-11'];

test('Stryker runs the contract suite against mutants of the fake, in process, and the suite kills the sample', async () => {
  const report = join(dir, 'mutation.json');
  const config = join(dir, 'stryker.sample.config.mjs');
  writeFileSync(
    config,
    `import base from ${JSON.stringify(pathToFileURL(join(repoRoot, 'stryker.config.mjs')).href)};
export default { ...base, mutate: ${JSON.stringify(sample)}, checkers: [], incremental: false, concurrency: 1,
  reporters: ['json'], jsonReporter: { fileName: ${JSON.stringify(report)} }, tempDirName: ${JSON.stringify(join(dir, 'sandboxes'))},
  testFiles: ['contract-tests/behaviour.test.ts'], logLevel: 'warn' };
`,
  );
  await run(process.execPath, [join(repoRoot, 'node_modules/@stryker-mutator/core/bin/stryker.js'), 'run', config], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 240_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const result = JSON.parse(readFileSync(report, 'utf8')) as {
    files: Record<
      string,
      { mutants: Array<{ status: string; mutatorName: string; location: { start: { line: number } } }> }
    >;
  };
  const statuses = Object.values(result.files).flatMap((file) =>
    file.mutants.map((m) => `${m.location.start.line} ${m.mutatorName} ${m.status}`),
  );
  expect(statuses.length).toBeGreaterThanOrEqual(4);
  expect(statuses.filter((s) => !/ (Killed|Ignored)$/.test(s))).toEqual([]);
  expect(statuses.some((s) => s.endsWith(' Killed'))).toBe(true);
}, 300_000);
