// The run plan: caps are honoured exactly, skips say why, and the default lets every named check run once.
import { describe, expect, test } from 'vitest';
import {
  defaultMaxWrites,
  namedChecks,
  planRun,
  shrinkAllowance,
  type PlanInput,
} from '../../contract-tests/check-plan.ts';

describe('planRun', () => {
  test.each<
    [string, { given: PlanInput; want: { skippedByCap: 'none' | 'some'; maxPosts: number; deploys?: number } }]
  >([
    [
      'the default runs every named check and every generated case',
      {
        given: { maxWrites: undefined, readOnly: false, runs: 25 },
        want: { skippedByCap: 'none', maxPosts: defaultMaxWrites(false, 25) },
      },
    ],
    [
      'a cap of 12 runs what fits and skips the rest',
      { given: { maxWrites: 12, readOnly: false, runs: 25 }, want: { skippedByCap: 'some', maxPosts: 12 } },
    ],
    [
      'a cap of 0 sends no POST at all',
      { given: { maxWrites: 0, readOnly: false, runs: 25 }, want: { skippedByCap: 'some', maxPosts: 0, deploys: 0 } },
    ],
    [
      'read-only deploys and submits nothing',
      {
        given: { maxWrites: undefined, readOnly: true, runs: 25 },
        want: { skippedByCap: 'none', maxPosts: defaultMaxWrites(true, 25), deploys: 0 },
      },
    ],
  ])('%s', (_name, { given, want }) => {
    const plan = planRun(given);
    const capped =
      [...plan.decisions.values()].filter((d) => !d.run && d.reason === 'max-writes').length +
      [...plan.generated.values()].filter((g) => g.skip === 'max-writes').length;
    expect(capped > 0 ? 'some' : 'none').toBe(want.skippedByCap);
    expect(plan.totals.posts).toBeLessThanOrEqual(want.maxPosts);
    let posts = 0;
    for (const check of namedChecks) if (plan.decisions.get(check.id)?.run) posts += check.posts;
    for (const [id, decision] of plan.decisions) if (id.startsWith('fixture/') && decision.run) posts += 1;
    for (const generated of plan.generated.values()) posts += generated.runs;
    expect(posts + plan.shrinkBudget).toBeLessThanOrEqual(want.maxPosts);
    if (want.deploys !== undefined) expect(plan.totals.deploys).toBe(want.deploys);
  });

  test('the default leaves the shrink allowance and nothing else', () => {
    expect(planRun({ maxWrites: undefined, readOnly: false, runs: 10 }).shrinkBudget).toBe(shrinkAllowance);
  });

  test('read-only sends only GETs and POSTs that two guards reject, and says why it skips the rest', () => {
    const plan = planRun({ maxWrites: undefined, readOnly: true, runs: 5 });
    const twoGuards = (id: string): boolean =>
      id.startsWith('auth/') || id === 'request-validation/executeAgentTask/agentId-max-length';
    for (const check of namedChecks) {
      const runs = check.posts === 0 || twoGuards(check.id);
      expect(plan.decisions.get(check.id), check.id).toEqual(
        runs ? { run: true } : { run: false, reason: 'read-only' },
      );
    }
    expect(plan.decisions.get('request-validation/deployAgent/malformed-json')?.run).toBe(false);
    expect(plan.decisions.get('behaviour/executeAgentTask/unknown')?.run).toBe(false);
    for (const generated of plan.generated.values())
      expect(generated).toEqual({ runs: 0, requested: 5, skip: 'read-only' });
    expect(plan.totals.deploys + plan.totals.executes).toBe(0);
    // The cap is exactly the doubly guarded POSTs: no room for shrinking what read-only never generates.
    expect(plan.shrinkBudget).toBe(0);
  });

  test('checks on a fixture agent are capped with their fixture', () => {
    const plan = planRun({ maxWrites: 0, readOnly: false, runs: 5 });
    expect(plan.decisions.get('conformance/getAgent/200')).toEqual({ run: false, reason: 'max-writes' });
    expect(plan.decisions.get('behaviour/getAgent/unknown')).toEqual({ run: true });
  });
});
