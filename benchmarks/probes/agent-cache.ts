// What the storages' agent cache costs per operation as it fills: a hit on a cached agent, and remembering a new agent
// into a full cache (one evicted). Runs alone: `node benchmarks/probes/agent-cache.ts` (optionally `--baseline DIR`, the
// root of another checkout, measured in the same process). Prints µs per operation; no assertion.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentRecord } from '../../mocks/state/storage.ts';

interface Cache {
  get(agentId: string): unknown;
  remember(record: AgentRecord): void;
}
type CacheClass = new (capacity?: number) => Cache;

const OPERATIONS = 200_000;
const record = (agentId: string): AgentRecord => ({ agentId }) as unknown as AgentRecord;

/** µs per hit and per remember-with-eviction, on a cache holding `size` agents. */
function measure(Cache: CacheClass, size: number): { hit: number; evict: number } {
  const cache = new Cache(size);
  for (let index = 0; index < size; index += 1) cache.remember(record(`agt_${index}`));
  let start = performance.now();
  for (let index = 0; index < OPERATIONS; index += 1) cache.get(`agt_${index % 8}`);
  const hit = ((performance.now() - start) * 1000) / OPERATIONS;
  start = performance.now();
  for (let index = 0; index < OPERATIONS; index += 1) cache.remember(record(`agt_new_${index}`));
  const evict = ((performance.now() - start) * 1000) / OPERATIONS;
  return { hit, evict };
}

async function load(root: string): Promise<CacheClass> {
  const module = (await import(pathToFileURL(join(resolve(root), 'mocks/storage/agent-cache.ts')).href)) as {
    AgentCache: CacheClass;
  };
  return module.AgentCache;
}

const baselineAt = process.argv.indexOf('--baseline');
const targets: [string, CacheClass][] = [['this checkout', await load('.')]];
if (baselineAt > 0) targets.push(['baseline', await load(process.argv[baselineAt + 1] ?? '.')]);
// Once untimed, so both run warm.
for (const [, Cache] of targets) measure(Cache, 1000);
console.log('| cache | agents held | µs per hit | µs per remember (one evicted) |\n|---|---|---|---|');
for (const size of [100, 1000, 5000, 10_000])
  for (const [name, Cache] of targets) {
    const { hit, evict } = measure(Cache, size);
    console.log(`| ${name} | ${size.toLocaleString('en-US')} | ${hit.toFixed(3)} | ${evict.toFixed(3)} |`);
  }
