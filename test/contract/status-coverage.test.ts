// Status coverage of a contract run, from recorded exchanges: documented pairs seen and never provoked, undocumented
// statuses apart, and the same figures in the console lines, the report and JUnit properties.
import { describe, expect, test } from 'vitest';
import { planRun } from '../../contract-tests/check-plan.ts';
import type { CheckRecord, RecordedExchange } from '../../verifier-client/check-record.ts';
import { buildReport, formatConsoleReport } from '../../contract-tests/report/contract-report.ts';
import { formatJUnit } from '../../contract-tests/report/junit-report.ts';
import { statusCoverage, statusCoverageLines } from '../../contract-tests/report/status-coverage.ts';
import { statusCoverageSection } from '../../contract-tests/report/status-coverage-section.ts';
import { operations } from '../../spec/index.ts';

function exchange(operationId: string, status: number | undefined): RecordedExchange {
  return {
    operationId,
    request: { method: 'GET', url: 'http://127.0.0.1:1/v1/agents/x', headers: {}, body: undefined },
    response: status === undefined ? undefined : { status, headers: {}, body: '' },
    error: status === undefined ? 'no answer' : undefined,
    durationMs: 1,
  };
}

function record(exchanges: RecordedExchange[]): CheckRecord {
  return {
    id: 'conformance/getAgent/x',
    check: 'conformance',
    operationId: 'getAgent',
    title: 't',
    outcome: 'passed',
    skipReason: undefined,
    violations: [],
    warnings: [],
    exchanges,
    generated: undefined,
  };
}

const documentedPairs = [...operations.values()].reduce((sum, operation) => sum + operation.responses.size, 0);

describe('statusCoverage', () => {
  test.each([
    { name: 'no exchanges', exchanges: [], seen: [], undocumented: [] },
    {
      name: 'repeats counted once per pair, across checks',
      exchanges: [exchange('getAgent', 200), exchange('getAgent', 200), exchange('deployAgent', 201)],
      seen: [
        { operationId: 'deployAgent', status: 201, count: 1 },
        { operationId: 'getAgent', status: 200, count: 2 },
      ],
      undocumented: [],
    },
    {
      name: 'an undocumented status is apart and does not count',
      exchanges: [exchange('getAgent', 302), exchange('executeAgentTask', 409)],
      seen: [{ operationId: 'executeAgentTask', status: 409, count: 1 }],
      undocumented: [{ operationId: 'getAgent', status: 302, count: 1 }],
    },
    {
      name: 'an exchange without an answer is not a status',
      exchanges: [exchange('getAgent', undefined)],
      seen: [],
      undocumented: [],
    },
  ])('$name', ({ exchanges, seen, undocumented }) => {
    const coverage = statusCoverage([record(exchanges.slice(0, 1)), record(exchanges.slice(1))]);
    const byOperationOrder = (a: { operationId: string }, b: { operationId: string }): number =>
      [...operations.keys()].indexOf(a.operationId as never) - [...operations.keys()].indexOf(b.operationId as never);
    expect(coverage.seen).toEqual([...seen].sort(byOperationOrder));
    expect(coverage.undocumented).toEqual(undocumented);
    expect(coverage.neverSeen).toHaveLength(documentedPairs - seen.length);
    expect(coverage.percent).toBe(Math.round((seen.length / documentedPairs) * 1000) / 10);
  });

  test('the console lines, the report and the JUnit properties say the same', () => {
    const records = [record([exchange('getAgent', 404), exchange('getAgent', 418)])];
    const coverage = statusCoverage(records);
    const lines = statusCoverageLines(coverage);
    expect(lines[0]).toBe(
      `status coverage ${coverage.percent.toFixed(1)}%: 1 of ${documentedPairs} documented (operation, status) pairs answered by the server`,
    );
    expect(lines[1]).toBe('  seen: getAgent 404 ×1');
    // In the spec's operation order, whatever it is; getAgent's documented statuses but the one answered.
    const getAgentRest = [...(operations.get('getAgent')?.responses.keys() ?? [])].filter((status) => status !== 404);
    expect(lines[2]?.startsWith(`  never provoked: ${[...operations.keys()][0]} `), lines[2]).toBe(true);
    expect(lines[2]).toContain(`getAgent ${getAgentRest.join(', ')}`);
    expect(lines[3]).toBe('  undocumented statuses answered: getAgent 418 ×1');

    const report = buildReport({
      records,
      errors: [],
      options: {
        baseUrl: 'http://127.0.0.1:1',
        token: 't',
        maxWrites: 1,
        readOnly: false,
        agentId: undefined,
        seedOnly: false,
        runs: 1,
        seed: 1,
        timeoutMs: 1,
        replay: undefined,
      },
      plan: planRun({ maxWrites: 1, readOnly: false, runs: 1 }),
      startedAt: new Date(0),
      durationMs: 1,
    });
    expect(report.statusCoverage).toEqual(coverage);
    expect(formatConsoleReport(report, [statusCoverageSection])).toContain(lines.join('\n'));
    expect(formatConsoleReport(report)).not.toContain('status coverage');

    const xml = formatJUnit(report, [statusCoverageSection]);
    expect(xml).toContain(`<property name="statusCoverage.percent" value="${coverage.percent.toFixed(1)}"/>`);
    expect(xml).toContain('<property name="statusCoverage.seen" value="getAgent 404 ×1"/>');
    expect(xml).toContain('<property name="statusCoverage.undocumented" value="getAgent 418 ×1"/>');
    expect(xml).toContain(
      `<property name="statusCoverage.neverSeen" value="${lines[2]?.slice('  never provoked: '.length)}"/>`,
    );
  });
});
