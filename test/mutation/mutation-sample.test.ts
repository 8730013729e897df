// `npm test`'s share of the mutation run (stryker.config.mjs, `npm run mutation`): Stryker itself, with the project's
// config, on a small fixed sample of the fake's mutants, so the wiring (the vitest config Stryker runs, the fake started
// in the suite's worker, the mutant switched on there) cannot rot unseen. A broken wiring shows as a failed initial run
// (Stryker exits non-zero) or as sampled mutants that survive or are never reached. The sample is named by file, mutator
// and the original text, never by line: the line is found in the file at each run, so an edit above it moves nothing.
// Without the type checker and with one check file of the suite, it costs one Stryker start and a few short suite
// runs, not the full run's half hour.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';
import { repoRoot } from '../support/spawned-server.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'agent-registry-mutation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One sampled mutant kind: where (file and the code's own text, found once in it) and which of Stryker's mutators. */
interface SampledMutant {
  file: string;
  original: string;
  mutators: string[];
}

/** The sample: the branches of the task and read handlers that tell a found agent from a missing one. */
const sample: SampledMutant[] = [
  { file: 'mocks/operations/getAgent.ts', original: 'json === undefined', mutators: ['ConditionalExpression'] },
  { file: 'mocks/operations/executeAgentTask.ts', original: '!result.ok', mutators: ['BooleanLiteral'] },
];

/** The 1-based line of `text` in `file`, which must hold it exactly once (else the sample names nothing, or two places). */
function lineOf({ file, original }: SampledMutant): number {
  const source = readFileSync(join(repoRoot, file), 'utf8');
  const at = source.indexOf(original);
  expect(at, `${file} no longer holds ${original}: pick another sample`).toBeGreaterThanOrEqual(0);
  expect(source.indexOf(original, at + 1), `${file} holds ${original} twice: quote more of it`).toBe(-1);
  return source.slice(0, at).split('\n').length;
}

/** Stryker's report: each file's source and its mutants, located by 1-based line and column. */
interface Report {
  files: Record<
    string,
    {
      source: string;
      mutants: Array<{
        status: string;
        mutatorName: string;
        location: { start: { line: number; column: number }; end: { line: number; column: number } };
      }>;
    }
  >;
}

/** The text a mutant replaced, cut from the report's copy of the source. */
function originalText(source: string, { start, end }: Report['files'][string]['mutants'][number]['location']): string {
  const lines = source.split('\n');
  const offset = (at: { line: number; column: number }) =>
    lines.slice(0, at.line - 1).reduce((sum, line) => sum + line.length + 1, 0) + at.column - 1;
  return source.slice(offset(start), offset(end));
}

test('Stryker runs the contract suite against mutants of the fake, in process, and the suite kills the sample', async () => {
  const report = join(dir, 'mutation.json');
  const config = join(dir, 'stryker.sample.config.mjs');
  const mutate = sample.map((entry) => `${entry.file}:${lineOf(entry)}-${lineOf(entry)}`);
  writeFileSync(
    config,
    `import base from ${JSON.stringify(pathToFileURL(join(repoRoot, 'stryker.config.mjs')).href)};
export default { ...base, mutate: ${JSON.stringify(mutate)}, checkers: [],
  incremental: false, concurrency: 1, reporters: ['json'], jsonReporter: { fileName: ${JSON.stringify(report)} },
  tempDirName: ${JSON.stringify(join(dir, 'sandboxes'))}, testFiles: ['contract-tests/behaviour.test.ts'], logLevel: 'warn' };
`,
  );
  await run(process.execPath, [join(repoRoot, 'node_modules/@stryker-mutator/core/bin/stryker.js'), 'run', config], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 240_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const result = JSON.parse(readFileSync(report, 'utf8')) as Report;
  for (const entry of sample) {
    const file = result.files[entry.file];
    expect(file, `Stryker mutated nothing in ${entry.file}`).toBeDefined();
    if (!file) continue;
    const sampled = file.mutants
      .filter((m) => entry.mutators.includes(m.mutatorName))
      .filter((m) => originalText(file.source, m.location) === entry.original);
    expect(sampled.length, `no ${entry.mutators.join('/')} mutant of ${entry.original}`).toBeGreaterThan(0);
    expect(sampled.map((m) => `${m.mutatorName} of ${entry.original}: ${m.status}`)).toEqual(
      sampled.map((m) => `${m.mutatorName} of ${entry.original}: Killed`),
    );
  }
}, 300_000);
