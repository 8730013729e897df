// mocks/ in floors (.dependency-cruiser.cjs states them): no two sub-folders of mocks/ import each other both ways, and
// dependency-cruiser refuses an import from the domain floor up into a room above it. The pairs that still cross
// both ways would be listed here and may only shrink: none is left, a new pair fails, and so would a listed pair that
// no longer crosses (take it off the list). The rules of .dependency-cruiser.cjs refuse the pairs that were
// (package-entries-are-imported-by-no-room, core-knows-no-control-plane).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const depcruise = join(root, 'node_modules/.bin/depcruise');

/** The pairs of mocks/ sub-folders that still import each other both ways, each as "lower ↔ upper". */
const TWO_WAY_PAIRS_LEFT: readonly string[] = [];

interface CruiseOutput {
  modules: { source: string; dependencies: { resolved: string }[] }[];
  summary: { violations: { rule: { name: string }; from: string; to: string }[] };
}

/**
 * The pairs of sub-folders of `folder` whose code (tests aside) imports each other both ways, sorted.
 * @example twoWayPairs(output, 'mocks'); // ['core ↔ state'] when mocks/core/ and mocks/state/ import each other
 */
function twoWayPairs(output: CruiseOutput, folder: string): string[] {
  const room = (path: string) => new RegExp(`^${folder}/([^/]+)/`).exec(path)?.[1];
  const arrows = new Set<string>();
  for (const module of output.modules) {
    const from = room(module.source);
    if (from === undefined || module.source.endsWith('.test.ts')) continue;
    for (const dependency of module.dependencies) {
      const to = room(dependency.resolved);
      if (to !== undefined && to !== from) arrows.add(`${from}→${to}`);
    }
  }
  const pairs = [...arrows].map((arrow) => arrow.split('→') as [string, string]);
  return pairs
    .filter(([from, to]) => from < to && arrows.has(`${to}→${from}`))
    .map(([from, to]) => `${from} ↔ ${to}`)
    .sort();
}

/** dependency-cruiser's JSON output for `paths`, run in `cwd` with the repository's rule file (or `config`). */
function cruise(cwd: string, paths: string[], config = join(root, '.dependency-cruiser.cjs')): CruiseOutput {
  const args = ['--config', config, '--output-type', 'json', ...paths];
  try {
    return JSON.parse(execFileSync(depcruise, args, { cwd, encoding: 'utf8' })) as CruiseOutput;
  } catch (error) {
    // depcruise exits non-zero when a rule is broken; its JSON is on stdout all the same.
    const stdout = (error as { stdout?: string }).stdout;
    if (stdout === undefined || stdout === '') throw error;
    return JSON.parse(stdout) as CruiseOutput;
  }
}

describe('the floors of mocks/', () => {
  it('leave no new pair of sub-folders importing each other both ways, and the list of those left only shrinks', () => {
    const output = cruise(root, ['mocks']);
    expect(output.modules.length).toBeGreaterThan(100);
    expect(twoWayPairs(output, 'mocks')).toEqual(TWO_WAY_PAIRS_LEFT);
  });

  it('count a pair once, only when both directions cross, tests aside', () => {
    const module = (source: string, ...to: string[]) => ({
      source,
      dependencies: to.map((resolved) => ({ resolved })),
    });
    const output: CruiseOutput = {
      modules: [
        module('m/a/x.ts', 'm/b/y.ts', 'm/c/z.ts'),
        module('m/b/y.ts', 'm/a/x.ts'),
        module('m/c/z.test.ts', 'm/a/x.ts'),
        module('m/c/z.ts', 'm/c/w.ts'),
      ],
      summary: { violations: [] },
    };
    expect(twoWayPairs(output, 'm')).toEqual(['a ↔ b']);
  });

  describe('refuse an import up from the domain', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'mocks-floors-'));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    it('naming the rule that forbids it', () => {
      // A scratch repository with the real rule file: a domain module importing the core, and the core module.
      copyFileSync(join(root, '.dependency-cruiser.cjs'), join(scratch, '.dependency-cruiser.cjs'));
      writeFileSync(
        join(scratch, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true } }),
      );
      mkdirSync(join(scratch, 'mocks/domain'), { recursive: true });
      mkdirSync(join(scratch, 'mocks/core'), { recursive: true });
      writeFileSync(join(scratch, 'mocks/core/answer.ts'), 'export const answer = 42;\n');
      writeFileSync(
        join(scratch, 'mocks/domain/up.ts'),
        "import { answer } from '../core/answer.ts';\nexport const up = answer;\n",
      );
      const output = cruise(scratch, ['mocks'], join(scratch, '.dependency-cruiser.cjs'));
      expect(output.summary.violations.map(({ rule, from, to }) => [rule.name, from, to])).toEqual([
        ['domain-is-the-bottom-floor', 'mocks/domain/up.ts', 'mocks/core/answer.ts'],
      ]);
    });
  });
});
