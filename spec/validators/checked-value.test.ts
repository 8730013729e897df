import { describe, expect, it } from 'vitest';
import { foundText } from './checked-value.ts';

// A JWT-shaped credential of 153 characters: its three segments are words a cut at 117 characters would split.
const token = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${'eyJzdWIiOiJ0ZXN0In0'.repeat(4)}.${'s1gnatureP4rt'.repeat(3)}`;

describe('foundText: a value as a finding shows it', () => {
  it.each([
    ['nothing for no value', undefined, 'nothing'],
    ['a short value whole', { name: 'Atlas' }, '{"name":"Atlas"}'],
    ['a long value cut between words', ['a b '.repeat(50)], `["${'a b '.repeat(28)}a b... (204 characters)`],
    ['a word the cut would split left out whole', { name: token }, '{"name":... (164 characters)'],
    ['one long word as its length alone', 'x'.repeat(300), '... (302 characters)'],
  ])('%s', (_name, value, want) => {
    expect(foundText(value)).toBe(want);
  });

  it('never shows part of a credential: it is there whole or not at all', () => {
    for (let padding = 0; padding < 130; padding += 1) {
      const found = foundText({ note: 'n'.repeat(padding), name: token });
      const whole = found.includes(token);
      for (let start = 0; start + 6 <= token.length; start += 1) {
        const piece = token.slice(start, start + 6);
        if (!whole) expect(found, `padding ${padding}`).not.toContain(piece);
      }
    }
  });
});
