// The deliberately broken servers of the self-check: each is the real fake backend behind a proxy that breaks ONE rule,
// with the exact set of rules the contract suite must report for it: a server that slips through, or that is reported
// under a rule it did not break, is a bug in the suite. The table is in two files by concern
// (broken-servers/rule-breakers.ts, broken-servers/class-breakers.ts), what they are made of in broken-servers/kit.ts.
import type { BrokenServer } from './broken-servers/kit.ts';
import { classBreakers } from './broken-servers/class-breakers.ts';
import { ruleBreakers } from './broken-servers/rule-breakers.ts';

export type { BrokenServer } from './broken-servers/kit.ts';

/**
 * The seeds a server marked `seeds: 'several'` runs under besides the table's own: fixed ones, and one that changes
 * daily (printed by the test), so a breakage the suite catches only by the luck of a generated case shows.
 * @example brokenServerSeeds(new Date('2026-12-01')) // [1, 2008714486, 4242, <a seed of that day>]
 */
export function brokenServerSeeds(today: Date): number[] {
  return [1, 2008714486, 4242, (Math.floor(today.getTime() / 86_400_000) * 7919) % 2 ** 31];
}

/**
 * The table of broken servers: `[name, { given, rules, args }]`.
 * @example for (const [name, { given, rules }] of brokenServers) ...
 */
export const brokenServers: Array<[string, BrokenServer]> = [...ruleBreakers, ...classBreakers];
