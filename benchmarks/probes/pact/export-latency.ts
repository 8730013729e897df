// What a `GET /__mock/pact` of a full pact log costs the other requests of the fake: a child serves a fake whose log
// holds 256 exchanges of 64 KiB bodies on both sides (`[{},{},…]`, the body that grows most when written as a pact),
// the parent times health requests before and while the pact is fetched, twice (the second is what a cache buys).
// Runs alone: `node benchmarks/probes/pact/export-latency.ts [--exchanges 256] [--kib 64]`.
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { startMockServer } from '../../../mocks/entries/server.ts';
import { operations } from '../../../spec/index.ts';
import { numberFlag, parseCommandLine } from '../../../scripts/command-line.ts';
import { memoryOf, spawnServer } from '../../../test/support/spawned-server.ts';

const usage = 'usage: node benchmarks/probes/pact/export-latency.ts [--exchanges N] [--kib N]';
const values = parseCommandLine(
  { exchanges: { type: 'string' }, kib: { type: 'string' }, serve: { type: 'boolean' } },
  { usage },
);
const exchanges = numberFlag('exchanges', values.exchanges ?? '256', { integer: true, min: 1, max: 4096 }, usage);
const kib = numberFlag('kib', values.kib ?? '64', { integer: true, min: 1, max: 1024 }, usage);

/** The child: a fake whose pact log is filled in process (the keys a real app reaches are far fewer than 256). */
async function serve(): Promise<void> {
  const server = await startMockServer({ port: 0, logger: { info() {}, warn() {}, error() {} } });
  const size = kib * 1024 - 8;
  const body = `[${'{},'.repeat(Math.floor((size - 4) / 3))}{}]`;
  const withBodies = [...operations.values()].filter((operation) => operation.requestMediaType !== undefined);
  for (let index = 0; index < exchanges; index += 1) {
    const operation = withBodies[index % withBodies.length];
    if (operation === undefined) throw new Error('the spec has no operation with a request body');
    const state = { name: `state ${index}`, params: {} };
    server.core.pact.record(
      {
        method: operation.method,
        path: operation.path.replace(/\{[^}]+\}/g, 'agt_1'),
        query: '',
        headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
        body: new TextEncoder().encode(body),
      },
      { status: 200, headers: { 'content-type': 'application/json' }, body },
      { operationId: operation.operationId, stateName: state.name, state: () => state },
    );
  }
  console.log(`kept ${server.core.pact.bytes} characters; listening on ${server.url}`);
}

/** One GET: its status, bytes and milliseconds. */
function get(url: string): Promise<{ status: number; bytes: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(url, (answer) => {
      let bytes = 0;
      answer.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, bytes, ms: performance.now() - started }));
    })
      .on('error', reject)
      .end();
  });
}

async function measure(): Promise<void> {
  const fake = await spawnServer({
    name: 'pact-export-latency',
    args: [
      'benchmarks/probes/pact/export-latency.ts',
      '--serve',
      '--exchanges',
      String(exchanges),
      '--kib',
      String(kib),
    ],
    ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    timeoutMs: 120_000,
  });
  try {
    const health = `${fake.baseUrl}/__mock/health`;
    const quiet: number[] = [];
    for (let index = 0; index < 50; index += 1) quiet.push((await get(health)).ms);
    quiet.sort((a, b) => a - b);
    console.log(
      `${exchanges} exchanges of ${kib} KiB bodies; load average ${loadavg()[0]?.toFixed(2)}; RSS ${(memoryOf(fake.pid).rss / 2 ** 20).toFixed(0)} MB`,
    );
    console.log(`health alone: median ${quiet[25]?.toFixed(1)} ms, max ${quiet.at(-1)?.toFixed(1)} ms`);
    for (const round of [1, 2]) {
      let done = false;
      const pact = get(`${fake.baseUrl}/__mock/pact?consumer=probe&provider=agent-registry`).finally(() => {
        done = true;
      });
      const during: number[] = [];
      while (!done) during.push((await get(health)).ms);
      const answer = await pact;
      during.sort((a, b) => a - b);
      console.log(
        `GET /__mock/pact #${round}: ${answer.status}, ${(answer.bytes / 2 ** 20).toFixed(1)} MiB in ${answer.ms.toFixed(0)} ms; ` +
          `${during.length} health requests meanwhile, median ${during[Math.floor(during.length / 2)]?.toFixed(1)} ms, ` +
          `max ${during.at(-1)?.toFixed(1)} ms; RSS peak ${(memoryOf(fake.pid).hwm / 2 ** 20).toFixed(0)} MB`,
      );
    }
  } finally {
    await fake.stop();
  }
}

await (values.serve ? serve() : measure());
