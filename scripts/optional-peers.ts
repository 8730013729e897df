// Packages a subcommand needs that the kit does not install: vitest and fast-check (`contract`, `diff`), pg
// (`serve --state postgres://…`), ajv and ajv-formats (`spec-change`), @redocly/cli (`docs`). Each is looked for where the kit would load it from, at the
// major of the kit's peer range; a missing one (or one of another major) is one line naming the npm command that
// installs it, and exit 2, before anything is loaded.
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

/** A package as found: its folder and version. */
interface Found {
  folder: string;
  version: string;
}

/**
 * Package `name` as the kit's own modules resolve it (a dynamic `import()` of a peer looks from there), or from each of
 * `alsoFrom` (a tool run as a separate program may sit in the current app instead); undefined when none has it.
 */
function findPeer(name: string, alsoFrom: readonly string[]): Found | undefined {
  for (const base of [import.meta.url, ...alsoFrom.map((folder) => join(folder, 'package.json'))]) {
    let manifest: string;
    try {
      manifest = createRequire(base).resolve(`${name}/package.json`);
    } catch {
      continue; // not installed where this base looks; try the next
    }
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    return { folder: dirname(manifest), version };
  }
  return undefined;
}

/**
 * Whether `version` is of the major `range` names when it is a caret range (`^5.1.1`: any 5.x); any other range is
 * npm's to judge and is taken as met.
 * @example sameMajor('4.1.12', '^5.1.1'); // false
 */
export function sameMajor(version: string, range: string | undefined): boolean {
  const wanted = /^\^(\d+)\.\d+\.\d+$/.exec(range ?? '')?.[1];
  return wanted === undefined || version.split('.')[0] === wanted;
}

/**
 * The one line saying that `feature` needs `names`, of which `missing` are not installed (or only at another major,
 * listed in `mismatched`), and the npm command that installs them at the kit's peer range where it has one.
 * @example missingPeersLine('contract', ['vitest', 'fast-check']); // 'contract needs vitest and fast-check, which are not installed here; run npm install --save-dev vitest@^5.1.1 fast-check@^4.10.2, then try again'
 */
export function missingPeersLine(
  feature: string,
  missing: readonly string[],
  mismatched: readonly string[] = [],
): string {
  const ranges = peerRanges();
  const specs = missing.map((name) => (ranges[name] === undefined ? name : `${name}@${ranges[name]}`));
  const names = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
  const verb = missing.length === 1 ? 'which is' : 'which are';
  const found = mismatched.length > 0 ? ` (only ${mismatched.join(', ')})` : '';
  return `${feature} needs ${names}, ${verb} not installed here${found}; run npm install --save-dev ${specs.join(' ')}, then try again`;
}

/**
 * The folder of each of `names`, in order, when every one can be found from the kit (or from `alsoFrom`) at the major
 * of the kit's peer range; otherwise exits 2 with one line naming the npm command that installs the missing ones.
 * @example requirePeers('serve --state postgres://…', ['pg']); // ['/app/node_modules/pg'], or exits: agent-registry-kit: serve --state postgres://… needs pg, which is not installed here; run npm install --save-dev pg@^8.23.1, then try again
 */
export function requirePeers(feature: string, names: readonly string[], alsoFrom: readonly string[] = []): string[] {
  const ranges = peerRanges();
  const found = names.map((name) => findPeer(name, alsoFrom));
  const missing = names.filter((name, index) => {
    const peer = found[index];
    return peer === undefined || !sameMajor(peer.version, ranges[name]);
  });
  const mismatched = missing.flatMap((name) => {
    const peer = found[names.indexOf(name)];
    return peer === undefined ? [] : [`${name} ${peer.version}`];
  });
  if (missing.length > 0) cliError(missingPeersLine(feature, missing, mismatched));
  return found.flatMap((peer) => (peer === undefined ? [] : [peer.folder]));
}
