// dist/ counts as fresh only while the build's inputs and its outputs are exactly what the last build recorded.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { distIsFresh, writeDistStamp } from './dist-stamp.ts';

let root = '';

function write(path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'dist-stamp-'));
  write('package.json', '{"type":"module"}');
  write('tsconfig.json', '{}');
  write('mocks/core/core.ts', 'export const a = 1;');
  write('node_modules/.package-lock.json', '{"packages":{}}');
  write('dist/mocks/core.js', 'export const a = 1;');
  write('dist/mocks/core.d.ts', 'export declare const a = 1;');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('distIsFresh', () => {
  it('is false with no record of a build, and true right after one', () => {
    expect(distIsFresh(root)).toBe(false);
    writeDistStamp(root);
    expect(distIsFresh(root)).toBe(true);
  });

  it.each([
    ['a source changed', () => write('mocks/core/core.ts', 'export const a = 2;')],
    ['a source added', () => write('mocks/new.ts', '')],
    ['a tsconfig changed', () => write('tsconfig.json', '{"compilerOptions":{}}')],
    ['package.json changed', () => write('package.json', '{"type":"commonjs"}')],
    ['another dependency tree installed', () => write('node_modules/.package-lock.json', '{"packages":{"a":{}}}')],
    ['a built file changed', () => write('dist/mocks/core.js', 'export const a = 3;')],
    ['a file added to dist/', () => write('dist/mocks/stray.js', '')],
    ['a built file removed', () => rmSync(join(root, 'dist/mocks/core.d.ts'))],
  ])('is false once %s', (_name, change) => {
    writeDistStamp(root);
    change();
    expect(distIsFresh(root)).toBe(false);
  });

  it('stays true when only files the build never reads change (the docs, a test run’s own table)', () => {
    writeDistStamp(root);
    write('README.md', 'changed');
    write('vitest-file-times.tsv', 'a\tb');
    expect(distIsFresh(root)).toBe(true);
  });
});
