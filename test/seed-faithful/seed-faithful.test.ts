// A property of the suite itself: `contract --seed-only` passes a server written from the service description alone
// (test/seed-faithful/seed-faithful-server.ts) for any seed, and fails each broken variant of it, whose one defect shows only
// near the edge of a rule: the near-miss check catches it, the far-value check beside it does not. A rotating sample of
// seeds runs here (a new one each day, printed); `npm run contract:seeds` runs 200 or more.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FixtureServer } from '../support/fixture-server.ts';
import { runContractMatrix } from '../contract/contract-matrix.ts';
import { fakeToken, failedChecks, type ContractRun } from '../contract/contract-runner.ts';
import { startSeedFaithfulServer, type SeedDefect } from './seed-faithful-server.ts';

/** The seed that failed a faithful server every time before invalid cases were labelled by keyword (initialSupply > 1e15). */
const reportedSeed = 2008714486;
/** Three seeds that change every day, so the sample rotates over the seed space. */
const day = Math.floor(Date.now() / 86_400_000);
const sampleSeeds = [reportedSeed, ...[1, 2, 3].map((i) => (day * 7919 + i * 104_729) % 2 ** 31)];

const deploy = 'request-validation/deployAgent';
const execute = 'request-validation/executeAgentTask';
const everyOperation = (variant: string): string[] =>
  ['deployAgent', 'getAgent', 'executeAgentTask'].map((operation) => `auth/${operation}/${variant}`);

/** Each defect: the near-miss checks that must fail, and far-value checks of the same rule that it still passes. */
const defects: Array<[SeedDefect, { caughtBy: string[]; passes: string[] }]> = [
  [
    'enum-case',
    {
      caughtBy: [`${deploy}/category-enum-case`, `${deploy}/model-enum-case`, `${execute}/priority-enum-case`],
      passes: [`${deploy}/category-enum`, `${execute}/priority-enum`],
    },
  ],
  [
    'enum-space',
    {
      caughtBy: [`${deploy}/category-enum-space`, `${deploy}/model-enum-space`, `${execute}/priority-enum-space`],
      passes: [`${deploy}/category-enum`, `${execute}/priority-enum`],
    },
  ],
  [
    'bound-rounded',
    {
      caughtBy: [`${deploy}/revenueShare-maximum-step`, `${deploy}/revenueShare-minimum-step`],
      passes: [`${deploy}/revenueShare-maximum`, `${deploy}/revenueShare-minimum`],
    },
  ],
  [
    'numeric-string',
    { caughtBy: [`${deploy}/revenueShare-type-numeric-string`], passes: [`${deploy}/revenueShare-type-string`] },
  ],
  [
    'array-unwrapped',
    {
      caughtBy: [
        `${deploy}/category-type-in-array`,
        `${deploy}/revenueShare-type-in-array`,
        `${execute}/task-type-in-array`,
      ],
      passes: [`${deploy}/category-type-array`, `${deploy}/revenueShare-type-array`],
    },
  ],
  ['scheme-optional', { caughtBy: everyOperation('scheme-missing'), passes: everyOperation('not-bearer') }],
  ['scheme-repeated', { caughtBy: everyOperation('scheme-doubled'), passes: everyOperation('malformed') }],
];

describe('the contract suite against a seed-faithful server and its near-miss defects', () => {
  const servers: FixtureServer[] = [];
  let faithful: ContractRun[] = [];
  const broken = new Map<SeedDefect, ContractRun>();

  beforeAll(async () => {
    const token = await fakeToken();
    servers.push(await startSeedFaithfulServer(token));
    for (const [defect] of defects) servers.push(await startSeedFaithfulServer(token, [defect]));
    const env = (server: FixtureServer | undefined) => ({ API_BASE_URL: server?.url, API_TOKEN: token });
    console.log(`seed-faithful sample seeds: ${sampleSeeds.join(', ')}`);
    const runs = await runContractMatrix(
      [
        ...sampleSeeds.map((seed) => ({ env: env(servers[0]), args: ['--seed-only', '--seed', String(seed)] })),
        ...defects.map((_, index) => ({
          env: env(servers[index + 1]),
          args: ['--seed-only', '--seed', '20261122', '--runs', '5'],
        })),
      ],
      2,
    );
    faithful = runs.slice(0, sampleSeeds.length);
    for (const [index, [defect]] of defects.entries()) {
      const run = runs[sampleSeeds.length + index];
      if (run) broken.set(defect, run);
    }
  }, 300_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  test.each(sampleSeeds.map((seed, index) => [seed, index]))('--seed-only passes it with seed %i', (seed, index) => {
    const run = faithful[index];
    expect(run?.report, run?.stderr).toBeDefined();
    if (!run?.report) return;
    expect(failedChecks(run.report), `false alarm with --seed ${seed}`).toEqual([]);
    expect(run.report.verdict).toBe('passed');
  });

  test.each(defects)(
    'a server with the defect %s is caught by its near-miss checks only',
    (defect, { caughtBy, passes }) => {
      const report = broken.get(defect)?.report;
      expect(report, `no report for ${defect}`).toBeDefined();
      if (!report) return;
      expect(report.verdict).toBe('failed');
      const failed = failedChecks(report);
      const failedIds = failed.map((check) => check.id);
      for (const id of caughtBy) expect(failedIds, `${id} must fail`).toContain(id);
      const outcome = (id: string) => report.checks.find((check) => check.id === id)?.outcome;
      for (const id of passes) expect(outcome(id), `${id} (a far value) must pass`).toBe('passed');
      // Caught under the seed's rules only: invalid bodies or credentials accepted, nothing else.
      expect(new Set(failed.flatMap((check) => check.rules))).toEqual(
        new Set([caughtBy[0]?.startsWith('auth/') ? 'rejects-unauthenticated' : 'rejects-invalid-request']),
      );
    },
  );
});
