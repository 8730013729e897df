// What the test API's `requests` and `waitForRequest` cost on a full journal (1,000 deploys, the default bound): each
// `requests` call parses and validates every body again, while a waiting test's look reads only what is new since its
// last one. Prints the time per `requests` call and per look of a pending wait. Runs alone:
// `node benchmarks/probes/request-reading.ts`.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createFixedClock } from '../../mocks/domain/clock.ts';
import { createMockCore } from '../../mocks/assembly/mock-core.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { recordedRequests } from '../../mocks/core/steering/recorded-requests.ts';
import { createTestApi } from '../../mocks/test-api/test-api.ts';
import { operations } from '../../spec/index.ts';

const core = createMockCore({ seed: 1, logger: silentLogger, clock: createFixedClock(0), failureRatio: 0 });
const api = createTestApi(core);
const authorization = `Bearer ${await mintToken()}`;
const deploy = [...operations.values()].find((operation) => operation.path.endsWith('/deploy'));
if (!deploy) throw new Error('no deploy operation in the spec');
const body = { name: 'Probe', category: 'defi', model: 'gpt-4', initialSupply: 1000, revenueShare: 0.1 };
for (let index = 0; index < core.journal.capacity; index += 1) {
  await core.handle({
    method: deploy.method,
    path: deploy.path,
    query: '',
    headers: { authorization, 'content-type': 'application/json' },
    body: new TextEncoder().encode(JSON.stringify({ ...body, name: `Probe ${index}` })),
  });
}

/** Median milliseconds of `runs` calls of `work`. */
async function median(runs: number, work: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)] ?? 0;
}

const all = await median(50, () => api.requests(deploy.operationId));
const last = core.journal.entries().at(-1)?.seq ?? 0;
const look = await median(50, () => recordedRequests(core.journal.entriesAfter(last), deploy.operationId));
console.log(`journal: ${core.journal.size} ${deploy.operationId} requests`);
console.log(`requests(${deploy.operationId}): ${all.toFixed(2)} ms per call (every body parsed and validated)`);
console.log(`a pending wait's look (nothing new): ${look.toFixed(2)} ms, every 10 ms in process`);
console.log(`load average: ${loadavg()[0]?.toFixed(2)}`);
