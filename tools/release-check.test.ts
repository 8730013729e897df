// A breaking change to the spec since the last release passes the lint only with a changeset that makes the next
// release major: removing an operation or tightening a bound is refused without one (or with a minor one), a compatible
// change needs none, and the front matter of a changeset is read as changesets writes it.
import { describe, expect, it } from 'vitest';
import { type JsonObject, openapiDocument } from '../spec/index.ts';
import { breakingWithoutMajor, changesetBumps, refusal } from './release-check.ts';

const changeset = (bump: string, name = 'agent-registry-kit'): string =>
  `---\n"${name}": ${bump}\n---\n\nWhat changes for the kit's users.\n`;

/** The spec with `edit` applied to a deep copy. */
function edited(edit: (document: JsonObject & { paths: Record<string, JsonObject> }) => void): JsonObject {
  const copy = structuredClone(openapiDocument) as JsonObject & { paths: Record<string, JsonObject> };
  edit(copy);
  return copy;
}

const [firstPath = ''] = Object.keys(openapiDocument.paths as JsonObject);
const withoutFirstPath = edited((document) => {
  delete document.paths[firstPath];
});
const newDescription = edited((document) => {
  (document.info as JsonObject).description = 'Worded anew.';
});

describe('breakingWithoutMajor', () => {
  it.each<[string, JsonObject, string[], boolean]>([
    ['an operation removed, no changeset', withoutFirstPath, [], true],
    ['an operation removed, a minor changeset', withoutFirstPath, [changeset('minor')], true],
    [
      'an operation removed, a major changeset of another package',
      withoutFirstPath,
      [changeset('major', 'other')],
      true,
    ],
    ['an operation removed, a major changeset', withoutFirstPath, [changeset('patch'), changeset('major')], false],
    ['a compatible change, no changeset', newDescription, [], false],
    ['no change at all', openapiDocument, [], false],
  ])('%s', (_name, current, changesets, refused) => {
    const changes = breakingWithoutMajor(openapiDocument, current, changesets);
    expect(changes.length > 0).toBe(refused);
    if (refused) expect(refusal(changes)).toMatch(/breaking change\(s\) since the last release[\s\S]*removed/);
  });
});

describe('changesetBumps', () => {
  it.each<[string, string, string[]]>([
    ['a major bump', changeset('major'), ['major']],
    ['single quotes', "---\n'agent-registry-kit': minor\n---\n", ['minor']],
    ['an empty changeset', '---\n---\n', []],
    ['another package only', changeset('major', 'left-pad'), []],
    ['no front matter', '# Notes\n', []],
  ])('%s', (_name, text, bumps) => {
    expect(changesetBumps([text])).toEqual(bumps);
  });
});
