// The numbers the docs state about the contract suite come from the code: the table of checks is what
// contract-tests/report/check-counts.ts renders from the plan, and the count of broken servers is the table's length.
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { repoRoot } from '../support/spawned-server.ts';
import { brokenServers } from './broken-servers.ts';

/** The README and every guide of docs/, where a count of broken servers may be stated. */
const allDocs = [
  `${repoRoot}/README.md`,
  ...readdirSync(`${repoRoot}/docs`)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `${repoRoot}/docs/${name}`),
]
  .map((path) => readFileSync(path, 'utf8'))
  .join('\n');

test('every count of broken servers in the docs is the number of broken servers', () => {
  const stated = [...allDocs.matchAll(/(\d+) (?:deliberately )?broken servers/g)].map((match) => Number(match[1]));
  expect(stated.length).toBeGreaterThan(0);
  for (const count of stated) expect(count).toBe(brokenServers.length);
});
