// The proxy section of `npm run bench`: what a validating proxy adds to each request, with the fake as the upstream.
// One request at a time over a keep-alive connection (a developer's app, not a load test), timed per request with
// performance.now(): the fake directly, through `agent-registry-kit proxy`, and through `prism proxy`, interleaved round
// by round. Runs alone: `node benchmarks/probes/proxy-overhead.ts [--requests N] [--rounds N]`.
import { execFileSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { primaryCreation } from '../../verifier-client/requests/linked-operations.ts';
import { successStatus } from '../../verifier-client/requests/operation-requests.ts';
import { fillPath } from '../../verifier-client/requests/path-parameters.ts';
import { numberFlag, parseCommandLine } from '../../scripts/command-line.ts';
import { freePort, memoryOf, repoRoot, spawnServer, type SpawnedServer } from '../../test/support/spawned-server.ts';
import { requestBody } from '../servers.ts';

export interface ProxyOverheadRow {
  target: 'fake directly' | 'agent-registry-kit proxy' | 'prism proxy';
  operation: 'GET agent' | 'deploy';
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than the expected status (a proxy that broke the exchange). */
  unexpected: number;
}

const log = (line: string): void => void process.stderr.write(`${line}\n`);
const round3 = (value: number): number => Math.round(value * 1000) / 1000;

function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

function timedRequest(
  agent: Agent,
  base: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request({ agent, host: base.hostname, port: base.port, method, path, headers }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, ms: performance.now() - started }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

interface Target {
  name: ProxyOverheadRow['target'];
  url: string;
}

/**
 * Measures each target, `rounds` times in turn, `requests` sequential requests of each operation per round.
 * @example const rows = await proxyOverhead({ requests: 2000, rounds: 3 });
 */
export async function proxyOverhead(options: { requests: number; rounds: number }): Promise<ProxyOverheadRow[]> {
  const node = process.execPath;
  const cli = 'scripts/cli.ts';
  const started: SpawnedServer[] = [];
  try {
    const fake = await spawnServer({
      name: 'fake',
      args: [cli, 'serve', '--port', '0'],
      ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    });
    started.push(fake);
    const ours = await spawnServer({
      name: 'agent-registry-kit proxy',
      args: [cli, 'proxy', '--upstream', fake.baseUrl, '--port', '0'],
      ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    });
    started.push(ours);
    const prismPort = await freePort();
    const prism = await spawnServer({
      name: 'prism proxy',
      args: [
        'node_modules/@stoplight/prism-cli/dist/index.js',
        'proxy',
        'spec/openapi.yaml',
        fake.baseUrl,
        '-h',
        '127.0.0.1',
        '-p',
        String(prismPort),
      ],
      ready: /Prism is listening/,
      port: prismPort,
      timeoutMs: 60_000,
    });
    started.push(prism);
    const token = execFileSync(node, ['scripts/commands/token.ts'], { cwd: repoRoot, encoding: 'utf8' }).trim();
    const list = (await (await fetch(`${fake.baseUrl}/__mock/agents?status=active`)).json()) as {
      agents: { agentId: string }[];
    };
    const agentId = list.agents[0]?.agentId ?? '';
    // The read and the create of the spec's links (a retrieve and a deploy here), with the create's first example.
    const { creator, readBack, parameter } = primaryCreation();
    const deployBody = requestBody(creator);
    const auth = { authorization: `Bearer ${token}` };
    const targets: Target[] = [
      { name: 'fake directly', url: fake.baseUrl },
      { name: 'agent-registry-kit proxy', url: ours.baseUrl },
      { name: 'prism proxy', url: `http://127.0.0.1:${prismPort}` },
    ];
    const operations = [
      {
        operation: 'GET agent' as const,
        method: 'GET',
        path: fillPath(readBack, { [parameter]: agentId }),
        headers: auth,
        body: undefined,
        expected: successStatus(readBack).status,
      },
      {
        operation: 'deploy' as const,
        method: 'POST',
        path: fillPath(creator, {}),
        headers: { ...auth, 'content-type': 'application/json' },
        body: deployBody,
        expected: successStatus(creator).status,
      },
    ];
    const samples = new Map<string, { ms: number[]; unexpected: number }>();
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const target of targets) {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        const base = new URL(target.url);
        for (const op of operations) {
          const key = `${target.name}\n${op.operation}`;
          const sample = samples.get(key) ?? { ms: [], unexpected: 0 };
          samples.set(key, sample);
          // A short warm-up per round: the connection and the JIT, not the figures.
          for (let i = 0; i < 50; i += 1) await timedRequest(agent, base, op.method, op.path, op.headers, op.body);
          for (let i = 0; i < options.requests; i += 1) {
            const { status, ms } = await timedRequest(agent, base, op.method, op.path, op.headers, op.body);
            sample.ms.push(ms);
            if (status !== op.expected) sample.unexpected += 1;
          }
        }
        agent.destroy();
        log(`proxy bench: round ${round}/${options.rounds}, ${target.name} done`);
      }
    }
    // The proxy's memory after every request: what its violation log and cross-exchange window keep is in it.
    const memory = memoryOf(ours.pid);
    log(
      `proxy bench: agent-registry-kit proxy RSS ${(memory.rss / 1_048_576).toFixed(1)} MiB, peak ${(memory.hwm / 1_048_576).toFixed(1)} MiB`,
    );
    return [...samples.entries()].map(([key, sample]) => {
      const [target, operation] = key.split('\n') as [ProxyOverheadRow['target'], ProxyOverheadRow['operation']];
      const sorted = [...sample.ms].sort((a, b) => a - b);
      return {
        target,
        operation,
        requests: sorted.length,
        p50Ms: round3(percentile(sorted, 0.5)),
        p99Ms: round3(percentile(sorted, 0.99)),
        unexpected: sample.unexpected,
      };
    });
  } finally {
    for (const server of started.reverse()) await server.stop();
  }
}

/** The Markdown table of the section: each target's p50/p99 and what it adds over the fake alone. */
export function proxyOverheadTable(rows: readonly ProxyOverheadRow[]): string {
  const direct = (operation: string) =>
    rows.find((row) => row.target === 'fake directly' && row.operation === operation);
  const lines = [
    '| operation | path | requests | p50 ms | p99 ms | added p50 ms | added p99 ms | unexpected answers |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const base = direct(row.operation);
    const added = (value: number, of: number | undefined) =>
      row.target === 'fake directly' || of === undefined ? '–' : round3(value - of).toFixed(3);
    lines.push(
      `| ${row.operation} | ${row.target} | ${row.requests} | ${row.p50Ms.toFixed(3)} | ${row.p99Ms.toFixed(3)} | ${added(row.p50Ms, base?.p50Ms)} | ${added(row.p99Ms, base?.p99Ms)} | ${row.unexpected} |`,
    );
  }
  return lines.join('\n');
}

if (import.meta.main) {
  const usage = 'usage: node benchmarks/probes/proxy-overhead.ts [--requests N] [--rounds N]';
  const values = parseCommandLine({ requests: { type: 'string' }, rounds: { type: 'string' } }, { usage });
  const before = loadavg()[0] ?? 0;
  const rows = await proxyOverhead({
    requests: numberFlag('requests', values.requests ?? '2000', { integer: true, min: 10 }, usage),
    rounds: numberFlag('rounds', values.rounds ?? '3', { integer: true, min: 1 }, usage),
  });
  process.stdout.write(
    `${proxyOverheadTable(rows)}\n\nload average ${before.toFixed(2)} before, ${(loadavg()[0] ?? 0).toFixed(2)} after\n`,
  );
}
