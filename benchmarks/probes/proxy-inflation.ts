// The validating proxy in front of an upstream whose gzip answer inflates to N MiB: three GETs through
// `agent-registry-kit proxy`, the proxy's RSS before and at its peak, and whether it still answers its health route.
// Runs alone: `node benchmarks/probes/proxy-inflation.ts [--mib 100] [--fail-on-violation]`.
import { get } from 'node:http';
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { numberFlag, parseCommandLine } from '../../scripts/command-line.ts';
import { startFixtureServer } from '../../test/support/fixture-server.ts';
import { memoryOf, spawnServer } from '../../test/support/spawned-server.ts';

const usage = 'usage: node benchmarks/probes/proxy-inflation.ts [--mib N] [--fail-on-violation]';
const values = parseCommandLine({ mib: { type: 'string' }, 'fail-on-violation': { type: 'boolean' } }, { usage });
const mib = numberFlag('mib', values.mib ?? '100', { integer: true, min: 1, max: 4096 }, usage);
const bomb = gzipSync(Buffer.alloc(mib * 1024 * 1024));
const upstream = await startFixtureServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  response.end(bomb);
});
const proxy = await spawnServer({
  name: 'proxy-inflation',
  args: [
    'scripts/cli.ts',
    'proxy',
    '--upstream',
    upstream.url,
    '--port',
    '0',
    ...(values['fail-on-violation'] ? ['--fail-on-violation'] : []),
  ],
  ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
});
try {
  const before = memoryOf(proxy.pid).rss;
  console.log(`${mib} MiB inflated from ${bomb.length} bytes of gzip; load average ${loadavg()[0]?.toFixed(2)}`);
  for (let i = 0; i < 3; i += 1) {
    const started = performance.now();
    // node:http hands the body on as sent (gzip), so the probe measures the proxy, not its own inflation.
    const { status, bytes } = await new Promise<{ status: number; bytes: number }>((resolve, reject) => {
      get(`${proxy.baseUrl}/v1/agents/agt_1`, (answer) => {
        let bytes = 0;
        answer.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, bytes }));
      }).on('error', reject);
    });
    console.log(`answer ${status}, ${bytes} bytes as sent, ${(performance.now() - started).toFixed(0)} ms`);
  }
  const health = await fetch(`${proxy.baseUrl}/__mock/health`).then((answer) => answer.status);
  const { rss, hwm } = memoryOf(proxy.pid);
  const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(0);
  console.log(`proxy RSS ${mb(before)} -> ${mb(rss)} MB (peak ${mb(hwm)} MB), health ${health}`);
} finally {
  await proxy.stop();
  await upstream.close();
}
