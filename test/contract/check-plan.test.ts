// The run plan: caps are honoured exactly, skips say why, the default lets every named check run once, and every
// operation of the spec gets the checks the spec gives it.
import { describe, expect, test } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { getAtPointer, openapiDocument, operations } from '../../spec/index.ts';
import { repoRoot } from '../support/spawned-server.ts';
import {
  defaultMaxWrites,
  namedChecks,
  planRun,
  readOnlySkippedAuth,
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
    // The auth checks of writing operations send a request that would succeed with a valid token: one guard only.
    const twoGuards = (id: string): boolean => id === 'request-validation/executeAgentTask/agentId-max-length';
    for (const check of namedChecks) {
      const runs = check.posts === 0 || twoGuards(check.id);
      expect(plan.decisions.get(check.id), check.id).toEqual(
        runs ? { run: true } : { run: false, reason: 'read-only' },
      );
    }
    expect(plan.decisions.get('request-validation/deployAgent/malformed-json')?.run).toBe(false);
    expect(plan.decisions.get('behaviour/executeAgentTask/unknown')?.run).toBe(false);
    expect(plan.decisions.get('auth/executeAgentTask/missing')).toEqual({ run: false, reason: 'read-only' });
    expect(plan.decisions.get('auth/getAgent/missing')).toEqual({ run: true });
    expect(readOnlySkippedAuth().length).toBeGreaterThan(0);
    for (const id of readOnlySkippedAuth())
      expect(plan.decisions.get(id), id).toEqual({ run: false, reason: 'read-only' });
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

describe('the plan is derived from the spec', () => {
  // The families the spec alone gives every operation; a behaviour check the spec states (an unknown path value answers
  // its documented 404) exists for each operation with a path parameter. Any other behaviour check is a file of its own,
  // written only for behaviour the spec cannot express (CONTRIBUTING): an operation need not have one.
  test.each([...operations.keys()])('%s has conformance, auth and reliability checks', (operationId) => {
    const families = new Set(namedChecks.filter((c) => c.operationId === operationId).map((c) => c.check));
    for (const family of ['conformance', 'auth', 'reliability'])
      expect([...families], `${operationId} has no ${family} check`).toContain(family);
  });

  test.each([...operations.values()].filter((operation) => operation.pathParameters.length > 0))(
    '$operationId, which has a path parameter, has the behaviour check of an unknown value',
    ({ operationId }) => {
      expect(namedChecks.map((check) => check.id)).toContain(`behaviour/${operationId}/unknown`);
    },
  );

  test('every check names an operation of the spec, and ids are unique', () => {
    for (const check of namedChecks) expect(operations.has(check.operationId), check.id).toBe(true);
    expect(new Set(namedChecks.map((c) => c.id)).size).toBe(namedChecks.length);
  });

  test('every operation with a body gets request-validation checks for each of its fields', () => {
    for (const operation of operations.values()) {
      if (operation.requestMediaType === undefined) continue;
      const ids = namedChecks.filter(
        (c) => c.operationId === operation.operationId && c.check === 'request-validation',
      );
      expect(ids.length, operation.operationId).toBeGreaterThan(4);
    }
  });

  test('a check that may create something says so, so --read-only skips it', () => {
    for (const check of namedChecks) {
      const method = operations.get(check.operationId)?.method;
      if (check.check === 'conformance' || check.check === 'reliability')
        expect(check.deploys + check.executes > 0, check.id).toBe(method === 'POST');
      expect(check.deploys + check.executes, check.id).toBeLessThanOrEqual(check.posts);
    }
  });
});

test('every spec pointer written out in the contract suite names a node of the document', () => {
  const dir = `${repoRoot}/contract-tests`;
  const written = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      [...readFileSync(`${dir}/${file}`, 'utf8').matchAll(/['`](\/(?:components|paths)\/[^'`$]*)['`]/g)].map(
        (match) => [file, match[1] ?? ''] as const,
      ),
    );
  expect(written.length).toBeGreaterThan(0);
  for (const [file, pointer] of written)
    expect(getAtPointer(openapiDocument, pointer), `${file}: ${pointer}`).toBeDefined();
});
