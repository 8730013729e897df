// `npm run contract:seeds -- [--seeds N] [--from S]`: runs `contract --seed-only` against the seed-faithful server
// (test/seed-faithful/seed-faithful-server.ts) for N seeds (default 200, from S, default a random start) and reports the
// seeds run, the false alarms (a seed whose run failed: the suite blamed a faithful server; the goal is 0), each with
// its failed checks and the command that replays it, and the time taken. Exits 1 on any false alarm.
import { parseArgs } from 'node:util';
import { runContractMatrix } from '../contract/contract-matrix.ts';
import { fakeToken, failedChecks } from '../contract/contract-runner.ts';
import { startSeedFaithfulServer } from './seed-faithful-server.ts';

const { values } = parseArgs({ options: { seeds: { type: 'string', default: '200' }, from: { type: 'string' } } });
const count = Number(values.seeds);
const from = values.from === undefined ? Math.floor(Math.random() * 2 ** 30) : Number(values.from);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(from) || from < 0) {
  console.error('usage: npm run contract:seeds -- [--seeds N] [--from S]');
  process.exit(2);
}
const started = performance.now();
const token = await fakeToken();
const server = await startSeedFaithfulServer(token);
const seeds = Array.from({ length: count }, (_, index) => from + index);
let alarms = 0;
try {
  // Two processes, as the self-check's matrices: the machine's two cores.
  const runs = await runContractMatrix(
    seeds.map((seed) => ({
      env: { API_BASE_URL: server.url, API_TOKEN: token },
      args: ['--seed-only', '--seed', String(seed)],
    })),
    2,
  );
  for (const [index, run] of runs.entries()) {
    if (run.report?.verdict === 'passed') continue;
    alarms += 1;
    const checks = run.report ? failedChecks(run.report) : [];
    console.log(`false alarm with --seed ${seeds[index]}: ${JSON.stringify(checks)}`);
    const replay = run.report?.checks.find((check) => check.generated?.replay)?.generated?.replay;
    if (replay !== undefined) console.log(`  ${replay} --seed-only`);
  }
} finally {
  await server.close();
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`seeds run: ${count} (${from}..${from + count - 1}); false alarms: ${alarms} (goal 0); time: ${seconds} s`);
process.exitCode = alarms === 0 ? 0 : 1;
