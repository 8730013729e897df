// The house ceiling for a file: no non-generated source file (.ts, .tsx, .mts, .mjs, .cjs, tests included) over 400
// lines. Past that a file holds several concerns a newcomer can no longer name in one phrase, and it wants splitting
// by concern (the function ceiling is function-length.test.ts). The files still over it are listed with the length
// they have now: each may only shrink, a new one fails, and a listed one back under the ceiling must leave the list.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const CEILING = 400;

/** The files still over the ceiling, each with the most lines it may have until it is split. */
const OVER_THE_CEILING: Readonly<Record<string, number>> = {
  // To split by concern.
};

/**
 * How each source file breaks the ceiling: over it and unlisted, over its listed length, or listed but under it.
 * @example ceilingBreaches({ 'a.ts': 401, 'b.ts': 10 }, {}, 400); // ['a.ts: 401 lines, over 400']
 */
function ceilingBreaches(
  lengths: Readonly<Record<string, number>>,
  allowed: Readonly<Record<string, number>>,
  ceiling: number,
): string[] {
  const breaches: string[] = [];
  for (const [file, lines] of Object.entries(lengths)) {
    const most = allowed[file];
    if (most === undefined && lines > ceiling) breaches.push(`${file}: ${lines} lines, over ${ceiling}`);
    if (most !== undefined && lines > most) breaches.push(`${file}: ${lines} lines, more than the ${most} it may keep`);
    if (most !== undefined && lines <= ceiling)
      breaches.push(`${file}: ${lines} lines, back under ${ceiling}: unlist it`);
  }
  for (const file of Object.keys(allowed)) if (!(file in lengths)) breaches.push(`${file}: listed but gone: unlist it`);
  return breaches.sort();
}

/** Lines of a text as `wc -l` counts them (its newlines). */
const lineCount = (text: string): number => text.split('\n').length - 1;

describe(`the ${CEILING}-line ceiling of a file`, () => {
  it('holds for every source file but those listed, and each listed one only shrinks', () => {
    const files = execFileSync('git', ['ls-files', '*.ts', '*.tsx', '*.mts', '*.mjs', '*.cjs'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((file) => file !== '' && !file.includes('.generated.'));
    expect(files.length).toBeGreaterThan(300);
    const lengths = Object.fromEntries(files.map((file) => [file, lineCount(readFileSync(join(root, file), 'utf8'))]));
    expect(ceilingBreaches(lengths, OVER_THE_CEILING, CEILING)).toEqual([]);
  });

  it('tells an unlisted file over it, a listed one that grew, one back under it and one gone', () => {
    const lengths = { 'new.ts': 401, 'fits.ts': 400, 'grew.ts': 452, 'split.ts': 300, 'kept.ts': 450 };
    const allowed = { 'grew.ts': 450, 'split.ts': 500, 'kept.ts': 450, 'gone.ts': 410 };
    expect(ceilingBreaches(lengths, allowed, 400)).toEqual([
      'gone.ts: listed but gone: unlist it',
      'grew.ts: 452 lines, more than the 450 it may keep',
      'new.ts: 401 lines, over 400',
      'split.ts: 300 lines, back under 400: unlist it',
    ]);
  });
});
