// The house ceiling: no function over 120 lines in the repository's own TypeScript (generated files excepted).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { longFunctions } from './function-length.ts';

const CEILING = 120;

function body(lines: number): string {
  return Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');
}

describe('the 120-line ceiling', () => {
  it.each([
    { case: 'a function of 121 lines', source: `function long() {\n${body(121)}\n}`, found: ['long 121'] },
    { case: 'a function of 120 lines', source: `function fits() {\n${body(120)}\n}`, found: [] },
    {
      case: 'an arrow function of 121 lines',
      source: `const f = () => {\n${body(121)}\n};`,
      found: ['(anonymous) 121'],
    },
    { case: 'a describe callback of 121 lines', source: `describe('x', () => {\n${body(121)}\n});`, found: [] },
    {
      case: 'a test inside describe of 121 lines',
      source: `describe.skipIf(false)('x', () => {\n it('y', () => {\n${body(121)}\n});\n});`,
      found: ['(anonymous) 121'],
    },
  ])('finds $case: $found', ({ source, found }) => {
    expect(longFunctions('fixture.ts', source, CEILING).map((f) => `${f.name} ${f.lines}`)).toEqual(found);
  });

  it('holds for every tracked TypeScript file', () => {
    const files = execFileSync('git', ['ls-files', '*.ts'], { encoding: 'utf8' })
      .split('\n')
      .filter((file) => file !== '' && !file.includes('.generated.'));
    const long = files.flatMap((file) => longFunctions(file, readFileSync(file, 'utf8'), CEILING));
    expect(long.map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`)).toEqual([]);
  });
});
