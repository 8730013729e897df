// The verdict, the console explanation and the JUnit of a run, from check records: exit 0 only when everything ran and
// passed; each failure shows the request, the answer, the pointer, the expectation, the spec rule and its origin, once
// however many checks found it; a common cause of all answers is named first; the whole fits one screen.
import { describe, expect, test } from 'vitest';
import { planRun } from '../../contract-tests/check-plan.ts';
import type { CheckRecord, CheckViolation, RecordedExchange } from '../../verifier-client/check-record.ts';
import { diagnose } from '../../verifier-client/answer-diagnosis.ts';
import { buildReport, formatConsoleReport, type ReportSection } from '../../contract-tests/report/contract-report.ts';
import { formatJUnit, junitSuiteName } from '../../contract-tests/report/junit-report.ts';
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

const report = (records: CheckRecord[], errors: string[] = []) =>
  buildReport({ records, errors, options, plan, startedAt: new Date(0), durationMs: 1 });

describe('formatConsoleReport', () => {
  test('explains a failure: request, answer, pointer, expectation, rule and origin', () => {
    const text = formatConsoleReport(report([failed]));
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

  test('shows a violation that many checks found once, with a count and the checks', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ ...failed, id: `auth/getAgent/variant-${i}` }));
    const text = formatConsoleReport(report(many));
    expect(text.split('the request was accepted (200)')).toHaveLength(2);
    expect(text).toContain('× 40 in 40 check(s)');
    expect(text).toContain('seen in auth/getAgent/variant-0, auth/getAgent/variant-1 and 38 more');
  });

  test('fits one screen however many distinct violations there are, and ends with the summary and verdict', () => {
    const distinct = Array.from({ length: 200 }, (_, i) =>
      record({
        id: `auth/getAgent/v${i}`,
        outcome: 'failed',
        exchanges: failed.exchanges,
        violations: [{ ...(failed.violations[0] as CheckViolation), found: `${i}`, message: `distinct ${i}` }],
      }),
    );
    const lines = formatConsoleReport(report(distinct)).trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(45);
    expect(lines.at(-2)).toMatch(/^getAgent +✗ auth 0\/200$/);
    expect(lines.at(-1)).toMatch(/^FAILED: 0 passed, 200 failed/);
    // Every distinct violation is either shown (one line at least) or counted in the last line of the failures.
    const shown = lines.filter((line) => line.startsWith('✗ [auth] distinct ')).length;
    const rest = Number(
      /^… and (\d+) more distinct violation\(s\)/.exec(lines.find((l) => l.startsWith('… and')) ?? '')?.[1],
    );
    expect(shown + rest).toBe(200);
  });

  test('prints the diagnosis first, and added sections before the summary', () => {
    const section: ReportSection = { name: 'coverage', consoleLines: () => ['coverage: 3 of 5 statuses seen'] };
    const sameAnswers = Array.from({ length: 6 }, (_, i) => ({ ...failed, id: `auth/getAgent/v${i}` }));
    const lines = formatConsoleReport(report(sameAnswers), [section]).split('\n');
    expect(lines[0]).toMatch(/^Diagnosis: Every answer \(6 of 6\) was the same, 200 application\/json/);
    expect(lines.findIndex((l) => l.startsWith('✗'))).toBeGreaterThan(0);
    expect(lines.indexOf('coverage: 3 of 5 statuses seen')).toBeLessThan(
      lines.findIndex((l) => l.startsWith('getAgent')),
    );
  });
});

function exchange(status: number, body: string, contentType = 'application/json'): RecordedExchange {
  return {
    operationId: 'getAgent',
    request: { method: 'GET', url: 'http://127.0.0.1:1/v1/agents/x', headers: {}, body: undefined },
    response: { status, headers: { 'content-type': contentType }, body },
    error: undefined,
    durationMs: 1,
  };
}

describe('diagnose', () => {
  const six = (make: (i: number) => RecordedExchange) => [
    record({ exchanges: Array.from({ length: 6 }, (_, i) => make(i)) }),
  ];
  test.each<[string, { given: CheckRecord[]; want: RegExp | undefined }]>([
    [
      'every answer identical',
      {
        given: six(() => exchange(200, '{}')),
        want: /^Every answer \(6 of 6\) was the same, 200 application\/json \{\}/,
      },
    ],
    [
      'every answer 404',
      {
        given: six((i) => exchange(404, `nothing at ${i}`, 'text/plain')),
        want: /^Every answer \(6 of 6\) was 404: is API_BASE_URL/,
      },
    ],
    [
      'every answer 401',
      { given: six((i) => exchange(401, `no ${i}`)), want: /^Every answer \(6 of 6\) was 401, also with API_TOKEN/ },
    ],
    [
      'HTML pages',
      { given: six((i) => exchange(200, `<!doctype html><p>${i}`, 'text/html')), want: /was an HTML page, not JSON/ },
    ],
    [
      'no answer at all',
      {
        given: [
          record({
            exchanges: Array.from({ length: 6 }, () => ({
              ...exchange(200, ''),
              response: undefined,
              error: 'ECONNREFUSED',
            })),
          }),
        ],
        want: /^No request got an answer/,
      },
    ],
    ['answers that differ', { given: six((i) => exchange(i % 2 === 0 ? 200 : 404, `${i}`)), want: undefined }],
    ['too few answers to tell', { given: [record({ exchanges: [exchange(404, '')] })], want: undefined }],
  ])('%s', (_name, { given, want }) => {
    const lines = diagnose(given);
    if (want === undefined) expect(lines).toEqual([]);
    else expect(lines[0]).toMatch(want);
  });
});

describe('formatJUnit', () => {
  const passed = record({ id: 'conformance/deployAgent/201', check: 'conformance', operationId: 'deployAgent' });
  const xml = formatJUnit(
    report([passed, { ...failed, violations: [...failed.violations, ...failed.violations] }], ['boom <x>']),
    [{ name: 'coverage', consoleLines: () => [], junitProperties: () => [['coverage', '3/5']] }],
  );

  test('one suite named after the kit, each case classed by its operation', () => {
    expect(xml).toContain(`<testsuites name="${junitSuiteName}"`);
    expect(xml).toContain(`<testsuite name="${junitSuiteName}"`);
    expect(xml).toContain('<testcase classname="deployAgent" name="conformance:');
    expect(xml).toContain(
      '<testcase classname="getAgent" name="auth: no Authorization header is rejected with 401 [auth/getAgent/missing]"',
    );
  });

  test('a failure has a one-line message (the first violation) and the explanation in its body', () => {
    const failure = /<failure message="([^"]*)" type="([^"]*)">([^<]*)<\/failure>/.exec(xml);
    expect(failure?.[1]).toBe('the request was accepted (200) (+1 more)');
    expect(failure?.[2]).toBe('rejects-unauthenticated');
    expect(failure?.[3]).toContain('→ GET http://127.0.0.1:1/v1/agents/agt_1');
    expect(failure?.[3]).toContain('{&quot;agentId&quot;:&quot;agt_1&quot;}');
  });

  test('suite errors are error cases, and sections add properties', () => {
    expect(xml).toContain('<error message="boom &lt;x&gt;">');
    expect(xml).toContain('<property name="coverage" value="3/5"/>');
    expect(xml).toMatch(/<testsuites [^>]*tests="3" failures="1" errors="1"/);
  });
});
