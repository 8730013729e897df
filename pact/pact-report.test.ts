// What `pact verify` keeps of a hostile pact is bounded by what it read: findings past the caps are counted, not
// listed; texts are cut; the --json grows with the pact, not with the findings it makes; the screen is a few lines.
// The pacts are test/support/hostile-pact.ts's, small.
import { describe, expect, it } from 'vitest';
import { hostilePact } from '../test/support/hostile-pact.ts';
import { parsePact } from './pact-file.ts';
import {
  formatPactReport,
  MAX_LISTED_FINDINGS,
  MAX_LISTED_PER_INTERACTION,
  MAX_REPORT_TEXT,
  pactReportJson,
  verifyPact,
} from './pact-report.ts';

const verify = (text: string) => verifyPact(parsePact(text), { file: 'hostile.json', seedOnly: false });
const json = (text: string): string => [...pactReportJson(verify(text))].join('');

describe('verifyPact on hostile pacts, bounded by what it read', () => {
  it('lists at most 100 findings of an interaction and 5,000 in all, and counts every one', () => {
    // 60 agents of 200 wrong capabilities each: 12,000 findings, 6,000 under the per-interaction cap.
    const report = verify(hostilePact('wrong-items', 60 * 1_900, 60));
    const counted = report.interactions.reduce((sum, one) => sum + one.counted.findings, 0);
    const listed = report.interactions.reduce((sum, one) => sum + one.findings.length + one.warnings.length, 0);
    expect(counted).toBeGreaterThan(60 * MAX_LISTED_PER_INTERACTION);
    for (const one of report.interactions)
      expect(one.findings.length + one.warnings.length).toBeLessThanOrEqual(MAX_LISTED_PER_INTERACTION);
    expect(listed).toBe(MAX_LISTED_FINDINGS);
    expect(report.summary.seed + report.summary.assumption).toBe(counted);
    expect(report.summary.unlisted).toBe(counted - listed);
    expect(report.summary.incompatible).toBe(60);
    expect(report.verdict).toBe('incompatible');
  });

  it('cuts a finding’s texts, so a long member name is not copied into each of them', () => {
    const pact = hostilePact('long-keys', 200_000);
    const report = verify(pact);
    const [finding] = report.interactions[0]?.warnings.concat(report.interactions[0].findings) ?? [];
    expect(finding?.rule).toBe('undocumented-field');
    for (const text of [finding?.pointer, finding?.found, finding?.message])
      expect(text?.length).toBeLessThanOrEqual(MAX_REPORT_TEXT);
    expect(json(pact).length).toBeLessThan(pact.length);
  });

  it('writes a --json that grows with the pact, not with its indentation or findings, and a screen of a few lines', () => {
    const pact = hostilePact('tiny', 2 * 2 ** 20);
    const report = verify(pact);
    const written = [...pactReportJson(report)].join('');
    expect(JSON.parse(written)).toEqual(JSON.parse(JSON.stringify(report)));
    expect(written.length).toBeLessThan(3 * pact.length + MAX_LISTED_FINDINGS * 1_024);
    expect(formatPactReport(report).split('\n').length).toBeLessThan(40);
  });
});
