// What sessions cost per request, in process CPU time (steadier than req/s on a loaded machine): GET and deploy through
// the core of another checkout (`--baseline DIR`, e.g. a `git worktree` of main), through this core without a session,
// and through this core in a session, interleaved round by round.
// Usage: node scripts/bench/session-cost.ts --baseline DIR [--rounds 15] [--requests 2000]
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mintToken } from '../../mocks/auth.ts';
import { createMockCore, type MockCore } from '../../mocks/core.ts';
import { silentLogger } from '../../mocks/logger.ts';
import type { MockRequest } from '../../mocks/mock-http.ts';
import { cliError } from '../cli-error.ts';
import { numberFlag, parseCommandLine } from '../command-line.ts';
import { deployBody } from './servers.ts';

const usage = 'usage: node scripts/bench/session-cost.ts --baseline DIR [--rounds N] [--requests N]';
type Variant = { name: string; core: Pick<MockCore, 'handle'>; headers: Record<string, string> };

/** CPU microseconds per request of `count` requests of `make()` through `variant`. */
async function cpuPerRequest(variant: Variant, make: (headers: Record<string, string>) => MockRequest, count: number) {
  const before = process.cpuUsage();
  for (let index = 0; index < count; index += 1) {
    const response = await variant.core.handle(make(variant.headers));
    if (response.status >= 300) throw new Error(`${variant.name} answered ${response.status}: ${response.body}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function main(args: string[]): Promise<void> {
  const values = parseCommandLine(
    { baseline: { type: 'string' }, rounds: { type: 'string' }, requests: { type: 'string' } },
    { usage },
    args,
  );
  if (values.baseline === undefined) cliError(`--baseline DIR is required; ${usage}`);
  const rounds = numberFlag('rounds', values.rounds ?? '15', { integer: true, min: 1 }, usage);
  const count = numberFlag('requests', values.requests ?? '2000', { integer: true, min: 1 }, usage);
  const baselineModule = (await import(pathToFileURL(join(resolve(values.baseline), 'mocks/core.ts')).href)) as {
    createMockCore: typeof createMockCore;
  };
  const options = { seed: 42, logger: silentLogger, failureRatio: 0 };
  const auth = { authorization: `Bearer ${await mintToken({ sub: 'bench' })}` };
  const variants: Variant[] = [
    { name: 'baseline', core: baselineModule.createMockCore(options), headers: auth },
    { name: 'default session', core: createMockCore(options), headers: auth },
    { name: 'in a session', core: createMockCore(options), headers: { ...auth, 'x-mock-session': 'bench' } },
  ];
  const body = new TextEncoder().encode(deployBody);
  const deploy = (headers: Record<string, string>): MockRequest => ({
    method: 'POST',
    path: '/v1/agents/deploy',
    query: '',
    headers: { ...headers, 'content-type': 'application/json' },
    body,
  });
  const agentIds = new Map<string, string>();
  for (const variant of variants) {
    const answer = await variant.core.handle(deploy(variant.headers));
    agentIds.set(variant.name, (JSON.parse(answer.body) as { agentId: string }).agentId);
  }
  const samples = new Map<string, number[]>();
  const load = loadavg()[0] ?? 0;
  // Round -1 warms every path up (JIT, caches) and is not counted.
  for (let round = -1; round < rounds; round += 1) {
    for (let offset = 0; offset < variants.length; offset += 1) {
      const variant = variants[(round + 1 + offset) % variants.length] as Variant;
      const get = (headers: Record<string, string>): MockRequest => ({
        method: 'GET',
        path: `/v1/agents/${agentIds.get(variant.name) ?? ''}`,
        query: '',
        headers,
        body: null,
      });
      for (const [op, make] of [
        ['getAgent', get],
        ['deployAgent', deploy],
      ] as const) {
        const key = `${op}|${variant.name}`;
        const figure = await cpuPerRequest(variant, make, count);
        if (round >= 0) samples.set(key, [...(samples.get(key) ?? []), figure]);
      }
    }
  }
  const lines = [
    `| operation | ${variants.map((v) => `${v.name} µs CPU/request`).join(' | ')} | default/baseline | session/baseline |`,
    `|---|${variants.map(() => '---').join('|')}|---|---|`,
  ];
  for (const op of ['getAgent', 'deployAgent']) {
    const figures = variants.map((v) => median(samples.get(`${op}|${v.name}`) ?? []));
    const [base = NaN, plain = NaN, session = NaN] = figures;
    lines.push(
      `| ${op} | ${figures.map((f) => f.toFixed(1)).join(' | ')} | ${(plain / base).toFixed(3)}× | ${(session / base).toFixed(3)}× |`,
    );
  }
  process.stdout.write(
    `${lines.join('\n')}\n\nmedian of ${rounds} interleaved rounds × ${count} requests; load average ${load.toFixed(2)} before, ${(loadavg()[0] ?? 0).toFixed(2)} after; ${process.version}\n`,
  );
}

await main(process.argv.slice(2));
