// `npm run soak`: holds 50 connections of mixed valid and invalid traffic against a fresh standalone fake on loopback for a
// set time, and reports every unexpected answer (there must be none), RSS at start and end, and p99 latency over time.
import autocannon from 'autocannon';
import { writeFileSync } from 'node:fs';
import { mintToken } from '../mocks/core/request/auth.ts';
import { LOG_PREFIX } from '../mocks/domain/logger.ts';
import { getAtPointer, openapiDocument } from '../spec/index.ts';
import { cliError } from '../scripts/cli-error.ts';
import { numberFlag, parseCommandLine } from '../scripts/command-line.ts';
import { memoryOf, spawnServer, type SpawnedServer } from '../test/support/spawned-server.ts';

const usage = 'usage: npm run soak -- [--duration S] [--connections N] [--interval S] [--json FILE]';

function readOptions() {
  const values = parseCommandLine(
    {
      duration: { type: 'string', default: '60' },
      connections: { type: 'string', default: '50' },
      interval: { type: 'string', default: '5' },
      json: { type: 'string' },
    },
    { usage },
  );
  const number = (flag: string, raw: string, max: number): number => numberFlag(flag, raw, { above: 0, max }, usage);
  return {
    // Bounded on purpose: a soak that forgets to stop would hold a core of a shared machine.
    duration: number('duration', values.duration, 3600),
    connections: Math.round(number('connections', values.connections, 1000)),
    interval: number('interval', values.interval, 600),
    json: values.json,
  };
}

function example(name: string): string {
  const value = getAtPointer(openapiDocument, `/components/examples/${name}/value`);
  if (value === undefined) throw new Error(`spec/openapi.yaml has no example ${name}`);
  return JSON.stringify(value);
}

/** One kind of request in the mix, and the only status it may get. */
interface Probe {
  name: string;
  request: autocannon.Request;
  expect: number;
}

function mix(agentId: string, authorization: string): Probe[] {
  const json = { authorization, 'content-type': 'application/json' };
  const deploy = example('DeployRequestTrading');
  return [
    {
      name: 'GET agent',
      expect: 200,
      request: { method: 'GET', path: `/v1/agents/${agentId}`, headers: { authorization } },
    },
    {
      name: 'POST deploy',
      expect: 201,
      request: { method: 'POST', path: '/v1/agents/deploy', headers: json, body: deploy },
    },
    {
      name: 'POST execute',
      expect: 200,
      request: {
        method: 'POST',
        path: `/v1/agents/${agentId}/execute`,
        headers: json,
        body: example('ExecuteRequestAnalysis'),
      },
    },
    {
      name: 'GET unknown agent',
      expect: 404,
      request: { method: 'GET', path: '/v1/agents/agt_doesNotExist', headers: { authorization } },
    },
    {
      name: 'deploy breaking the schema',
      expect: 400,
      request: {
        method: 'POST',
        path: '/v1/agents/deploy',
        headers: json,
        body: '{"name":"","category":"poker","model":"gpt-5","initialSupply":-1,"revenueShare":7}',
      },
    },
    {
      name: 'deploy with malformed JSON',
      expect: 400,
      request: { method: 'POST', path: '/v1/agents/deploy', headers: json, body: deploy.slice(0, 40) },
    },
    {
      name: 'execute without a task',
      expect: 400,
      request: { method: 'POST', path: `/v1/agents/${agentId}/execute`, headers: json, body: '{"priority":"urgent"}' },
    },
    { name: 'GET without a token', expect: 401, request: { method: 'GET', path: `/v1/agents/${agentId}` } },
    {
      name: 'GET with a forged token',
      expect: 401,
      request: {
        method: 'GET',
        path: `/v1/agents/${agentId}`,
        headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.forged' },
      },
    },
    {
      name: 'deploy as text/plain',
      expect: 415,
      request: {
        method: 'POST',
        path: '/v1/agents/deploy',
        headers: { authorization, 'content-type': 'text/plain' },
        body: deploy,
      },
    },
    {
      name: 'DELETE agent',
      expect: 405,
      request: { method: 'DELETE', path: `/v1/agents/${agentId}`, headers: { authorization } },
    },
    {
      name: 'GET a 200-character id',
      expect: 400,
      request: { method: 'GET', path: `/v1/agents/${'x'.repeat(200)}`, headers: { authorization } },
    },
    {
      name: 'GET an unknown path',
      expect: 404,
      request: { method: 'GET', path: '/v2/agents', headers: { authorization } },
    },
  ];
}

function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
}

