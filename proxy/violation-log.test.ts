// The violation log: one group per distinct violation, one printed line when new and at 10, 100…, server text escaped.
import { describe, expect, it } from 'vitest';
import type { ProxyViolation } from './exchange-check.ts';
import { formatViolationLine, ViolationLog } from './violation-log.ts';

const violation = (found: string): ProxyViolation => ({
  part: 'response',
  check: 'conformance',
  operationId: 'getAgent',
  method: 'GET',
  path: '/v1/agents/{agentId}',
  status: 200,
  rule: 'body-schema',
  pointer: '/name',
  expected: 'type string',
  found,
  origin: 'seed',
  specPointer: '/components/schemas/Agent/properties/name/type',
  message: '/name must be a string',
});

describe('ViolationLog', () => {
  it('groups by rule and place, counts the values, and prints a line when new and at 10 and 100', () => {
    const lines: string[] = [];
    const log = new ViolationLog((line) => lines.push(line));
    for (let i = 0; i < 100; i += 1) log.add([violation('1')], new Date(Date.UTC(2026, 0, 1, 0, 0, i % 60)));
    log.add([violation('2')], new Date());
    log.add([{ ...violation('3'), pointer: '/description' }], new Date());
    const report = log.report();
    expect(report.total).toBe(102);
    expect(report.groups.map((group) => group.count)).toEqual([101, 1]);
    expect(report.groups[0]?.values).toEqual([
      { found: '1', count: 100 },
      { found: '2', count: 1 },
    ]);
    expect(report.groups[0]?.examples).toHaveLength(1);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/\(seen 10 times\)$/);
    expect(lines[2]).toMatch(/\(seen 100 times\)$/);
    log.clear();
    expect(log.report()).toEqual({ total: 0, dropped: 0, groups: [] });
  });

  it('keeps every kind visible: a flood of one rule, at many values and places, evicts no other rule', () => {
    const log = new ViolationLog();
    // 1,010 answers that are not JSON, each different: one group, ten values counted apart, the rest together.
    for (let i = 0; i < 1010; i += 1)
      log.add([{ ...violation(`"<html>${i}"`), rule: 'body-is-json', pointer: '' }], new Date());
    // Undocumented members at 150 places: the rule's own cap drops its extra places only.
    for (let i = 0; i < 150; i += 1) log.add([{ ...violation('x'), pointer: `/extra${i}` }], new Date());
    log.add([{ ...violation('"a"'), rule: 'retrieve-agrees-with-deploy', pointer: '/name' }], new Date());
    const report = log.report();
    const json = report.groups.find((group) => group.violation.rule === 'body-is-json');
    expect(json?.count).toBe(1010);
    expect(json?.values).toHaveLength(10);
    expect(json?.otherValues).toBe(1000);
    expect(report.groups.filter((group) => group.violation.rule === 'body-schema')).toHaveLength(100);
    expect(report.dropped).toBe(50);
    expect(report.groups.map((group) => group.violation.rule)).toContain('retrieve-agrees-with-deploy');
  });

  it('escapes what the server sent before it reaches the terminal', () => {
    const line = formatViolationLine(violation('"\u001b]0;pwned\u0007\u202e"'), 1);
    for (const raw of ['\u001b', '\u0007', '\u202e']) expect(line).not.toContain(raw);
    expect(line).toContain('\\x1b]0;pwned\\x07');
    expect(line).toBe(
      '✗ [conformance] GET /v1/agents/{agentId} → 200 body-schema at /name: /name must be a string; expected type string, found "\\x1b]0;pwned\\x07\\u202e" (spec /components/schemas/Agent/properties/name/type, seed)',
    );
  });
});
