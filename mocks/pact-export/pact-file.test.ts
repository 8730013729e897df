// The one pact file writer: merged into the file's pact of the same consumer and provider, several writers at once
// losing nothing (the lock), written by rename (never half a file), and one clear line for a name it cannot write.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pactText } from './pact-document.ts';
import { PactConflictError, PactFileError, writePactFile } from './pact-file.ts';

let folder = '';
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ark-pact-file-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

/** A pact of the kit's shape with one interaction per name: GET of an agent with that id, answered `status`. */
function pactWith(names: string[], status = 200, consumer = 'web-app'): string {
  return pactText({
    consumer: { name: consumer },
    provider: { name: 'agent-registry' },
    interactions: names.map((name) => ({
      type: 'Synchronous/HTTP',
      description: `Retrieve an agent (GET /v1/agents/{agentId}): ${status}, given ${name}`,
      providerStates: [{ name, params: {} }],
      request: { method: 'GET', path: `/v1/agents/agt_${name}` },
      response: { status },
    })),
    metadata: { pactSpecification: { version: '4.0' } },
  });
}

const descriptions = async (file: string): Promise<string[]> =>
  (JSON.parse(await readFile(file, 'utf8')) as { interactions: { description: string }[] }).interactions.map(
    (interaction) => interaction.description,
  );

describe('writePactFile', () => {
  it('merges into the file’s pact: both writes’ interactions kept, in order, the same write twice the same bytes', async () => {
    const file = join(folder, 'pacts', 'web-app.json');
    expect(await writePactFile(file, pactWith(['b']))).toEqual({ interactions: 1, added: 1 });
    expect(await readFile(file, 'utf8')).toBe(pactWith(['b']));
    expect(await writePactFile(file, pactWith(['a', 'b']))).toEqual({ interactions: 2, added: 1 });
    const merged = await readFile(file, 'utf8');
    expect(merged).toBe(pactWith(['a', 'b']));
    await writePactFile(file, pactWith(['a']));
    expect(await readFile(file, 'utf8')).toBe(merged);
    expect(await readdir(join(folder, 'pacts'))).toEqual(['web-app.json']);
  });

  it('reports an interaction the file answers differently, keeps the file’s and writes the rest', async () => {
    const file = join(folder, 'web-app.json');
    await writePactFile(file, pactWith(['a']));
    const changed = pactWith(['a']).replace('"path": "/v1/agents/agt_a"', '"path": "/v1/agents/agt_other"');
    const both = JSON.parse(changed) as { interactions: unknown[] };
    both.interactions.push(...(JSON.parse(pactWith(['c'])) as { interactions: unknown[] }).interactions);
    const error = await writePactFile(file, pactText(both as never)).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PactConflictError);
    expect((error as PactConflictError).conflicts).toEqual([
      'Retrieve an agent (GET /v1/agents/{agentId}): 200, given a',
    ]);
    expect(await readFile(file, 'utf8')).toBe(pactWith(['a', 'c']));
  });

  it('loses nothing when many writers write one file at once (the lock beside it), and leaves no lock or temporary file', async () => {
    const file = join(folder, 'shared.json');
    const names = Array.from({ length: 12 }, (_, index) => `state ${String(index).padStart(2, '0')}`);
    await Promise.all(names.map((name) => writePactFile(file, pactWith([name]))));
    expect(await descriptions(file)).toEqual(
      names.map((name) => `Retrieve an agent (GET /v1/agents/{agentId}): 200, given ${name}`),
    );
    expect(await readdir(folder)).toEqual(['shared.json']);
  });

  it('takes over a lock its writer left behind long ago', async () => {
    const file = join(folder, 'stale.json');
    await writeFile(`${file}.lock`, '1\n');
    const { utimes } = await import('node:fs/promises');
    const past = new Date(Date.now() - 60_000);
    await utimes(`${file}.lock`, past, past);
    await writePactFile(file, pactWith(['a']));
    expect(await readdir(folder)).toEqual(['stale.json']);
  });

  it('refuses, in one line and changing nothing, a folder, `dir/`, a path through a file, a long name and another pact', async () => {
    await mkdir(join(folder, 'dir'));
    await writeFile(join(folder, 'plain'), 'not a folder');
    const other = join(folder, 'other.json');
    await writeFile(other, pactWith(['a'], 200, 'another-app'));
    const cases: [string, RegExp][] = [
      [join(folder, 'dir'), /is a folder; give a file name/],
      [`${join(folder, 'made')}/`, /names a folder; give a file name/],
      [join(folder, 'plain', 'p.json'), /has a part that is not a folder|cannot be written/],
      [join(folder, `${'n'.repeat(300)}.json`), /is too long a name/],
      [other, /holds the pact of "another-app" and "agent-registry", not of "web-app"/],
    ];
    for (const [file, message] of cases) {
      const error = await writePactFile(file, pactWith(['b'])).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(PactFileError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    }
    expect((await readdir(folder)).sort()).toEqual(['dir', 'other.json', 'plain']);
    expect(await readdir(join(folder, 'dir'))).toEqual([]);
    expect(await readFile(other, 'utf8')).toBe(pactWith(['a'], 200, 'another-app'));
    await writeFile(join(folder, 'junk.json'), '{ not json');
    await expect(writePactFile(join(folder, 'junk.json'), pactWith(['a']))).rejects.toThrow(
      /holds no pact \(not JSON\)/,
    );
  });
});
