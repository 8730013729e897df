// The verdict and the console explanation of a run, from check records: exit 0 only when everything ran and passed,
// and each failure shows the request, the answer, the pointer, the expectation, the spec rule and its origin.
import { describe, expect, test } from 'vitest';
import { planRun } from '../../contract-tests/check-plan.ts';
import type { CheckRecord } from '../../contract-tests/check-record.ts';
import { buildReport, formatConsoleReport } from '../../contract-tests/contract-report.ts';
import type { RunOptions } from '../../contract-tests/run-options.ts';

const options: RunOptions = {
  baseUrl: 'http://127.0.0.1:1',
  token: 'not-in-any-report',
  maxWrites: 10,
  readOnly: false,
  agentId: undefined,
  seedOnly: false,
  runs: 1,
  seed: 1,
  timeoutMs: 1000,
  replay: undefined,
};
const plan = planRun({ maxWrites: 10, readOnly: false, runs: 1 });

function record(overrides: Partial<CheckRecord>): CheckRecord {
  return {
    id: 'auth/getAgent/missing',
    check: 'auth',
    operationId: 'getAgent',
    title: 'no Authorization header is rejected with 401',
    outcome: 'passed',
    skipReason: undefined,
    violations: [],
    warnings: [],
    exchanges: [],
    generated: undefined,
    ...overrides,
  };
}

const failed = record({
  outcome: 'failed',
  exchanges: [
    {
      operationId: 'getAgent',
      request: { method: 'GET', url: 'http://127.0.0.1:1/v1/agents/agt_1', headers: {}, body: undefined },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"agentId":"agt_1"}' },
      error: undefined,
      durationMs: 3,
    },
  ],
  violations: [
    {
      check: 'auth',
      rule: 'rejects-unauthenticated',
      pointer: '',
      expected: 'a 401 rejection',
      found: '200 (accepted)',
      origin: 'seed',
      specPointer: '/security',
      message: 'the request was accepted (200)',
      exchange: 0,
    },
  ],
});

describe('buildReport verdict', () => {
  test.each<[string, { given: { records: CheckRecord[]; errors: string[] }; want: 'passed' | 'failed' }]>([
    ['all passed', { given: { records: [record({})], errors: [] }, want: 'passed' }],
    ['one failed', { given: { records: [record({}), failed], errors: [] }, want: 'failed' }],
    [
      'one skipped by --max-writes',
      {
        given: { records: [record({}), record({ outcome: 'skipped', skipReason: 'max-writes' })], errors: [] },
        want: 'failed',
      },
    ],
    [
      'generated cases capped although the check passed',
      { given: { records: [record({ skipReason: 'max-writes' })], errors: [] }, want: 'failed' },
    ],
    [
      'skipped by --read-only only',
      {
        given: { records: [record({}), record({ outcome: 'skipped', skipReason: 'read-only' })], errors: [] },
        want: 'passed',
      },
    ],
    ['a suite error', { given: { records: [record({})], errors: ['boom'] }, want: 'failed' }],
    ['nothing ran', { given: { records: [], errors: [] }, want: 'failed' }],
  ])('%s', (_name, { given, want }) => {
    expect(buildReport({ ...given, options, plan, startedAt: new Date(0), durationMs: 1 }).verdict).toBe(want);
  });

  test('the report carries no token', () => {
    expect(
      JSON.stringify(
        buildReport({ records: [failed], errors: [], options, plan, startedAt: new Date(0), durationMs: 1 }),
      ),
    ).not.toContain(options.token);
  });
});

describe('formatConsoleReport', () => {
  test('explains a failure: request, answer, pointer, expectation, rule and origin', () => {
    const text = formatConsoleReport(
      buildReport({ records: [failed], errors: [], options, plan, startedAt: new Date(0), durationMs: 1 }),
    );
    for (const part of [
      'getAgent',
      '✗ auth 0/1',
      '→ GET http://127.0.0.1:1/v1/agents/agt_1',
      '← 200 application/json',
      '{"agentId":"agt_1"}',
      'at (the whole response): expected a 401 rejection, found 200 (accepted)',
      'spec /security (seed)',
      'FAILED',
    ]) {
      expect(text).toContain(part);
    }
  });
});
