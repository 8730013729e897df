// What `pact verify` costs on a hostile pact at its 16 MiB input cap: for each shape of test/support/hostile-pact.ts,
// the command's peak RSS (from /usr/bin/time -v), wall time, exit status and the sizes of its --json and --junit.
// Runs alone: `node benchmarks/probes/pact/verify-cost.ts [--mib 16] [--interactions 160]`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { numberFlag, parseCommandLine } from '../../../scripts/command-line.ts';
import { hostilePact, type HostileShape } from '../../../test/support/hostile-pact.ts';

const usage = 'usage: node benchmarks/probes/pact/verify-cost.ts [--mib N] [--interactions N]';
const values = parseCommandLine({ mib: { type: 'string' }, interactions: { type: 'string' } }, { usage });
const mib = numberFlag('mib', values.mib ?? '16', { min: 0.01, max: 16 }, usage);
const interactions = numberFlag(
  'interactions',
  values.interactions ?? '160',
  { integer: true, min: 1, max: 100_000 },
  usage,
);
const bytes = Math.floor(mib * 2 ** 20) - 4096;
const directory = mkdtempSync(join(tmpdir(), 'ark-pact-verify-cost-'));
const cli = new URL('../../../scripts/cli.ts', import.meta.url).pathname;
const mb = (size: number): string => `${(size / 2 ** 20).toFixed(1)} MiB`;
try {
  console.log(`load average ${loadavg()[0]?.toFixed(2)}`);
  for (const shape of ['wrong-items', 'long-keys', 'tiny'] as HostileShape[]) {
    const pact = join(directory, `${shape}.json`);
    const json = join(directory, `${shape}.report.json`);
    const junit = join(directory, `${shape}.xml`);
    writeFileSync(pact, hostilePact(shape, bytes, interactions));
    const started = performance.now();
    const run = spawnSync(
      '/usr/bin/time',
      ['-v', process.execPath, cli, 'pact', 'verify', '--pact', pact, '--json', json, '--junit', junit],
      { encoding: 'utf8', maxBuffer: 2 ** 26 },
    );
    const seconds = (performance.now() - started) / 1000;
    const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1] ?? Number.NaN) * 1024;
    const size = (file: string): string => {
      try {
        return mb(statSync(file).size);
      } catch {
        return 'none';
      }
    };
    console.log(
      `${shape}: pact ${mb(statSync(pact).size)}; exit ${run.status}; ${seconds.toFixed(1)} s; peak RSS ${mb(rss)}; ` +
        `--json ${size(json)}; --junit ${size(junit)}; stdout ${mb(run.stdout.length)}`,
    );
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
