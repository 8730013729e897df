// The suite must prove it can fail: each deliberately broken server (the fake behind a proxy that breaks one rule)
// is caught under exactly the rules it breaks, and the run exits non-zero.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SpawnedServer } from '../../scripts/spawned-server.ts';
import { startBreakingProxy } from './breaking-proxy.ts';
import { brokenServers } from './broken-servers.ts';
import {
  fakeToken,
  failedChecks,
  runContract,
  startFakeBackend,
  type ContractRun,
  violatedRules,
} from './contract-runner.ts';
import { runPool } from './run-pool.ts';

describe('the contract suite against deliberately broken servers', () => {
  let fake: SpawnedServer | undefined;
  const runs = new Map<string, ContractRun>();

  beforeAll(async () => {
    fake = await startFakeBackend();
    const token = await fakeToken();
    const upstream = fake.baseUrl;
    // One fake backend for all of them; two contract runs at a time on a 2-core machine.
    await runPool(brokenServers, 2, async ([name, { given, args = [] }]) => {
      const proxy = await startBreakingProxy(upstream, given({ token }));
      try {
        runs.set(
          name,
          await runContract({ API_BASE_URL: proxy.url, API_TOKEN: token }, [
            '--seed',
            '20261122',
            '--runs',
            '5',
            ...args,
          ]),
        );
      } finally {
        await proxy.close();
      }
    });
  }, 600_000);

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
