// The same contract suite, with fetch answered in-process by msw's node interceptor over the fake's handlers
// (mocks/entries/node.ts, a setup file of the suite's runner): the msw adapter obeys the same rules as the standalone
// server.
import { expect, test } from 'vitest';
import { runContractMatrix } from './contract-matrix.ts';
import { fakeToken, failedChecks } from './contract-runner.ts';

test('the contract suite passes against the msw node interceptor', async () => {
  const token = await fakeToken();
  // A host that does not exist: only the interceptor can answer it, so a pass proves the requests went through msw.
  const [run] = await runContractMatrix(
    [
      {
        env: { API_BASE_URL: 'http://agent-registry.msw.test', API_TOKEN: token },
        args: ['--seed', '20261122', '--runs', '10'],
      },
    ],
    1,
    { setupFiles: ['test/contract/msw-interceptor.setup.ts'] },
  );
  if (!run) throw new Error('the matrix returned no run');
  expect(run.report, run.stderr).toBeDefined();
  expect({ code: run.code, failed: run.report ? failedChecks(run.report) : [], errors: run.report?.errors }).toEqual({
    code: 0,
    failed: [],
    errors: [],
  });
  expect(run.report?.summary.passed).toBe(run.report?.summary.checks);
}, 120_000);
