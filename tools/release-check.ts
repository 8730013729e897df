// A change to spec/openapi.yaml that breaks its users needs a major release: `npm run lint` compares the spec with the
// one last released and, when the kit's own classifier (spec-change) finds a breaking change, asks for a pending
// changeset that makes the next version of agent-registry-kit a major one. The released spec is a committed copy,
// .changeset/released-openapi.yaml, which `npm run version-packages` refreshes when it writes a release: a fresh clone,
// CI's included, has it whatever depth of git history it got (a version tag would need the tags and their history).
//
// `node tools/release-check.ts` checks; `--record` copies the spec into the released copy (the release procedure,
// CONTRIBUTING.md, runs it through `npm run version-packages`).
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { classifyChanges, type SpecChange } from '../spec-change/change-classifier.ts';
import { loadSpecVersion } from '../spec-change/spec-versions.ts';
import type { JsonObject } from '../spec/index.ts';

const packageName = 'agent-registry-kit';
/** The released spec, beside the changesets that say what the next release changes. */
const releasedSpec = '.changeset/released-openapi.yaml';

type Bump = 'major' | 'minor' | 'patch' | 'none';

/**
 * The bump each changeset's front matter gives `name` (`"agent-registry-kit": major`); the files are the `.md` files
 * of .changeset/ but its README.
 * @example changesetBumps(['---\n"agent-registry-kit": major\n---\n\nRemoves GET /v1/agents/{agentId}.\n']) // ['major']
 */
export function changesetBumps(texts: readonly string[], name: string = packageName): Bump[] {
  return texts.flatMap((text) => {
    const front = /^---\r?\n([\s\S]*?)\r?\n?---/.exec(text)?.[1];
    if (front === undefined) return [];
    const releases = front.trim() === '' ? {} : (parse(front) as Record<string, unknown> | null);
    const bump = releases?.[name];
    return bump === 'major' || bump === 'minor' || bump === 'patch' || bump === 'none' ? [bump] : [];
  });
}

/**
 * What stops the release: the breaking changes from `released` to `current` when no changeset of `changesets` (their
 * texts) makes the next release major; none otherwise.
 * @example breakingWithoutMajor(released, current, []) // [{ kind: 'operation-removed', … }] for a removed operation
 */
export function breakingWithoutMajor(
  released: JsonObject,
  current: JsonObject,
  changesets: readonly string[],
): SpecChange[] {
  if (changesetBumps(changesets).includes('major')) return [];
  return classifyChanges(released, current).filter((change) => change.impact !== 'compatible');
}

/**
 * The lint's message for the breaking changes found: how many, the first few with their pointers, and what to do.
 * @example refusal(changes) // 'spec/openapi.yaml breaks …'
 */
export function refusal(changes: readonly SpecChange[]): string {
  const shown = changes.slice(0, 5).map((change) => `  ${change.impact}: ${change.message} (${change.pointer})`);
  const more = changes.length > shown.length ? [`  … and ${changes.length - shown.length} more`] : [];
  return [
    `release check: spec/openapi.yaml has ${changes.length} breaking change(s) since the last release (${releasedSpec}), and no changeset makes the next release of ${packageName} major:`,
    ...shown,
    ...more,
    `Add one (npx changeset, choosing "major" for ${packageName}, saying what breaks for whom), or undo the change.`,
  ].join('\n');
}

if (import.meta.main) {
  const root = fileURLToPath(new URL('../', import.meta.url));
  if (process.argv.includes('--record')) {
    copyFileSync(join(root, 'spec/openapi.yaml'), join(root, releasedSpec));
    process.stdout.write(`release check: ${releasedSpec} is now the spec of this release\n`);
  } else {
    const folder = join(root, '.changeset');
    const changesets = readdirSync(folder)
      .filter((name) => name.endsWith('.md') && name !== 'README.md')
      .map((name) => readFileSync(join(folder, name), 'utf8'));
    const [released, current] = await Promise.all([
      loadSpecVersion(join(root, releasedSpec)),
      loadSpecVersion(join(root, 'spec/openapi.yaml')),
    ]);
    const changes = breakingWithoutMajor(released.document, current.document, changesets);
    if (changes.length > 0) {
      process.stderr.write(`${refusal(changes)}\n`);
      process.exitCode = 1;
    }
  }
}
