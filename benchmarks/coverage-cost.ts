// `node benchmarks/coverage-cost.ts`: what coverage counting costs on the hot path, in process (no HTTP, so the figure is
// not drowned by socket noise): core.handle with the counter on and off in alternating rounds, and record() alone.
import { mintToken } from '../mocks/core/request/auth.ts';
import { createMockCore } from '../mocks/assembly/mock-core.ts';
import { silentLogger } from '../mocks/domain/logger.ts';
import type { MockRequest } from '../mocks/core/mock-http.ts';
import { primaryCreation } from '../verifier-client/requests/linked-operations.ts';
import { fillPath } from '../verifier-client/requests/path-parameters.ts';
import { requestBody } from './servers.ts';
import { parseCommandLine } from '../scripts/command-line.ts';

const values = parseCommandLine(
  { rounds: { type: 'string' }, requests: { type: 'string' } },
  { usage: 'usage: node benchmarks/coverage-cost.ts [--rounds <n>] [--requests <n>]' },
);
const rounds = Number(values.rounds ?? '9');
const requests = Number(values.requests ?? '20000');

// Two cores, one whose counter is switched off before any request, so neither sees a call site change shape mid-run.
const counting = createMockCore({ seed: 42, logger: silentLogger, failureRatio: 0 });
const notCounting = createMockCore({ seed: 42, logger: silentLogger, failureRatio: 0 });
notCounting.coverage.record = () => {};
const authorization = `Bearer ${await mintToken()}`;
// The two requests are the spec's: the creating operation its links name, and the GET that reads one back.
const { creator, readBack, parameter } = primaryCreation();
const agentId = counting.store.list({ status: 'active', limit: 1 }).agents[0]?.agentId ?? '';
const body = new TextEncoder().encode(requestBody(creator) ?? '{}');
const readRequest: MockRequest = {
  method: 'GET',
  path: fillPath(readBack, { [parameter]: agentId }),
  query: '',
  headers: { authorization },
  body: null,
};
const kinds: Record<string, MockRequest> = {
  [`GET ${readBack} 200`]: readRequest,
  [`POST ${creator} 201`]: {
    method: 'POST',
    path: fillPath(creator, {}),
    query: '',
    headers: { authorization, 'content-type': 'application/json' },
    body,
  },
};

/** CPU time (user + system), not wall time: the machine is shared, and waiting for a core is not the code's cost. */
async function time(core: typeof counting, request: MockRequest): Promise<number> {
  core.store.reset();
  const before = process.cpuUsage();
  for (let index = 0; index < requests; index += 1) await core.handle(request);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requests;
}

const median = (list: number[]): number => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;

console.log(`core.handle, CPU µs per request, median of ${rounds} alternating rounds of ${requests} requests`);
console.log('| request | counting off | counting on | difference |');
console.log('|---|---|---|---|');
for (const [name, request] of Object.entries(kinds)) {
  await time(counting, request); // warm-up
  await time(notCounting, request);
  const on: number[] = [];
  const off: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    // The order alternates too, so a slow spell of the machine falls on both sides alike.
    if (round % 2 === 0) {
      off.push(await time(notCounting, request));
      on.push(await time(counting, request));
    } else {
      on.push(await time(counting, request));
      off.push(await time(notCounting, request));
    }
  }
  const a = median(off);
  const b = median(on);
  console.log(`| ${name} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(((b - a) / a) * 100).toFixed(1)}% |`);
}
const response = await counting.handle(readRequest);
const calls = 2_000_000;
const started = performance.now();
for (let index = 0; index < calls; index += 1) counting.coverage.record(readBack, readRequest, response, undefined);
console.log(
  `record() alone, a 200 without Prefer: ${(((performance.now() - started) * 1e6) / calls).toFixed(0)} ns per call`,
);
