// What one deployed agent costs in memory, typically and at the schema's maximum field sizes: 20,000 deploys through
// the core in one process, heap (plus external) and RSS measured after a full GC; `seed` seeds agents through the
// control plane instead, every field at its maximum with a 128-character id and a 256-character creator. The figures
// docs/security.md and --max-agents quote. Run: node --expose-gc benchmarks/probes/agent-memory.ts [typical|max|seed] [count]
import { mintToken } from '../../mocks/core/request/auth.ts';
import { createMockCore } from '../../mocks/assembly/mock-core.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';

const kind = process.argv[2] === 'max' || process.argv[2] === 'seed' ? process.argv[2] : 'typical';
const count = Number(process.argv[3] ?? 20_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const bodies = {
  typical: {
    name: 'Trading bot',
    category: 'trading',
    model: 'gpt-4',
    initialSupply: 1_000_000,
    description: 'Trades SOL pairs on momentum signals.',
    capabilities: ['market-analysis', 'order-execution'],
  },
  // Every string at its maxLength, every array at its maxItems (spec/openapi.yaml DeployRequest).
  max: {
    name: 'n'.repeat(100),
    category: 'trading',
    model: 'gpt-4',
    initialSupply: 1_000_000,
    description: 'd'.repeat(2000),
    capabilities: Array.from({ length: 32 }, (_, i) => String(i).padEnd(64, 'c')),
  },
};

const core = createMockCore({ logger: silentLogger });
const token = await mintToken({ sub: 'user_bench' });
const body = new TextEncoder().encode(JSON.stringify(bodies[kind === 'seed' ? 'max' : kind]));
let seeded = 0;
/** A seed at the largest sizes the seeding route accepts, each with an id of its own. */
const seedBody = (): Uint8Array => {
  seeded += 1;
  const agentId = `agt_${seeded}_`.padEnd(128, 'x');
  // A seed is a partial Agent: the deploy body's fields but its supply, which the Agent holds as tokenomics.
  const { initialSupply: _supply, ...fields } = bodies.max;
  return new TextEncoder().encode(JSON.stringify({ ...fields, agentId, creator: 'c'.repeat(256) }));
};
const deploy = () =>
  kind === 'seed'
    ? core.handle({
        method: 'POST',
        path: '/__mock/agents',
        query: '',
        headers: { 'content-type': 'application/json' },
        body: seedBody(),
      })
    : core.handle({
        method: 'POST',
        path: '/v1/agents/deploy',
        query: '',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
// Warm up: the journal fills to its bound and the caches settle before the baseline.
for (let i = 0; i < 2000; i += 1) await deploy();
gc();
gc();
const before = process.memoryUsage();
for (let i = 0; i < count; i += 1) {
  const answer = await deploy();
  if (answer.status !== 201) throw new Error(`deploy answered ${answer.status}`);
}
gc();
gc();
const after = process.memoryUsage();
const per = (field: 'heapUsed' | 'external' | 'rss'): number => (after[field] - before[field]) / count;
process.stdout.write(
  `${kind}: ${count} ${kind === 'seed' ? 'seeds' : 'deploys'}; heap+external ${Math.round(per('heapUsed') + per('external'))} B/agent, RSS ${Math.round(per('rss'))} B/agent\n`,
);
