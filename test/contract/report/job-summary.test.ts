// The Markdown job summary (`contract --summary FILE`), as the reporter appends it: the verdict, a row for every
// operation of the spec (one the run did not check included), the first failures with their pointers, a server's
// bytes rendered as text, and the token in none of its writings.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestModule } from 'vitest/node';
import { afterEach, describe, expect, it } from 'vitest';
import { operations } from '../../../spec/index.ts';
import type { CheckRecord } from '../../../verifier-client/check-record.ts';
import { createRedactor } from '../../../verifier-client/redaction.ts';
import { planRun } from '../../../contract-tests/check-plan.ts';
import { ContractReporter } from '../../../contract-tests/report/contract-reporter.ts';
import type { RunOptions } from '../../../contract-tests/run-options.ts';

// A JWT whose segments hold `-` and `_`, which Markdown escaping would split if it came before the redactor.
const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhLWJfYy1kX2UifQ.s1g-n4tu_re-p4rt_0f-th3_t0k3n';
const options: RunOptions = {
  baseUrl: 'http://127.0.0.1:1',
  token,
  maxWrites: 10,
  readOnly: false,
  agentId: undefined,
  seedOnly: false,
  runs: 1,
  seed: 7,
  timeoutMs: 1000,
  replay: undefined,
};
const [checked, second, ...rest] = [...operations.keys()];
const unchecked = rest.at(-1) ?? second ?? '';
const hostile = `${token} | ![x](https://evil.example/p.png) <img src=x onerror=alert(1)> @team\n# heading`;

function record(id: number, overrides: Partial<CheckRecord> = {}): CheckRecord {
  return {
    id: `auth/${checked}/case-${id}`,
    check: 'auth',
    operationId: checked ?? '',
    title: 'a check',
    outcome: 'passed',
    skipReason: undefined,
    violations: [],
    warnings: [],
    exchanges: [],
    generated: undefined,
    ...overrides,
  };
}

function failing(id: number, found: string): CheckRecord {
  return record(id, {
    outcome: 'failed',
    violations: [
      {
        check: 'auth',
        rule: 'rejects-unauthenticated',
        pointer: `/detail/${id}`,
        expected: 'a 401 rejection',
        found,
        origin: 'seed',
        specPointer: '/security',
        message: `the request was accepted (200): ${found}`,
        exchange: undefined,
      },
    ],
  });
}

/** The summary the reporter appends for `records`, as a vitest run would hand them over. */
function summaryOf(records: CheckRecord[], file: string): string {
  const modules = [
    {
      moduleId: 'contract-tests/auth.test.ts',
      errors: () => [],
      children: {
        allTests: () =>
          records.map((contract) => ({
            meta: () => ({ contract }),
            result: () => ({ state: contract.outcome === 'failed' ? 'failed' : 'passed', errors: [] }),
            fullName: contract.id,
          })),
      },
    },
  ] as unknown as TestModule[];
  const reporter = new ContractReporter({
    options,
    plan: planRun({ maxWrites: 10, readOnly: false, runs: 1 }),
    redact: createRedactor(token),
    jsonFile: undefined,
    summaryFile: file,
    write: () => {},
  });
  reporter.onTestRunEnd(modules, []);
  return readFileSync(file, 'utf8');
}

let work = '';
afterEach(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true });
});
const fileIn = (): string => {
  work = mkdtempSync(join(tmpdir(), 'job-summary-'));
  return join(work, 'summary.md');
};

describe('contract --summary', () => {
  it('names every operation of the spec in its table, one without checks too, under the verdict', () => {
    const summary = summaryOf([record(1), record(2)], fileIn());
    expect(summary).toMatch(/^### agent-registry-kit contract: ✅ PASSED$/m);
    expect(summary).toMatch(/^\*\*2 passed, 0 failed, 0 skipped, 0 warning\(s\)\*\*/m);
    const rows = summary.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| operation'));
    expect(rows.map((row) => row.split(' | ')[0]?.slice(2))).toEqual([...operations.keys()]);
    expect(rows.find((row) => row.startsWith(`| ${checked} `))).toMatch(/\| ✅ 2\/2 \| – \| ✅ 2\/2 \|/);
    expect(rows.find((row) => row.startsWith(`| ${unchecked} `))).toMatch(/^(\| [^|]+){2}(\| – ){7}\|$/);
  });

  it('lists the first ten failures with their pointers, counts the rest, and renders a server’s bytes as text', () => {
    const failures = Array.from({ length: 12 }, (_, index) => failing(index, hostile));
    const summary = summaryOf(failures, fileIn());
    expect(summary).toMatch(/^### agent-registry-kit contract: ❌ FAILED$/m);
    expect(summary).toContain('#### First 10 of 12 failures');
    const items = summary.split('\n').filter((line) => line.startsWith('- '));
    expect(items).toHaveLength(11);
    expect(items[0]).toContain('at /detail/0: expected a 401 rejection, found');
    expect(items.at(-1)).toBe('- … and 2 more: every one is in the --junit and --json reports');
    // Nothing of the server's text is markup: no table break, image, tag, mention or heading of its own.
    for (const item of items.slice(0, 10)) {
      expect(item).not.toMatch(/(^|[^\\])[|![<@#]/);
      expect(item).toContain('&lt;img src\\=x onerror\\=alert\\(1\\)&gt;');
    }
  });

  it('has the token in none of its writings, and appends to what the file held', () => {
    const file = fileIn();
    summaryOf([failing(1, hostile)], file);
    const summary = summaryOf([failing(2, `${token.split('.')[2]} ${token}`)], file);
    expect(summary.match(/^### agent-registry-kit contract/gm)).toHaveLength(2);
    for (const part of [token, ...token.split('.')]) expect(summary).not.toContain(part);
    expect(summary).toContain('&lt;redacted&gt;');
  });
});
