// The differential check against real processes: two fakes agree; the fake against itself behind each broken-server
// proxy diverges, with the divergence named for the rule that proxy breaks; the report shows both exchanges.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SpawnedServer } from '../support/spawned-server.ts';
import { startBreakingProxy } from '../contract/breaking-proxy.ts';
import { brokenServers } from '../contract/broken-servers.ts';
import { fakeToken } from '../contract/contract-runner.ts';
import { startFake } from '../robustness/fake-process.ts';
import { runDiff, type DiffOptions } from '../../differential/diff-run.ts';
import type { DivergenceKind } from '../../differential/step-comparison.ts';
import { buildDiffReport, formatDiffReport } from '../../differential/diff-report.ts';

let fakeA: SpawnedServer | undefined;
let fakeB: SpawnedServer | undefined;
let token = '';

beforeAll(async () => {
  [fakeA, fakeB] = await Promise.all([startFake(['--seed', '1']), startFake(['--seed', '2'])]);
  token = await fakeToken();
}, 60_000);

afterAll(async () => {
  await Promise.all([fakeA?.stop(), fakeB?.stop()]);
});

function options(fake: string, real: string, extra: Partial<DiffOptions> = {}): DiffOptions {
  return {
    fake: { baseUrl: fake, token, tokenLabel: '<API_TOKEN>', agentId: undefined },
    real: { baseUrl: real, token, tokenLabel: '<API_TOKEN>', agentId: undefined },
    seed: 20261123,
    maxWrites: 1000,
    readOnly: false,
    timeoutMs: 10_000,
    ...extra,
  };
}

function url(server: SpawnedServer | undefined): string {
  if (!server) throw new Error('a fake did not start');
  return server.baseUrl;
}

describe('two fakes with different catalogues', () => {
  test('agree on every step, and every invariant was checked on both and holds', async () => {
    const result = await runDiff(options(url(fakeA), url(fakeB)));
    expect(result.divergences).toEqual([]);
    expect(result.sharedFailures).toEqual([]);
    expect(result.sameUnexpectedStatus).toEqual([]);
    expect(result.steps.filter((s) => s.outcome !== 'agree').map((s) => s.id)).toEqual([]);
    for (const side of ['fake', 'real'] as const) {
      const rules = new Set(result.invariants[side].map((r) => r.rule));
      expect([...rules].sort()).toEqual([
        'default-applied',
        'distinct-agent-ids',
        'distinct-task-ids',
        'new-task-queued',
        'retrieve-agrees-with-deploy',
      ]);
      expect(result.invariants[side].filter((r) => !r.holds)).toEqual([]);
    }
  }, 60_000);
});

