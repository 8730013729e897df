// The numbers the README states about the contract suite come from the code: the table of checks is what
// contract-tests/check-counts.ts renders from the plan, and the count of broken servers is the table's length.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { countsMarkers, renderCheckCounts } from '../../contract-tests/check-counts.ts';
import { repoRoot } from '../../scripts/spawned-server.ts';
import { brokenServers } from './broken-servers.ts';

const readme = readFileSync(`${repoRoot}/README.md`, 'utf8');

test('the README table of checks is the one the plan renders', () => {
  const begin = readme.indexOf(countsMarkers.begin);
  const end = readme.indexOf(countsMarkers.end);
  expect(begin, 'README.md lacks the contract-counts markers').toBeGreaterThanOrEqual(0);
  const stated = readme.slice(begin + countsMarkers.begin.length, end).trim();
  // On failure, paste the expected block between the markers.
  expect(stated).toBe(renderCheckCounts());
});

test('every count of broken servers in the README is the number of broken servers', () => {
  const stated = [...readme.matchAll(/(\d+) (?:deliberately )?broken servers/g)].map((match) => Number(match[1]));
  expect(stated.length).toBeGreaterThan(0);
  for (const count of stated) expect(count).toBe(brokenServers.length);
});
