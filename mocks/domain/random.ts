// A small seeded PRNG (mulberry32) whose whole state is one integer, so the store can persist and resume it exactly.

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A deterministic source of randomness. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** `length` characters drawn from `alphabet`. */
  string(length: number, alphabet?: string): string;
  /** A base58 string, the alphabet of Solana addresses. */
  base58(length: number): string;
  /** The current state, to persist; `createRandom(state)` resumes from it. */
  readonly state: number;
}

/**
 * A PRNG seeded with `seed` (any 32-bit integer); the same seed always gives the same sequence.
 * @example const random = createRandom(42); random.int(1, 6);
 */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const string = (length: number, alphabet = ALPHANUMERIC): string => {
    // Built from char codes in one go: `+=` per character would leave a tree of cons-strings per id (~30 bytes a character).
    const codes = new Array<number>(length);
    for (let index = 0; index < length; index += 1)
      codes[index] = alphabet.charCodeAt(Math.floor(next() * alphabet.length));
    return String.fromCharCode(...codes);
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    string,
    base58: (length) => string(length, BASE58),
    get state() {
      return state;
    },
  };
}

/**
 * Turns any seed text (`MOCK_SEED=demo`) into the 32-bit integer the PRNG and faker take; numbers stay themselves.
 * @example seedFromText('42') // 42
 */
export function seedFromText(text: string): number {
  if (/^\d{1,9}$/.test(text)) return Number(text);
  let hash = 2166136261;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619) >>> 0;
  return hash;
}