/** What the differential check must report for each broken server: the kind, the step and the field. */
const expectedDivergence: Record<string, { kind: DivergenceKind; step: RegExp; pointer: string }> = {
  'agent price of the wrong type (a string)': { kind: 'shape', step: /^retrieve\//, pointer: '/tokenomics/price' },
  'deploy answers a status outside the AgentStatus enum': { kind: 'value', step: /^deploy\//, pointer: '/status' },
  'retrieved agent misses a required field (creator)': { kind: 'shape', step: /^retrieve\//, pointer: '/creator' },
  'deploy answers 200 instead of 201': { kind: 'status', step: /^deploy\//, pointer: '' },
  'agent served as text/plain': { kind: 'content-type', step: /^retrieve\//, pointer: '' },
  'problems served as application/json': { kind: 'content-type', step: /^unknown\//, pointer: '' },
  'problem status differs from the HTTP status': { kind: 'conformance', step: /^unknown\//, pointer: '/status' },
  'accepts revenueShare above 1 (clamps it)': {
    kind: 'status',
    step: /^invalid\/deployAgent\/revenueShare-maximum$/,
    pointer: '',
  },
  'accepts a priority outside its enum': {
    kind: 'status',
    step: /^invalid\/executeAgentTask\/priority-enum$/,
    pointer: '',
  },
  'accepts a JSON body sent as text/plain': { kind: 'status', step: /\/content-type-text$/, pointer: '' },
  'answers 500 to malformed JSON': { kind: 'status', step: /\/malformed-json$/, pointer: '' },
  'no auth check (a missing Authorization header is let through)': {
    kind: 'status',
    step: /^auth\/.*\/missing$/,
    pointer: '',
  },
  'accepts a token whose signature was altered': { kind: 'status', step: /^auth\/.*\/bad-signature$/, pointer: '' },
  '401 without a WWW-Authenticate challenge': {
    kind: 'conformance',
    step: /^auth\//,
    pointer: '/headers/www-authenticate',
  },
  'a deployed agent cannot be retrieved': { kind: 'status', step: /^retrieve\//, pointer: '' },
  'retrieve disagrees with the deploy (name changed)': { kind: 'invariant', step: /^retrieve\//, pointer: '/name' },
  "the deploy's answer misreports the name it stores (the one sent)": {
    kind: 'value',
    step: /^deploy\//,
    pointer: '/name',
  },
  // The name past its assumed maxLength breaks the answer's schema first: a conformance difference, on the fake's side.
  'retrieve answers another name, past the assumed maxLength': {
    kind: 'conformance',
    step: /^retrieve\//,
    pointer: '/name',
  },
  'retrieve answers another name, past the assumed maxLength (every rule)': {
    kind: 'conformance',
    step: /^retrieve\//,
    pointer: '/name',
  },
  'totalSupply differs from initialSupply': {
    kind: 'invariant',
    step: /^retrieve\//,
    pointer: '/tokenomics/totalSupply',
  },
  'every deploy returns the same agentId': { kind: 'invariant', step: /^deploy\//, pointer: '/agentId' },
  'an unknown agent is answered 400 instead of 404': { kind: 'status', step: /^unknown\/getAgent$/, pointer: '' },
  'rejects tasks with priority low': { kind: 'status', step: /^execute\/priority-low$/, pointer: '' },
  'a new task is processing, not queued': { kind: 'value', step: /^execute\//, pointer: '/status' },
  'answers 500 when initialSupply is not a whole number': { kind: 'status', step: /^deploy\/generated-/, pointer: '' },
  // The broken servers of the contract suite's numbered classes (class 1, 2, …); listed here so they are named too.
  'class 1: the retrieved agent has no performance object (caught with --seed-only: the seed lists it)': {
    kind: 'shape',
    step: /^retrieve\//,
    pointer: '/performance',
  },
  'class 2: parameters checked with typeof === "object", so an array or null is accepted': {
    kind: 'status',
    step: /^invalid\/executeAgentTask\/parameters-type-(array|null)$/,
    pointer: '',
  },
  'class 3: accepts a token re-headed with alg none that carries the real payload': {
    kind: 'status',
    step: /^auth\/.*\/alg-none$/,
    pointer: '',
  },
  'class 4: the third deploy of a name gets the agentId of the one before it': {
    kind: 'invariant',
    step: /^deploy\/repeat-2$/,
    pointer: '/agentId',
  },
  'class 4: taskIds count per agent (tsk_1, tsk_2, … again for every agent)': {
    kind: 'invariant',
    step: /^execute\/second-agent$/,
    pointer: '/taskId',
  },
  'class 5: the stored price is rounded to 2 decimals': {
    kind: 'invariant',
    step: /^retrieve\//,
    pointer: '/tokenomics/price',
  },
  'class 6: one retrieve in 10 fails with a documented 500': {
    kind: 'status',
    step: /^(retrieve|again)\//,
    pointer: '',
  },
  'class 7: rejects revenueShare exactly 1 (reads the range as 0 ≤ x < 1)': {
    kind: 'status',
    step: /^deploy\/edge-revenueShare-maximum-1$/,
    pointer: '',
  },
  'no auth check on deployAgent (any credentials, or none, are let through; caught with --seed-only)': {
    kind: 'status',
    step: /^auth\/deployAgent\//,
    pointer: '',
  },
  'no auth check on executeAgentTask (any credentials, or none, are let through; caught with --seed-only)': {
    kind: 'status',
    step: /^auth\/executeAgentTask\//,
    pointer: '',
  },
  'the deployAgent result has no tokenAddress (caught with --seed-only: the description lists it)': {
    kind: 'shape',
    step: /^deploy\//,
    pointer: '/tokenAddress',
  },
  'the executeAgentTask result has no cost (caught with --seed-only: the description lists it)': {
    kind: 'shape',
    step: /^execute\//,
    pointer: '/cost',
  },
  'a documented but wrong status: tasks for an active agent are answered 409': {
    kind: 'status',
    step: /^execute\//,
    pointer: '',
  },
};

describe('the fake against itself behind each broken-server proxy', () => {
  test('every broken server has an expected divergence', () => {
    const missing = brokenServers.map(([name]) => name).filter((name) => !(name in expectedDivergence));
    expect(missing, 'add what the differential check must report for them to expectedDivergence').toEqual([]);
  });

  test.each(brokenServers)(
    '%s: diverges, named for the broken rule, and the fake is the one that follows the spec',
    async (name, { given }) => {
      const proxy = await startBreakingProxy(url(fakeB), given({ token }));
      try {
        const result = await runDiff(options(url(fakeA), proxy.url));
        const want = expectedDivergence[name];
        expect(want, `no expectation for ${name}`).toBeDefined();
        if (!want) return;
        const found = result.divergences.map((d) => ({ kind: d.kind, step: d.step, pointer: d.pointer }));
        expect(
          found.some((d) => d.kind === want.kind && want.step.test(d.step) && d.pointer === want.pointer),
          JSON.stringify(found.slice(0, 8)),
        ).toBe(true);
        // The fake is right every time: no divergence says the broken server follows the spec and the fake does not.
        expect(result.divergences.filter((d) => d.followsSpec === 'real' || d.followsSpec === 'neither')).toEqual([]);
        for (const divergence of result.divergences) {
          expect(divergence.rule.origin).toMatch(/^(seed|assumption)$/);
          expect(divergence.rule.specPointer).not.toBe('');
        }
      } finally {
        await proxy.close();
      }
    },
    60_000,
  );
});

describe('the report', () => {
  test('shows each divergence with both exchanges side by side and the spec rule with its origin', async () => {
    const priceAsString = brokenServers.find(([name]) => name.startsWith('agent price of the wrong type'))?.[1];
    const proxy = await startBreakingProxy(url(fakeB), priceAsString?.given({ token }) ?? {});
    try {
      const startedAt = new Date();
      const result = await runDiff(options(url(fakeA), proxy.url));
      const report = buildDiffReport(result, {
        fake: url(fakeA),
        real: proxy.url,
        seed: 20261123,
        readOnly: false,
        maxWrites: 1000,
        startedAt,
        durationMs: 1,
      });
      expect(report.verdict).toBe('diverged');
      const text = formatDiffReport(report, 120);
      expect(text).toContain('✗ retrieve/example-1');
      expect(text).toContain(
        'spec rule: /components/schemas/Tokenomics/properties/price/type (seed): Price of one token, in SOL.',
      );
      // Side by side: the fake's number and the real server's string on one line, split by the column bar.
      expect(text).toMatch(/\/tokenomics\/price = 0\.05\s+│ \/tokenomics\/price = "0\.05"/);
      expect(text).toMatch(/^ {4}fake\s+│ real$/m);
      // The same divergence in the other retrieves is named, not repeated.
      expect(text).toMatch(/↳ the same divergence in 43 more step\(s\): retrieve\/example-2, retrieve\/generated-1,/);
      expect(text).toContain('authorization: Bearer <API_TOKEN>');
      expect(text).not.toContain(token);
      expect(text).toMatch(/^DIVERGED: /m);
      // Values that legitimately differ are said to be each server's own, derived from the spec.
      const ignored = report.valueRules.filter((r) => !r.compared).map((r) => `${r.operationId} ${r.pointer}`);
      expect(ignored).toEqual(
        expect.arrayContaining(['deployAgent /agentId', 'deployAgent /deployedAt', 'getAgent /tokenAddress']),
      );
      const compared = report.valueRules.filter((r) => r.compared).map((r) => `${r.operationId} ${r.pointer}`);
      expect(compared).toEqual(
        expect.arrayContaining(['deployAgent /status', 'deployAgent /name', 'executeAgentTask /status']),
      );
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
