// The suite must prove it can fail: each deliberately broken server (the fake behind a proxy that breaks one rule)
// is caught under exactly the rules it breaks, and the run exits non-zero.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SpawnedServer } from '../support/spawned-server.ts';
import { startBreakingProxy } from './breaking-proxy.ts';
import { brokenServers } from './broken-servers.ts';
import { runContractMatrix } from './contract-matrix.ts';
import { fakeToken, failedChecks, startFakeBackend, type ContractRun, violatedRules } from './contract-runner.ts';

describe('the contract suite against deliberately broken servers', () => {
  let fake: SpawnedServer | undefined;
  const runs = new Map<string, ContractRun>();

  beforeAll(async () => {
    fake = await startFakeBackend();
    const token = await fakeToken();
    const upstream = fake.baseUrl;
    // One fake backend and one proxy per broken server, all up at once; the contract runs follow one another in one
    // process per core (test/contract/contract-matrix.ts), which loads vitest and the suite twice instead of 31 times.
    const proxies = await Promise.all(
      brokenServers.map(([, { given }]) => startBreakingProxy(upstream, given({ token }))),
    );
    try {
      const results = await runContractMatrix(
        brokenServers.map(([, { args = [] }], index) => ({
          env: { API_BASE_URL: proxies[index]?.url, API_TOKEN: token },
          args: ['--seed', '20261122', '--runs', '5', ...args],
        })),
        2,
      );
      for (const [index, [name]] of brokenServers.entries()) {
        const run = results[index];
        if (run) runs.set(name, run);
      }
    } finally {
      await Promise.all(proxies.map((proxy) => proxy.close()));
    }
  }, 1_200_000);

  afterAll(async () => {
    await fake?.stop();
  });

  test('each class of check has a broken server that proves it, and so does a documented but wrong status', () => {
    const names = brokenServers.map(([name]) => name);
    for (const cls of [1, 2, 3, 4, 5, 6, 7])
      expect(
        names.some((name) => name.startsWith(`class ${cls}:`)),
        `class ${cls}`,
      ).toBe(true);
    expect(names.some((name) => name.startsWith('a documented but wrong status'))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
  });

  test.each(brokenServers)('%s: caught under exactly its rules', (name, { rules }) => {
    const run = runs.get(name);
    expect(run, `no contract run for ${name}`).toBeDefined();
    if (!run) return;
    expect(run.report, `no JSON report; stderr: ${run.stderr}`).toBeDefined();
    if (!run.report) return;
    expect({ code: run.code, verdict: run.report.verdict }).toEqual({ code: 1, verdict: 'failed' });
    expect([...violatedRules(run.report)].sort(), `failed checks: ${JSON.stringify(failedChecks(run.report))}`).toEqual(
      [...rules].sort(),
    );
  });
});
