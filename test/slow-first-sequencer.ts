// Orders npm test's files so the slowest start first (issue 20): on two workers the run cannot end before its longest
// file, and one started late leaves a core idle at the end. vitest orders by the durations of its own results cache,
// but a fresh clone (CI) has none, and then it falls back to file size, which put the broken-server matrix 76th of 111.
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { createRandom } from '../mocks/random.ts';
import { slowFiles } from './slow-files.ts';

/** A file's place in the list of slow files (slowest 0), or the list's length for a file not in it. */
function slowRank(spec: TestSpecification, root: string): number {
  const relative = spec.moduleId.startsWith(`${root}/`) ? spec.moduleId.slice(root.length + 1) : spec.moduleId;
  const index = slowFiles.findIndex(({ file }) => file === relative);
  return index === -1 ? slowFiles.length : index;
}

/**
 * A deterministic shuffle for `--sequence.shuffle --sequence.seed N` or TEST_FILE_ORDER_SEED=N (vitest uses its own
 * shuffle only when no sequencer is configured): the fake's own seeded PRNG (mocks/random.ts), Fisher–Yates swaps, items first put in one order.
 */
export function shuffledBySeed<T>(items: readonly T[], key: (item: T) => string, seed: number): T[] {
  const out = [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const random = createRandom(seed);
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random.next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * vitest's own order (projects apart, its results cache, then size), except that the files of test/slow-files.ts go
 * first, slowest first. The shared-worker project's files stay one block after them: its worker is kept only while the
 * next file in the queue is of the same project.
 * @example export default defineConfig({ test: { sequence: { sequencer: SlowFirstSequencer } } });
 */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { sequence, root } = this.ctx.config;
    // vitest resolves `--sequence.shuffle.files` to no shuffle once a sequencer is configured, and `--sequence.shuffle`
    // shuffles the tests inside each file too (several files' tests build on the one before); TEST_FILE_ORDER_SEED=N
    // shuffles the files alone, to show that files sharing a worker do not depend on each other's order.
    const fileSeed = Number.parseInt(process.env.TEST_FILE_ORDER_SEED ?? '', 10);
    const seed = sequence.shuffle ? sequence.seed : Number.isNaN(fileSeed) ? undefined : fileSeed;
    if (seed !== undefined) return shuffledBySeed(files, (spec) => `${spec.project.name} ${spec.moduleId}`, seed);
    const sorted = await super.sort(files);
    const rank = new Map(sorted.map((spec) => [spec, slowRank(spec, root)]));
    // Array.prototype.sort is stable: files outside the list keep vitest's order among themselves.
    return sorted.sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0));
  }
}
