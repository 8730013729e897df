// Packages a subcommand needs that the kit does not install: vitest and fast-check (`contract`, `diff`), pg
// (`serve --state postgres://…`), @redocly/cli (`docs`). Each is looked for where the kit would load it from; a missing
// one is one line naming the npm command that installs it, and exit 2, before anything is loaded.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliError } from './cli-error.ts';

/** The kit's own manifest: the ranges of its optional peers (`peerDependencies`). */
function peerRanges(): Record<string, string> {
  const manifest = JSON.parse(
    readFileSync(fileURLToPath(import.meta.resolve('agent-registry-kit/package.json')), 'utf8'),
  ) as { peerDependencies?: Record<string, string> };
  return manifest.peerDependencies ?? {};
}

/**
 * The folder of package `name` as the kit's own modules resolve it (a dynamic `import()` of a peer looks from there),
 * or from each of `alsoFrom` (a tool run as a separate program may sit in the current app instead); undefined when none
 * has it.
 */
function findPeer(name: string, alsoFrom: readonly string[] = []): string | undefined {
  for (const base of [import.meta.url, ...alsoFrom.map((folder) => join(folder, 'package.json'))]) {
    try {
      return dirname(createRequire(base).resolve(`${name}/package.json`));
    } catch {
      // not installed where this base looks; try the next
    }
  }
  return undefined;
}

/**
 * The one line saying that `feature` needs `names`, of which `missing` are not installed, and the npm command that
 * installs them (at the kit's peer range where it has one).
 * @example missingPeersLine('contract', ['vitest', 'fast-check']); // 'contract needs vitest and fast-check, which are not installed here; run npm install --save-dev vitest@^5.1.1 fast-check@^4.10.2, then try again'
 */
export function missingPeersLine(feature: string, missing: readonly string[]): string {
  const ranges = peerRanges();
  const specs = missing.map((name) => (ranges[name] === undefined ? name : `${name}@${ranges[name]}`));
  const names = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
  const verb = missing.length === 1 ? 'which is' : 'which are';
  return `${feature} needs ${names}, ${verb} not installed here; run npm install --save-dev ${specs.join(' ')}, then try again`;
}

/**
 * The folder of each of `names`, in order, when every one can be found from the kit (or from `alsoFrom`); otherwise
 * exits 2 with one line naming the npm command that installs the missing ones.
 * @example requirePeers('serve --state postgres://…', ['pg']); // ['/app/node_modules/pg'], or exits: agent-registry-kit: serve --state postgres://… needs pg, which is not installed here; run npm install --save-dev pg@^8.23.1, then try again
 */
export function requirePeers(feature: string, names: readonly string[], alsoFrom: readonly string[] = []): string[] {
  const found = names.map((name) => findPeer(name, alsoFrom));
  const missing = names.filter((_name, index) => found[index] === undefined);
  if (missing.length > 0) cliError(missingPeersLine(feature, missing));
  return found.filter((folder) => folder !== undefined);
}
