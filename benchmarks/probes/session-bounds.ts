// What sessions and overrides cost a running fake: `serve --agents 100000`, then 100 requests each naming a new
// session (from a page of another site, then from loopback with a token), then 189 unchecked overrides of ~1 MiB in
// 63 sessions. Prints RSS before and after, the slowest request and whether the fake is alive.
// Runs alone: `node benchmarks/probes/session-bounds.ts`.
import { loadavg } from 'node:os';
import { mintToken } from '../../mocks/core/request/auth.ts';
import { operations } from '../../spec/index.ts';
import { memoryOf, spawnServer } from '../../test/support/spawned-server.ts';

const MB = 1024 * 1024;
const rssMb = (pid: number): number => Math.round(memoryOf(pid).rss / MB);

/** 100 GETs, each with a new X-Mock-Session, the given headers added. */
async function newSessions(base: string, pid: number, label: string, headers: Record<string, string>): Promise<void> {
  const before = rssMb(pid);
  const statuses = new Map<number, number>();
  let slowest = 0;
  for (let i = 0; i < 100; i += 1) {
    const started = performance.now();
    const answer = await fetch(`${base}/v1/agents/x`, {
      headers: { 'x-mock-session': `${label.replace(/\W+/g, '-')}-${i}`, ...headers },
    });
    await answer.arrayBuffer();
    slowest = Math.max(slowest, performance.now() - started);
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  }
  console.log(
    `${label}: 100 new sessions, statuses ${JSON.stringify(Object.fromEntries(statuses))}, RSS ${before} -> ${rssMb(pid)} MB, slowest ${slowest.toFixed(1)} ms`,
  );
}

/** 189 unchecked overrides with a body just under 1 MiB: every operation in each of 63 sessions. */
async function overrideFlood(base: string, pid: number): Promise<void> {
  const body = JSON.stringify(Array(349_000).fill({}));
  const statuses = new Map<string, number>();
  let peak = 0;
  for (let session = 0; session < 63; session += 1)
    for (const operation of operations.keys()) {
      const status = await fetch(`${base}/__mock/overrides`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-mock-session': `flood-${session}` },
        body: `{"operation":"${operation}","status":200,"unchecked":true,"body":${body}}`,
      }).then(
        async (answer) => {
          await answer.arrayBuffer();
          return String(answer.status);
        },
        () => 'error',
      );
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      peak = Math.max(peak, rssMb(pid));
    }
  const health = await fetch(`${base}/__mock/health`).then(
    (answer) => answer.status,
    () => 'dead',
  );
  console.log(
    `override flood: statuses ${JSON.stringify(Object.fromEntries(statuses))}, peak RSS ${peak} MB, after ${rssMb(pid)} MB, health ${health}`,
  );
}

const fake = await spawnServer({
  name: 'session-bounds',
  args: ['scripts/cli.ts', 'serve', '--port', '0', '--agents', '100000'],
  ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
});
try {
  await (await fetch(`${fake.baseUrl}/v1/agents/x`)).arrayBuffer();
  const token = await mintToken({ sub: 'probe' });
  console.log(`start RSS ${rssMb(fake.pid)} MB, load average ${loadavg()[0]?.toFixed(2)}`);
  await newSessions(fake.baseUrl, fake.pid, 'foreign origin', { origin: 'https://evil.example' });
  await newSessions(fake.baseUrl, fake.pid, 'loopback with a token', { authorization: `Bearer ${token}` });
  await overrideFlood(fake.baseUrl, fake.pid);
} finally {
  await fake.stop();
}
