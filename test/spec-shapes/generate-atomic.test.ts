// `npm run generate` on a spec with a bad keyword, in a fixture copy of the repository: it writes nothing (every
// generated file and doc table is byte for byte as before, no temporary file is left) and says in one line which
// document, schema and keyword are at fault.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyTrackedFiles } from '../support/repo-copy.ts';
import { repoRoot } from '../support/spawned-server.ts';

const run = promisify(execFile);
const copy = mkdtempSync(join(tmpdir(), 'agent-registry-generate-atomic-'));
let files: string[] = [];

/** What `generate` writes: the generated modules and the docs that hold generated tables. */
const written = (file: string): boolean =>
  file.includes('.generated.') || file === 'README.md' || file.startsWith('docs/');

function snapshot(): Map<string, string> {
  return new Map(files.filter(written).map((file) => [file, readFileSync(join(copy, file), 'utf8')]));
}

async function generate(): Promise<{ code: number; stderr: string }> {
  try {
    await run(process.execPath, ['tools/generate.ts'], { cwd: copy, env: { PATH: process.env.PATH, NO_COLOR: '1' } });
    return { code: 0, stderr: '' };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, stderr: failed.stderr ?? '' };
  }
}

beforeAll(async () => {
  files = await copyTrackedFiles(copy);
}, 120_000);

afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('npm run generate on a spec with a bad keyword', () => {
  const spec = readFileSync(join(repoRoot, 'spec/openapi.yaml'), 'utf8');
  const name = '/components/schemas/Agent/properties/name';
  // The bound of the Agent's name (DeployRequest's name has one of its own).
  const agentName = /(Name of the agent, at most 100 characters[^\n]*\n {10})maxLength: 100/;
  expect(spec).toMatch(agentName);

  it.each([
    ['a misspelt keyword', '$1maxLenght: 100', `schema ${name}, keyword maxLenght: is not a keyword of JSON Schema`],
    [
      'a keyword with a value JSON Schema refuses',
      '$1maxLength: -1',
      `schema ${name}, keyword maxLength: must be >= 0`,
    ],
  ])(
    '%s: writes nothing and says which schema and keyword, in one line',
    async (_case, replacement, says) => {
      writeFileSync(join(copy, 'spec/openapi.yaml'), spec.replace(agentName, replacement));
      const before = snapshot();
      const { code, stderr } = await generate();
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toEqual([
        expect.stringContaining(`agent-registry-kit: nothing was written: spec/openapi.yaml: ${says}`),
      ]);
      expect(snapshot()).toEqual(before);
      const leftovers = readdirSync(copy, { recursive: true, encoding: 'utf8' }).filter(
        (file) => file.endsWith('.tmp') && !file.startsWith('node_modules'),
      );
      expect(leftovers).toEqual([]);
    },
    120_000,
  );
});