const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function main(): Promise<void> {
  const options = readOptions();
  const authorization = `Bearer ${await mintToken({ sub: 'soak', ttlSeconds: options.duration + 600 })}`;
  let fake: SpawnedServer | undefined;
  let instance: autocannon.Instance | undefined;
  const stop = async (): Promise<void> => {
    instance?.stop();
    await fake?.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`${LOG_PREFIX} soak stopped by ${signal}\n`);
      void stop().finally(() => process.exit(130));
    });
  }
  try {
    fake = await spawnServer({
      name: 'fake backend',
      args: ['scripts/commands/serve.ts', '--port', '0', '--host', '127.0.0.1'],
      ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    });
    const deployed = await fetch(`${fake.baseUrl}/v1/agents/deploy`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: example('DeployRequestTrading'),
    });
    const agentId = ((await deployed.json()) as { agentId: string }).agentId;
    const probes = mix(agentId, authorization);
    const unexpected = new Map<string, { count: number; sample: string }>();
    const requests: autocannon.Request[] = probes.map((probe) => ({
      ...probe.request,
      onResponse: (status: number, body: string) => {
        if (status === probe.expect) return;
        const key = `${probe.name}: ${status} (expected ${probe.expect})`;
        const seen = unexpected.get(key);
        unexpected.set(key, { count: (seen?.count ?? 0) + 1, sample: seen?.sample ?? body.slice(0, 300) });
      },
    }));

    const rssStart = memoryOf(fake.pid).rss;
    const windows: { untilSecond: number; requests: number; p50: number; p99: number; max: number; rssMb: number }[] =
      [];
    let latencies: number[] = [];
    const began = performance.now();
    const cut = (): void => {
      const sorted = latencies.sort((a, b) => a - b);
      const window = {
        untilSecond: Math.round((performance.now() - began) / 1000),
        requests: sorted.length,
        p50: percentile(sorted, 0.5),
        p99: percentile(sorted, 0.99),
        max: sorted.at(-1) ?? Number.NaN,
        rssMb: fake ? mb(memoryOf(fake.pid).rss) : Number.NaN,
      };
      windows.push(window);
      latencies = [];
      process.stderr.write(
        `soak ${String(window.untilSecond).padStart(4)} s: ${window.requests} requests, p50 ${window.p50.toFixed(1)} ms, p99 ${window.p99.toFixed(1)} ms, max ${window.max.toFixed(1)} ms, RSS ${window.rssMb} MB\n`,
      );
    };
    const timer = setInterval(cut, options.interval * 1000);
    let transportErrors = 0;
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      instance = autocannon(
        {
          url: fake?.baseUrl ?? '',
          requests,
          connections: options.connections,
          duration: options.duration,
          timeout: 10,
        },
        (error, done) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(done)),
      );
      instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
      instance.on('reqError', () => (transportErrors += 1));
    });
    clearInterval(timer);
    if (latencies.length) cut();
    const alive = fake.child.exitCode === null && fake.child.signalCode === null;
    const rssEnd = memoryOf(fake.pid).rss;
    const unexpectedCount =
      [...unexpected.values()].reduce((sum, entry) => sum + entry.count, 0) +
      result.errors +
      result.timeouts +
      (alive ? 0 : 1);
    const report = {
      date: new Date().toISOString(),
      seconds: result.duration,
      connections: options.connections,
      requests: result.requests.total,
      reqPerSecond: Math.round(result.requests.total / result.duration),
      mix: probes.map((probe) => `${probe.name} → ${probe.expect}`),
      unexpected: Object.fromEntries(unexpected),
      connectionErrors: result.errors,
      timeouts: result.timeouts,
      transportErrors,
      serverAlive: alive,
      rssStartMb: mb(rssStart),
      rssEndMb: mb(rssEnd),
      windows,
    };
    process.stdout.write(
      `${[
        `soak: ${report.requests.toLocaleString('en-US')} requests in ${report.seconds.toFixed(0)} s over ${options.connections} connections (${report.reqPerSecond.toLocaleString('en-US')} req/s), ${probes.length} kinds of request, valid and invalid`,
        `unexpected answers: ${unexpectedCount}${unexpected.size ? `\n${[...unexpected].map(([key, entry]) => `  ${entry.count} × ${key}; e.g. ${entry.sample}`).join('\n')}` : ''}`,
        `connection errors: ${result.errors}, timeouts: ${result.timeouts}, server alive at the end: ${alive ? 'yes' : 'NO'}`,
        `RSS: ${report.rssStartMb} MB at start, ${report.rssEndMb} MB at the end`,
        `p99 over time (ms, per ${options.interval} s): ${windows.map((w) => w.p99.toFixed(0)).join(' ')}`,
      ].join('\n')}\n`,
    );
    if (options.json) writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
    await stop();
    if (unexpectedCount > 0) process.exit(1);
  } catch (error) {
    await stop();
    cliError(`soak failed: ${error instanceof Error ? error.message : String(error)}`, 1);
  }
}

await main();
