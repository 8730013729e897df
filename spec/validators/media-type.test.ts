import { describe, expect, it } from 'vitest';
import { mediaTypeOf } from './media-type.ts';

describe('mediaTypeOf', () => {
  it.each([
    ['application/json', 'application/json'],
    ['Application/JSON; charset=utf-8', 'application/json'],
    [' text/plain ', 'text/plain'],
    [undefined, ''],
    [null, ''],
  ] as const)('%s → %s', (given, want) => {
    expect(mediaTypeOf(given)).toBe(want);
  });
});
