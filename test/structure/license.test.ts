// The licence is stated three times: the LICENSE file a team's lawyers read, package.json's `license` that npm and
// licence scanners read, and the spec's `info.license` that the reference page shows. They must name one licence.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { parse } from 'yaml';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const manifest = JSON.parse(read('package.json')) as { license?: string };
const spec = parse(read('spec/openapi.yaml')) as { info: { license?: { name?: string; identifier?: string } } };

/** The SPDX identifier of a licence text, from its title line; the licences the kit could carry, by their titles. */
const titles: Record<string, string> = { 'MIT License': 'MIT', 'ISC License': 'ISC', 'Apache License': 'Apache-2.0' };

it('has one licence in LICENSE, package.json `license` and the spec’s info.license', () => {
  const text = read('LICENSE');
  const title = text.split('\n', 1)[0]?.trim() ?? '';
  expect(Object.keys(titles), 'LICENSE’s first line').toContain(title);
  const identifier = titles[title];
  expect(manifest.license).toBe(identifier);
  expect(spec.info.license?.identifier).toBe(identifier);
  expect(spec.info.license?.name).toBe(identifier);
  // The MIT text in full, with a copyright line naming who grants it.
  if (identifier === 'MIT') {
    expect(text).toMatch(/^Copyright \(c\) \d{4} \S.+$/m);
    expect(text).toContain('The above copyright notice and this permission notice shall be included in all');
  }
});
