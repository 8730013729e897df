import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { describeNumberRule, parseCommandLine, readNumber } from '../../scripts/command-line.ts';

const run = promisify(execFile);
// A real entry point in its own process, since a mistake ends the process: argv arrives as it does for npm scripts.
const probe = join(mkdtempSync(join(tmpdir(), 'command-line-')), 'probe.mjs');
// The probe's folder goes with the file's tests: a run leaves nothing in the temp directory.
afterAll(() => rmSync(dirname(probe), { recursive: true, force: true }));
writeFileSync(
  probe,
  `const { parseCommandLine } = await import(${JSON.stringify(new URL('../../scripts/command-line.ts', import.meta.url).href)});\n` +
    "console.log(JSON.stringify(parseCommandLine({ port: { type: 'string' } }, { usage: 'usage: probe [--port <n>]', help: 'the help text' })));\n",
);

async function probeWith(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [probe, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('parseCommandLine', () => {
  it('returns the flags, typed from the options', () => {
    const values = parseCommandLine({ port: { type: 'string' }, quick: { type: 'boolean' } }, { usage: 'u' }, [
      '--port',
      '80',
      '--quick',
    ]);
    expect(values).toEqual({ port: '80', quick: true });
  });

  it.each([
    [
      'an unknown flag',
      {
        given: ['--nope'],
        want: {
          code: 2,
          stderr: /^agent-registry-kit: Unknown option '--nope'; usage: probe \[--port <n>\]\n$/,
          stdout: /^$/,
        },
      },
    ],
    [
      'a flag without its value',
      {
        given: ['--port'],
        want: {
          code: 2,
          stderr: /^agent-registry-kit: Option '--port <value>' argument missing; usage: probe/,
          stdout: /^$/,
        },
      },
    ],
    [
      'a positional argument',
      { given: ['extra'], want: { code: 2, stderr: /^agent-registry-kit: .*extra.*; usage: probe/, stdout: /^$/ } },
    ],
    ['--help', { given: ['--help'], want: { code: 0, stderr: /^$/, stdout: /^the help text\n$/ } }],
    ['-h', { given: ['-h'], want: { code: 0, stderr: /^$/, stdout: /^the help text\n$/ } }],
  ])('answers %s with one line and the right exit status', async (_, { given, want }) => {
    const result = await probeWith(given);
    expect(result.code).toBe(want.code);
    expect(result.stderr).toMatch(want.stderr);
    expect(result.stdout).toMatch(want.stdout);
  });
});

describe('numeric flags', () => {
  it.each([
    ['a positive number', ['2.5', { above: 0 }], 2.5],
    ['zero is not above 0', ['0', { above: 0 }], undefined],
    ['a fraction is not a whole number', ['1.5', { integer: true, min: 1 }], undefined],
    ['the upper bound is inclusive', ['3600', { above: 0, max: 3600 }], 3600],
    ['over the upper bound', ['3601', { above: 0, max: 3600 }], undefined],
    ['text', ['ten', { min: 0 }], undefined],
    ['empty text is not zero', ['', { min: 0 }], undefined],
    ['Infinity', ['Infinity', { min: 0 }], undefined],
  ] as const)('%s', (_name, [raw, rule], want) => {
    expect(readNumber(raw, rule)).toBe(want);
  });

  it.each([
    [{ integer: true, min: 1 }, 'a whole number of at least 1'],
    [{ above: 0, max: 3600 }, 'a number above 0 and at most 3600'],
    [{ integer: true, min: 0, max: 65535 }, 'a whole number from 0 to 65535'],
    [{ max: 10 }, 'a number of at most 10'],
  ] as const)('describes %j as %s', (rule, want) => {
    expect(describeNumberRule(rule)).toBe(want);
  });
});
