// What `proxy --record` costs each exchange as the recording grows: 1,000 answers of 64 KiB (up to the limit), then
// 600 small GETs past it; per batch the p50/p95 time, the proxy's write() calls and bytes per request (/proc/<pid>/io,
// the answer sent to the app included) and the file's size. Runs alone: `node benchmarks/probes/recording-cost.ts`.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureServer } from '../../test/support/fixture-server.ts';
import { memoryOf, spawnServer } from '../../test/support/spawned-server.ts';

const big = JSON.stringify({ filler: 'x'.repeat(64 * 1024) });
const upstream = await startFixtureServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(request.url?.includes('big') ? big : '{"agentId":"agt_1"}');
});
const folder = mkdtempSync(join(tmpdir(), 'agent-registry-kit-recording-'));
const file = join(folder, 'recording.json');
const proxy = await spawnServer({
  name: 'recording-cost',
  args: [
    'scripts/cli.ts',
    'proxy',
    '--upstream',
    upstream.url,
    '--port',
    '0',
    '--record',
    file,
    '--record-limit',
    '1000',
  ],
  ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
});

/** The proxy's write() calls and bytes written so far. */
function written(): { calls: number; bytes: number } {
  const io = readFileSync(`/proc/${proxy.pid}/io`, 'utf8');
  return { calls: Number(/syscw: (\d+)/.exec(io)?.[1]), bytes: Number(/wchar: (\d+)/.exec(io)?.[1]) };
}

async function batch(label: string, count: number, path: string): Promise<void> {
  const times: number[] = [];
  const before = written();
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const answer = await fetch(`${proxy.baseUrl}${path}${i}`, {
      headers: { authorization: 'Bearer probe-token-0123' },
    });
    await answer.arrayBuffer();
    times.push(performance.now() - started);
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = written();
  times.sort((a, b) => a - b);
  const at = (share: number): string => (times[Math.floor(share * times.length)] ?? 0).toFixed(1);
  console.log(
    `${label}: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, write() ${((after.calls - before.calls) / count).toFixed(1)}/request, ` +
      `${Math.round((after.bytes - before.bytes) / count)} bytes/request, file ${statSync(file).size} bytes, ` +
      `RSS ${Math.round(memoryOf(proxy.pid).rss / 1024 / 1024)} MB`,
  );
}

try {
  console.log(`load average ${loadavg()[0]?.toFixed(2)}`);
  for (let k = 0; k < 10; k += 1)
    await batch(`64 KiB answers ${k * 100 + 1}-${k * 100 + 100}`, 100, `/v1/agents/big_${k}_`);
  for (let k = 0; k < 3; k += 1) await batch(`small GETs past the limit, batch ${k + 1}`, 200, '/v1/agents/agt_');
} finally {
  await proxy.stop();
  await upstream.close();
  rmSync(folder, { recursive: true, force: true });
}
