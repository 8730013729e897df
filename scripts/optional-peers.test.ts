import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { missingPeersLine, requirePeers, sameMajor } from './optional-peers.ts';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

it('names every missing package in one line, with the npm command that installs it at the peer range', () => {
  expect(missingPeersLine('contract', ['vitest', 'fast-check'])).toBe(
    `contract needs vitest and fast-check, which are not installed here; run npm install --save-dev vitest@${manifest.peerDependencies.vitest} fast-check@${manifest.peerDependencies['fast-check']}, then try again`,
  );
  expect(missingPeersLine('docs', ['@redocly/cli'])).toBe(
    'docs needs @redocly/cli, which is not installed here; run npm install --save-dev @redocly/cli, then try again',
  );
  expect(missingPeersLine('x', ['a', 'b', 'c'])).toMatch(/^x needs a, b and c, which are not installed/);
});

it('finds installed peers where the kit loads them from, in the order asked', () => {
  const folders = requirePeers('contract', ['vitest', 'fast-check', 'pg']);
  const names = folders.map(
    (folder) => (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name: string }).name,
  );
  expect(names).toEqual(['vitest', 'fast-check', 'pg']);
});

it('keeps the test runner, the property generator and the PostgreSQL client out of every install', () => {
  for (const name of ['vitest', 'fast-check', 'pg']) {
    expect(manifest.dependencies[name], name).toBeUndefined();
    expect(manifest.peerDependenciesMeta[name]?.optional, name).toBe(true);
  }
});

it('says which version it found when a peer is there at another major than the kit needs', () => {
  expect(missingPeersLine('contract', ['vitest'], ['vitest 4.1.12'])).toMatch(
    /^contract needs vitest, which is not installed here \(only vitest 4\.1\.12\); run npm install --save-dev vitest@\^/,
  );
  expect(sameMajor('4.1.12', '^5.1.1')).toBe(false);
  expect(sameMajor('5.0.0', '^5.1.1')).toBe(true);
  expect(sameMajor('5.9.3', '~5.9.3')).toBe(true);
  expect(sameMajor('1.0.0', undefined)).toBe(true);
});
