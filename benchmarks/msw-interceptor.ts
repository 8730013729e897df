// The benchmark's msw path: the fake's handlers behind msw's node interceptor, driven by in-process fetch calls (no socket),
// so `npm run bench` can report what a test suite using setupMockServer gets. Prints one JSON line of figures.
import { primaryCreation } from '../verifier-client/requests/linked-operations.ts';
import { successStatus } from '../verifier-client/requests/operation-requests.ts';
import { fillPath } from '../verifier-client/requests/path-parameters.ts';
import { mintToken } from '../mocks/core/request/auth.ts';
import { silentLogger } from '../mocks/domain/logger.ts';
import { setupMockServer } from '../mocks/entries/node.ts';
import { getAtPointer, type JsonValue } from '../spec/index.ts';
import { listFlag, numberFlag, parseCommandLine } from '../scripts/command-line.ts';
import { requestBody } from './servers.ts';

// The two operations measured come from the spec's links: the GET that reads back what a create made, and the create.
const { creator, readBack, parameter, field } = primaryCreation();
const usage = `usage: node benchmarks/msw-interceptor.ts [--duration S] [--concurrency N] [--op ${readBack}|${creator}]`;
const values = parseCommandLine(
  {
    duration: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '50' },
    op: { type: 'string', default: readBack },
  },
  { usage },
);
const duration = numberFlag('duration', values.duration, { above: 0 }, usage);
const concurrency = numberFlag('concurrency', values.concurrency, { integer: true, min: 1 }, usage);
const op = listFlag('op', values.op, [readBack, creator], usage)[0] ?? readBack;

const base = 'http://agent-registry.bench';
const server = setupMockServer({ baseUrl: base, logger: silentLogger });
server.listen({ onUnhandledFrame: 'error' });
const authorization = `Bearer ${await mintToken({ sub: 'bench' })}`;
const createBody = requestBody(creator);
const json = { authorization, 'content-type': 'application/json' };
const create = () => fetch(`${base}${fillPath(creator, {})}`, { method: 'POST', headers: json, body: createBody });
const created = getAtPointer((await (await create()).json()) as JsonValue, field);
const readPath = fillPath(readBack, { [parameter]: String(created) });

const call = op === readBack ? () => fetch(`${base}${readPath}`, { headers: { authorization } }) : create;
const expected = successStatus(op).status;

async function run(
  seconds: number,
  record: boolean,
): Promise<{ latencies: number[]; failures: number; elapsed: number }> {
  const latencies: number[] = [];
  let failures = 0;
  const began = performance.now();
  const until = began + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const start = performance.now();
        const response = await call();
        await response.arrayBuffer();
        if (response.status !== expected) failures += 1;
        if (record) latencies.push(performance.now() - start);
      }
    }),
  );
  return { latencies, failures, elapsed: (performance.now() - began) / 1000 };
}

await run(Math.min(1, duration / 2), false);
const { latencies, failures, elapsed } = await run(duration, true);
server.close();
latencies.sort((a, b) => a - b);
const at = (share: number): number =>
  Math.round((latencies[Math.min(latencies.length - 1, Math.ceil(share * latencies.length) - 1)] ?? Number.NaN) * 100) /
  100;
process.stdout.write(
  `${JSON.stringify({ op: values.op, concurrency, requests: latencies.length, failures, rps: Math.round(latencies.length / elapsed), p50: at(0.5), p99: at(0.99) })}\n`,
);
