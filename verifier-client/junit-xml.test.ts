// The one JUnit writer: the layout CI reads, each kind of testcase, names escaped, and the optional suite attributes.
import { describe, expect, it } from 'vitest';
import { formatJUnitXml, type JUnitCase } from './junit-xml.ts';

const suite = (cases: JUnitCase[], extra: { timestamp?: string; time?: string } = {}) =>
  formatJUnitXml({
    name: 'kit <suite>',
    counts: { tests: cases.length, failures: 1, errors: 0, skipped: 0 },
    properties: [['spec', 'API "1"']],
    cases,
    ...extra,
  });

describe('formatJUnitXml', () => {
  it.each([
    { case: 'a passed case', entry: {}, lines: ['    <testcase classname="op" name="n &amp; m" time="0"/>'] },
    {
      case: 'a failure',
      entry: { failure: { message: 'bad <x>', type: 'rule', body: 'line 1\nline 2' } },
      lines: [
        '    <testcase classname="op" name="n &amp; m" time="0">',
        '      <failure message="bad &lt;x&gt;" type="rule">line 1\nline 2</failure>',
        '    </testcase>',
      ],
    },
    {
      case: 'an error',
      entry: { error: { message: 'boom', body: 'boom\nbang' } },
      lines: [
        '    <testcase classname="op" name="n &amp; m" time="0">',
        '      <error message="boom">boom\nbang</error>',
        '    </testcase>',
      ],
    },
    {
      case: 'a skip',
      entry: { skipped: 'not HTTP' },
      lines: [
        '    <testcase classname="op" name="n &amp; m" time="0">',
        '      <skipped message="not HTTP"/>',
        '    </testcase>',
      ],
    },
    {
      case: 'a failure with a system-out after it',
      entry: { failure: { message: 'm', type: 't', body: 'b' }, systemOut: 'warning: w' },
      lines: [
        '    <testcase classname="op" name="n &amp; m" time="0">',
        '      <failure message="m" type="t">b</failure>',
        '      <system-out>warning: w</system-out>',
        '    </testcase>',
      ],
    },
  ])('writes $case', ({ entry, lines }) => {
    const xml = suite([{ classname: 'op', name: 'n & m', time: '0', ...entry }]);
    expect(xml).toContain(`    </properties>\n${lines.join('\n')}\n  </testsuite>`);
  });

  it('writes the suite header, with a timestamp and a time only when given', () => {
    const bare = suite([]).split('\n');
    expect(bare.slice(0, 5)).toEqual([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites name="kit &lt;suite&gt;" tests="0" failures="1" errors="0" skipped="0">',
      '  <testsuite name="kit &lt;suite&gt;" tests="0" failures="1" errors="0" skipped="0">',
      '    <properties>',
      '      <property name="spec" value="API &quot;1&quot;"/>',
    ]);
    expect(bare.slice(-3)).toEqual(['  </testsuite>', '</testsuites>', '']);
    const timed = suite([], { timestamp: '2026-01-01T00:00:00Z', time: '1.234' }).split('\n');
    expect(timed[2]).toBe(
      '  <testsuite name="kit &lt;suite&gt;" timestamp="2026-01-01T00:00:00Z" tests="0" failures="1" errors="0" skipped="0" time="1.234">',
    );
  });
});
