// Orders the test files by the room they live in, heaviest rooms first. On two workers a run cannot end before its
// longest file, and a long file started late leaves a core idle at the end; vitest orders by its results cache, which a
// fresh clone (CI) does not have, and otherwise by file size, which says little about how long a file waits on the
// processes it starts. The rooms of test/ are of a kind each, so their order is known without measuring each file.
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { createRandom } from '../../mocks/domain/random.ts';

/**
 * The rooms of test/ whose files run longest, heaviest first: the contract runs against many servers and the
 * packed-tarball install, then the differential runs and the throwaway PostgreSQL cluster. Every other room of test/
 * comes after them, and the in-process tests beside the code (which share their workers) last.
 */
export const HEAVY_ROOMS: readonly string[] = [
  'test/contract',
  'test/consumer',
  'test/spec-shapes',
  'test/differential',
  'test/postgres',
];

/**
 * A file's place, from its path from the repository root: its heavy room's index, then the rest of test/, then
 * everything beside the code.
 * @example roomRank('test/consumer/consumer.test.ts'); // 1
 */
export function roomRank(file: string): number {
  const heavy = HEAVY_ROOMS.findIndex((room) => file.startsWith(`${room}/`));
  if (heavy !== -1) return heavy;
  return file.startsWith('test/') ? HEAVY_ROOMS.length : HEAVY_ROOMS.length + 1;
}

/**
 * A deterministic shuffle for `--sequence.shuffle --sequence.seed N` or TEST_FILE_ORDER_SEED=N (vitest uses its own
 * shuffle only when no sequencer is configured): the fake's own seeded PRNG, Fisher–Yates swaps, items first sorted.
 * @example shuffledBySeed(['a', 'b', 'c'], (item) => item, 7);
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
 * vitest's own order (its results cache, then size) inside each room, the rooms ordered by roomRank.
 * @example export default defineConfig({ test: { sequence: { sequencer: FolderOrderSequencer } } });
 */
export class FolderOrderSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { sequence, root } = this.ctx.config;
    // vitest resolves `--sequence.shuffle.files` to no shuffle once a sequencer is configured, and `--sequence.shuffle`
    // shuffles the tests inside each file too (several files' tests build on the one before); TEST_FILE_ORDER_SEED=N
    // shuffles the files alone, to show that files sharing a worker do not depend on each other's order.
    const fileSeed = Number.parseInt(process.env.TEST_FILE_ORDER_SEED ?? '', 10);
    const seed = sequence.shuffle ? sequence.seed : Number.isNaN(fileSeed) ? undefined : fileSeed;
    if (seed !== undefined) return shuffledBySeed(files, (spec) => `${spec.project.name} ${spec.moduleId}`, seed);
    const sorted = await super.sort(files);
    const relative = (spec: TestSpecification): string =>
      spec.moduleId.startsWith(`${root}/`) ? spec.moduleId.slice(root.length + 1) : spec.moduleId;
    const rank = new Map(sorted.map((spec) => [spec, roomRank(relative(spec))]));
    // Array.prototype.sort is stable: files of one room keep vitest's order among themselves.
    return sorted.sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0));
  }
}
