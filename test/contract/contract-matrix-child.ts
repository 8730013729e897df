// The child process of runContractMatrix: reads the jobs (environment and arguments of each contract run) and the
// suite's setup files as JSON on stdin, runs the suite for each job one after the other in this one process, and writes each run's console report,
// --json and --junit into the directory named by its argument, as `<index>.out`, `<index>.json`, `<index>.xml`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { planRun } from '../../contract-tests/check-plan.ts';
import { createRedactor } from '../../verifier-client/redaction.ts';
import { openSuite } from '../../contract-tests/suite-runner.ts';
import { readArgs } from '../../scripts/commands/contract.ts';
import type { MatrixInput } from './contract-matrix.ts';

const outDir = process.argv[2] ?? '';
const { jobs, setupFiles } = JSON.parse(await text(process.stdin)) as MatrixInput;
// One vitest for every run (starting vitest and transforming the suite is most of a run's cost); each run
// still starts its own worker, where every file builds its session from that run's options. One worker thread per
// run instead of one forked process: the same suite and checks, a fifth less CPU per run.
const suite = await openSuite({ pool: 'threads', setupFiles });
for (const [index, job] of jobs.entries()) {
  const { options } = readArgs(job.args, job.env);
  let console = '';
  await suite.run({
    options,
    plan: planRun({ maxWrites: options.maxWrites, readOnly: options.readOnly, runs: options.runs }),
    redact: createRedactor(options.token),
    jsonFile: join(outDir, `${index}.json`),
    junitFile: join(outDir, `${index}.xml`),
    write: (chunk) => {
      console += chunk;
    },
  });
  writeFileSync(join(outDir, `${index}.out`), console);
}
await suite.close();
// vitest sets process.exitCode when a run fails (every broken server's does) and may leave handles open: the matrix
// itself succeeded once every run is written.
process.exit(0);
