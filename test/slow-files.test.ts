// Keeps test/slow-files.ts honest (every listed file exists, runs in a worker of its own, and the list is slowest first)
// and checks test/slow-first-sequencer.ts's order: the listed files first, the rest in vitest's own order.
import { existsSync, globSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { inProcess } from '../vitest.config.ts';
import { SlowFirstSequencer, shuffledBySeed } from './slow-first-sequencer.ts';
import { slowFiles } from './slow-files.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the list of slow test files', () => {
  it('names test files that exist, each once', () => {
    const files = slowFiles.map(({ file }) => file);
    expect(files.filter((file) => !file.endsWith('.test.ts') || !existsSync(`${root}${file}`))).toEqual([]);
    expect(new Set(files).size).toBe(files.length);
  });

  it('is slowest first, by the measured wall time', () => {
    const walls = slowFiles.map(({ wallS }) => wallS);
    expect(walls).toEqual([...walls].sort((a, b) => b - a));
  });

  it('holds no file of the shared-worker project, whose files must stay one block to keep their worker', () => {
    const shared = new Set(globSync(inProcess, { cwd: root }));
    expect(shared.size).toBeGreaterThan(0);
    expect(slowFiles.map(({ file }) => file).filter((file) => shared.has(file))).toEqual([]);
  });
});

/** A specification as BaseSequencer reads it: its project's name and options, and its file. */
function spec(project: string, isolate: boolean, file: string): TestSpecification {
  const config = { sequence: { groupOrder: 0 }, isolate };
  return { project: { name: project, config }, moduleId: `${root}${file}` } as unknown as TestSpecification;
}

/** A run's context with no results cache (a fresh clone) and the given shuffle options. */
function context(sequence: { shuffle: boolean; seed: number }): Vitest {
  const config = { root: root.replace(/\/$/, ''), sequence, shard: undefined };
  return { config, cache: { getTestSpecificationResult: () => undefined } } as unknown as Vitest;
}

describe('the slow-first sequencer', () => {
  const shared = spec('in-process', false, 'spec/enums.test.ts');
  const small = spec('isolated', true, 'test/structure/function-length.test.ts');
  const consumer = spec('isolated', true, 'test/consumer/consumer.test.ts');
  const matrix = spec('isolated', true, 'test/contract/broken-servers.test.ts');
  const targets = spec('isolated', true, 'test/contract/contract-targets.test.ts');

  it('starts the listed files first, slowest first, then the shared-worker block, then the rest', async () => {
    const sequencer = new SlowFirstSequencer(context({ shuffle: false, seed: 1 }));
    const sorted = await sequencer.sort([small, matrix, shared, consumer, targets]);
    expect(sorted).toEqual([targets, consumer, matrix, shared, small]);
  });

  it('shuffles by the seed alone when asked to (--sequence.shuffle --sequence.seed N)', async () => {
    const files = [small, matrix, shared, consumer, targets];
    const orders = await Promise.all(
      [1, 1, 2].map((seed) => new SlowFirstSequencer(context({ shuffle: true, seed })).sort([...files])),
    );
    expect(orders[0]).toEqual(orders[1]);
    const names = (specs: TestSpecification[] = []): string[] => specs.map((s) => s.moduleId).sort();
    expect(names(orders[2])).toEqual(names(files));
    const keys = (seed: number): string[] => shuffledBySeed(['a', 'b', 'c', 'd', 'e', 'f'], (k) => k, seed);
    expect(new Set([1, 2, 3, 4, 5].map((seed) => keys(seed).join(''))).size).toBeGreaterThan(1);
  });

  describe('with TEST_FILE_ORDER_SEED set', () => {
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it('shuffles the files by that seed, as --sequence.shuffle would with it', async () => {
      const files = [small, matrix, shared, consumer, targets];
      const bySeed = await new SlowFirstSequencer(context({ shuffle: true, seed: 7 })).sort([...files]);
      vi.stubEnv('TEST_FILE_ORDER_SEED', '7');
      const byVariable = await new SlowFirstSequencer(context({ shuffle: false, seed: 1 })).sort([...files]);
      expect(byVariable).toEqual(bySeed);
      expect(byVariable).not.toEqual([targets, consumer, matrix, shared, small]);
    });
  });
});
