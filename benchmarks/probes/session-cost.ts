// What sessions cost per request, in process CPU time (steadier than req/s on a loaded machine): GET and deploy through
// the core of another checkout (`--baseline DIR`, e.g. a `git worktree` of main), through this core without a session,
// and through this core in a session, interleaved round by round. Each measurement runs in a process of its own, so no
// variant's traffic shapes the JIT's view of another's code.
// Usage: node benchmarks/probes/session-cost.ts --baseline DIR [--rounds 15] [--requests 2000]
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { createMockCore, type MockCore } from '../../mocks/assembly/mock-core.ts';
import { silentLogger } from '../../mocks/domain/logger.ts';
import type { MockRequest } from '../../mocks/core/mock-http.ts';
import { primaryCreation } from '../../verifier-client/requests/linked-operations.ts';
import { fillPath } from '../../verifier-client/requests/path-parameters.ts';
import { getAtPointer, type JsonValue } from '../../spec/index.ts';
import { cliError } from '../../scripts/cli-error.ts';
import { numberFlag, parseCommandLine } from '../../scripts/command-line.ts';
import { deployBody } from '../servers.ts';

const usage = 'usage: node benchmarks/probes/session-cost.ts --baseline DIR [--rounds N] [--requests N]';
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

const VARIANTS = ['baseline', 'default session', 'in a session'] as const;
type VariantName = (typeof VARIANTS)[number];
// The GET and the deploy are the spec's: the creating operation its links name and the GET that reads it back.
const primary = primaryCreation();
const OPS = ['readBack', 'creator'] as const;

/** Where a checkout keeps createMockCore: the assembly's floor, or the core folder before mocks/ had its floors. */
function baselineAssembly(root: string): string {
  const assembly = 'mocks/assembly/mock-core.ts';
  return existsSync(join(resolve(root), assembly)) ? assembly : 'mocks/core/core.ts';
}

/** In a child: one variant, warmed up, then `count` GETs and `count` deploys; prints µs CPU per request of each. */
async function child(name: VariantName, baseline: string, count: number): Promise<void> {
  const options = { seed: 42, logger: silentLogger, failureRatio: 0 };
  const auth = { authorization: `Bearer ${await mintToken({ sub: 'bench' })}` };
  const make =
    name === 'baseline'
      ? (
          (await import(pathToFileURL(join(resolve(baseline), baselineAssembly(baseline))).href)) as {
            createMockCore: typeof createMockCore;
          }
        ).createMockCore
      : createMockCore;
  const variant: Variant = {
    name,
    core: make(options),
    headers: name === 'in a session' ? { ...auth, 'x-mock-session': 'bench' } : auth,
  };
  const body = new TextEncoder().encode(deployBody);
  const deploy = (headers: Record<string, string>): MockRequest => ({
    method: 'POST',
    path: fillPath(primary.creator, {}),
    query: '',
    headers: { ...headers, 'content-type': 'application/json' },
    body,
  });
  const answer = await variant.core.handle(deploy(variant.headers));
  // JSON.parse gives JSON values only; the id is wherever the spec's link says the answer carries it.
  const id = getAtPointer(JSON.parse(answer.body) as JsonValue, primary.field);
  const get = (headers: Record<string, string>): MockRequest => ({
    method: 'GET',
    path: fillPath(primary.readBack, { [primary.parameter]: String(id) }),
    query: '',
    headers,
    body: null,
  });
  // A warm-up of the same size, not counted (JIT, caches).
  await cpuPerRequest(variant, get, count);
  await cpuPerRequest(variant, deploy, count);
  const figures = {
    readBack: await cpuPerRequest(variant, get, count),
    creator: await cpuPerRequest(variant, deploy, count),
  };
  process.stdout.write(JSON.stringify(figures));
}

async function main(args: string[]): Promise<void> {
  const values = parseCommandLine(
    {
      baseline: { type: 'string' },
      rounds: { type: 'string' },
      requests: { type: 'string' },
      child: { type: 'string' },
    },
    { usage },
    args,
  );
  if (values.baseline === undefined) cliError(`--baseline DIR is required; ${usage}`);
  const rounds = numberFlag('rounds', values.rounds ?? '15', { integer: true, min: 1 }, usage);
  const count = numberFlag('requests', values.requests ?? '2000', { integer: true, min: 1 }, usage);
  if (values.child !== undefined) return child(values.child as VariantName, values.baseline, count);
  const samples = new Map<string, number[]>();
  const load = loadavg()[0] ?? 0;
  const script = fileURLToPath(import.meta.url);
  for (let round = 0; round < rounds; round += 1) {
    for (let offset = 0; offset < VARIANTS.length; offset += 1) {
      const name = VARIANTS[(round + offset) % VARIANTS.length] as VariantName;
      const output = execFileSync(
        process.execPath,
        [script, '--child', name, '--baseline', values.baseline, '--requests', String(count)],
        { encoding: 'utf8' },
      );
      const figures = JSON.parse(output) as Record<(typeof OPS)[number], number>;
      for (const op of OPS) samples.set(`${op}|${name}`, [...(samples.get(`${op}|${name}`) ?? []), figures[op]]);
    }
  }
  const lines = [
    `| operation | ${VARIANTS.map((v) => `${v} µs CPU/request`).join(' | ')} | default/baseline | session/baseline |`,
    `|---|${VARIANTS.map(() => '---').join('|')}|---|---|`,
  ];
  for (const op of OPS) {
    const figures = VARIANTS.map((v) => median(samples.get(`${op}|${v}`) ?? []));
    const [base = NaN, plain = NaN, session = NaN] = figures;
    lines.push(
      `| ${primary[op]} | ${figures.map((f) => f.toFixed(1)).join(' | ')} | ${(plain / base).toFixed(3)}× | ${(session / base).toFixed(3)}× |`,
    );
  }
  process.stdout.write(
    `${lines.join('\n')}\n\nmedian of ${rounds} interleaved rounds × ${count} requests, one process per measurement; load average ${load.toFixed(2)} before, ${(loadavg()[0] ?? 0).toFixed(2)} after; ${process.version}\n`,
  );
}

await main(process.argv.slice(2));
