// The file order of `npm test`: the heavy rooms of test/ first, in their order, then the rest of test/, then the tests
// beside the code; a seed shuffles the files alone.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { FolderOrderSequencer, HEAVY_ROOMS, roomRank, shuffledBySeed } from './folder-order-sequencer.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

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

describe('the folder-order sequencer', () => {
  const unit = spec('unit', false, 'spec/enums.test.ts');
  const small = spec('e2e', true, 'test/structure/function-length.test.ts');
  const consumer = spec('e2e', true, 'test/consumer/consumer.test.ts');
  const matrix = spec('e2e', true, 'test/contract/broken-servers.test.ts');
  const postgres = spec('e2e', true, 'test/postgres/faults.test.ts');

  it('ranks each heavy room by its place, then the rest of test/, then the code', () => {
    expect(HEAVY_ROOMS.map((room) => roomRank(`${room}/x.test.ts`))).toEqual(HEAVY_ROOMS.map((_, i) => i));
    expect(roomRank('test/cli/serve.test.ts')).toBe(HEAVY_ROOMS.length);
    expect(roomRank('mocks/core/core.test.ts')).toBe(HEAVY_ROOMS.length + 1);
    expect(roomRank('test/contractual/x.test.ts')).toBe(HEAVY_ROOMS.length);
  });

  it('starts the heavy rooms first, in their order, then the rest of test/, then the tests beside the code', async () => {
    const sequencer = new FolderOrderSequencer(context({ shuffle: false, seed: 1 }));
    const sorted = await sequencer.sort([unit, small, postgres, consumer, matrix]);
    expect(sorted).toEqual([matrix, consumer, postgres, small, unit]);
  });

  it('shuffles by the seed alone when asked to (--sequence.shuffle --sequence.seed N)', async () => {
    const files = [unit, small, postgres, consumer, matrix];
    const orders = await Promise.all(
      [1, 1, 2].map((seed) => new FolderOrderSequencer(context({ shuffle: true, seed })).sort([...files])),
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
      const files = [unit, small, postgres, consumer, matrix];
      const bySeed = await new FolderOrderSequencer(context({ shuffle: true, seed: 7 })).sort([...files]);
      vi.stubEnv('TEST_FILE_ORDER_SEED', '7');
      const byVariable = await new FolderOrderSequencer(context({ shuffle: false, seed: 1 })).sort([...files]);
      expect(byVariable).toEqual(bySeed);
      expect(byVariable).not.toEqual([matrix, consumer, postgres, small, unit]);
    });
  });
});
