// The scale section: the fake's memory and speed with 1k, 10k and 100k agents, seeded or deployed.
import { primaryCreation } from '../verifier-client/requests/linked-operations.ts';
import { fillPath } from '../verifier-client/requests/path-parameters.ts';
import { memoryOf } from '../test/support/spawned-server.ts';
import { fmt, load, log, mb, measure } from './load.ts';
import type { Options } from './options.ts';
import { deployBody, headers, startAndProbe } from './servers.ts';

/** The fake with N agents: memory and speed. */
export interface ScaleRow {
  agents: number;
  /** `seeded`: started with --agents N; `deployed`: filled through POST /v1/agents/deploy. */
  how: 'seeded' | 'deployed';
  coldStartMs: number;
  rssMb: number;
  fillRps: number;
  getRps: number;
  getP99: number;
  executeRps: number;
  executeP99: number;
}

// What is measured comes from the spec's links: the write that creates an agent fills the fake, the GET that reads it
// back and the first write made on it are timed (a deploy, a retrieve and a task submission in this API).
const { creator, readBack, submissions } = primaryCreation();
const submission = submissions[0] ?? readBack;

async function scaleRow(options: Options, size: number, how: ScaleRow['how']): Promise<ScaleRow> {
  const probe = await startAndProbe('fake', options, how === 'seeded' ? ['--agents', String(size)] : []);
  try {
    let fillRps = Number.NaN;
    if (how === 'deployed') {
      const health = (await (await fetch(`${probe.server.baseUrl}/__mock/health`)).json()) as { agents: number };
      const fill = await load(`${probe.server.baseUrl}${fillPath(creator, {})}`, {
        method: 'POST',
        headers: headers(),
        body: deployBody,
        connections: 50,
        amount: Math.max(0, size - health.agents),
      });
      if (fill.non2xx || fill.errors)
        throw new Error(`filling the fake to ${size} agents: ${fill.non2xx} non-2xx, ${fill.errors} errors`);
      fillRps = fill.requests.total / fill.duration;
    }
    // Let the allocator settle so RSS is the store's, not a burst's.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const rss = memoryOf(probe.server.pid).rss;
    const get = await measure(probe, readBack, 50, options.duration);
    const execute = await measure(probe, submission, 50, options.duration);
    log(
      `scale ${fmt(size)} agents (${how}): cold start ${fmt(probe.coldStartMs)} ms, RSS ${mb(rss)} MB, GET ${fmt(get.rps)} req/s p99 ${get.p99} ms, execute ${fmt(execute.rps)} req/s p99 ${execute.p99} ms${how === 'deployed' ? `, filled at ${fmt(fillRps)} deploys/s` : ''}`,
    );
    return {
      agents: size,
      how,
      coldStartMs: probe.coldStartMs,
      rssMb: mb(rss),
      fillRps,
      getRps: get.rps,
      getP99: get.p99,
      executeRps: execute.rps,
      executeP99: execute.p99,
    };
  } finally {
    await probe.server.stop();
  }
}

/** The fake with 1k, 10k and 100k agents: seeded at start (--agents), and the largest also reached through deploys. */
export async function scale(options: Options): Promise<ScaleRow[]> {
  const sizes = [...options.scale].sort((a, b) => a - b);
  const rows: ScaleRow[] = [];
  for (const size of sizes) rows.push(await scaleRow(options, size, 'seeded'));
  const largest = sizes.at(-1);
  if (largest !== undefined) rows.push(await scaleRow(options, largest, 'deployed'));
  return rows;
}
