// The suite must prove it can fail: each deliberately broken server (the fake behind a proxy that breaks one rule)
// is caught under exactly the rules it breaks, and the run exits non-zero.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SpawnedServer } from '../support/spawned-server.ts';
import { startBreakingProxy } from './breaking-proxy.ts';
import { brokenServerSeeds, brokenServers } from './broken-servers.ts';
import { runContractMatrix } from './contract-matrix.ts';
import { fakeToken, failedChecks, startFakeBackend, type ContractRun, violatedRules } from './contract-runner.ts';

/** The seed every broken server runs under. */
const TABLE_SEED = 20261122;

describe('the contract suite against deliberately broken servers', () => {
  let fake: SpawnedServer | undefined;
  const runs = new Map<string, ContractRun>();

  /** One run per broken server at the table's seed, and one per extra seed for those that must be caught under any. */
  const extraSeeds = brokenServerSeeds(new Date());
  const jobs = brokenServers.flatMap(([name, server]) => [
    { name, server, seed: TABLE_SEED },
    ...(server.seeds === 'several' ? extraSeeds.map((seed) => ({ name, server, seed })) : []),
  ]);
  const key = (name: string, seed: number): string => `${name} @${seed}`;

  beforeAll(async () => {
    console.log(`broken servers that must be caught under any seed also run with --seed ${extraSeeds.join(', ')}`);
    fake = await startFakeBackend();
    const token = await fakeToken();
    const upstream = fake.baseUrl;
    // One fake backend and one proxy per run, all up at once; the contract runs follow one another in one process per
    // core (test/contract/contract-matrix.ts), which loads vitest and the suite twice instead of once per run.
    const proxies = await Promise.all(jobs.map(({ server }) => startBreakingProxy(upstream, server.given({ token }))));
    try {
      const results = await runContractMatrix(
        jobs.map(({ server: { args = [] }, seed }, index) => ({
          env: { API_BASE_URL: proxies[index]?.url, API_TOKEN: token },
          args: ['--seed', String(seed), '--runs', '5', ...args],
        })),
        2,
      );
      for (const [index, { name, seed }] of jobs.entries()) {
        const run = results[index];
        if (run) runs.set(key(name, seed), run);
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

  test.each(jobs.map(({ name, server, seed }) => [`${name} (seed ${seed})`, name, server.rules, seed] as const))(
    '%s: caught under exactly its rules',
    (_, name, rules, seed) => {
      const run = runs.get(key(name, seed));
      expect(run, `no contract run for ${name}`).toBeDefined();
      if (!run) return;
      expect(run.report, `no JSON report; stderr: ${run.stderr}`).toBeDefined();
      if (!run.report) return;
      expect({ code: run.code, verdict: run.report.verdict }).toEqual({ code: 1, verdict: 'failed' });
      expect(
        [...violatedRules(run.report)].sort(),
        `failed checks: ${JSON.stringify(failedChecks(run.report))}`,
      ).toEqual([...rules].sort());
    },
  );

  test('every failed check reports all its differences, the seed rules first', () => {
    const orders = [...runs].flatMap(([run, { report }]) =>
      (report?.checks ?? [])
        .filter((check) => check.outcome === 'failed')
        .map((check) => ({ run, check: check.id, origins: check.violations.map((v) => v.origin) })),
    );
    const seedFirst = (origins: string[]): boolean =>
      origins.indexOf('assumption') === -1 || !origins.slice(origins.indexOf('assumption')).includes('seed');
    expect(orders.filter(({ origins }) => !seedFirst(origins))).toEqual([]);
    // The over-long name breaks an assumption and the seed in one field of one answer: both are reported, seed first.
    const both = runs.get(key('retrieve answers another name, past the assumed maxLength (every rule)', TABLE_SEED));
    const retrievable = both?.report?.checks.find((c) => c.id === 'behaviour/deployAgent/retrievable');
    expect(retrievable?.violations.map((v) => [v.rule, v.origin])).toEqual([
      ['retrieve-agrees-with-deploy', 'seed'],
      ['body-schema', 'assumption'],
    ]);
  });
});
