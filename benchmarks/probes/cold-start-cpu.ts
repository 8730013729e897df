// The fake's cold start as CPU time, which a loaded machine does not stretch as it does the bench's wall-clock figure:
// each given serve command started in a fresh process, one deploy answered 201, then the process's user + system CPU
// read from /proc (Linux); the commands alternate, and the medians are printed with the wall times beside them. Compare
// another checkout (`git worktree add /tmp/old <commit>`, its node_modules linked or installed) with this one:
// `node benchmarks/probes/cold-start-cpu.ts [--runs 9] scripts/commands/serve.ts /tmp/old/scripts/commands/serve.ts
// "dist/scripts/cli.js serve"` (each argument a serve command: a script and its leading arguments; the packed CLI is
// dist/, after `npm run build`).
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { deployOne } from '../servers.ts';
import { spawnServer } from '../../test/support/spawned-server.ts';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt === -1 ? 9 : Number(args[runsAt + 1]);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of runs, at least 1');
const commands = args.filter((_, index) => index !== runsAt && index !== runsAt + 1);
if (commands.length === 0) commands.push('scripts/commands/serve.ts');

/** The user + system CPU a process has used, in ms (fields 14 and 15 of /proc/PID/stat, in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const samples = new Map(commands.map((command) => [command, { cpu: [] as number[], wall: [] as number[] }]));
for (let run = 0; run < runs; run += 1) {
  for (const command of commands) {
    const started = performance.now();
    const server = await spawnServer({
      name: 'fake',
      args: [...command.split(' '), '--port', '0', '--host', '127.0.0.1'],
      ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    });
    try {
      await deployOne(server);
      samples.get(command)?.wall.push(Math.round(performance.now() - started));
      samples.get(command)?.cpu.push(cpuMs(server.pid));
    } finally {
      await server.stop();
    }
  }
}
for (const [command, { cpu, wall }] of samples)
  console.log(`${command}: CPU ${median(cpu)} ms, wall ${median(wall)} ms (median of ${runs}; CPU ${cpu.join(' ')})`);
console.log(
  `load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);
