// `npm run bench` options: which targets, operations and sections to run, for how long; read from the command line once.
import { operations, type OperationId } from '../spec/index.ts';
import { cliError } from '../scripts/cli-error.ts';
import { listFlag, numberFlag, parseCommandLine } from '../scripts/command-line.ts';

/** Every section of the bench, in the order it runs them; the one list the type and the usage line come from. */
export const allSections = [
  'throughput',
  'path',
  'cold',
  'scale',
  'steady',
  'msw',
  'persistence',
  'proxy',
  'replicas',
] as const;
export type Section = (typeof allSections)[number];
/**
 * `session`: this fake with every request in one session (X-Mock-Session); `baseline`: the fake of another checkout
 * (`--baseline DIR`, e.g. a `git worktree` of main), to compare code side by side in one interleaved run.
 */
export type Target = 'fake' | 'prism' | 'bare' | 'session' | 'baseline';
const knownTargets: Target[] = ['fake', 'prism', 'bare', 'session', 'baseline'];
export const allTargets: Target[] = ['fake', 'prism', 'bare'];
/** Every operation of the spec, each measured on its own. */
export const allOps: OperationId[] = [...operations.keys()];

export const usage =
  'usage: npm run bench -- [--quick] [--duration S] [--requests N] [--rounds N] [--connections 1,50] [--targets fake,prism,bare,session,baseline] [--baseline DIR] ' +
  `[--sections ${allSections.join(',')}] [--scale 1000,10000,100000] [--steady S] [--json FILE] ` +
  '[--fake-node-args="--cpu-prof --cpu-prof-dir=artifacts/prof"]';
/** The core the servers under test are pinned to, and the one the load generator gets. */
export const serverCpu = 0;
export const loadCpu = 1;

const positive = { above: 0 } as const;
const count = { integer: true, min: 1 } as const;

/**
 * The bench options from the command line; a mistake ends the process with one line.
 * @example const options = readOptions(['--quick']); options.rounds // 1
 */
export function readOptions(args: string[]) {
  const values = parseCommandLine(
    {
      quick: { type: 'boolean', default: false },
      duration: { type: 'string' },
      requests: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string', default: '1,50' },
      targets: { type: 'string', default: allTargets.join(',') },
      sections: { type: 'string', default: allSections.join(',') },
      scale: { type: 'string' },
      steady: { type: 'string' },
      json: { type: 'string' },
      baseline: { type: 'string' },
      'fake-node-args': { type: 'string', default: '' },
    },
    { usage },
    args,
  );
  const quick = values.quick;
  return {
    quick,
    duration: numberFlag('duration', values.duration ?? (quick ? '1' : '4'), positive, usage),
    /** Requests per measured throughput run; by default what the first round's warm-ups say fills `duration`. */
    requests: values.requests === undefined ? undefined : numberFlag('requests', values.requests, count, usage),
    rounds: numberFlag('rounds', values.rounds ?? (quick ? '1' : '3'), count, usage),
    connections: values.connections.split(',').map((raw) => numberFlag('connections', raw, count, usage)),
    targets: baselineNeedsDir(listFlag('targets', values.targets, knownTargets, usage), values.baseline),
    baseline: values.baseline,
    sections: listFlag('sections', values.sections, allSections, usage),
    scale: (values.scale ?? (quick ? '1000' : '1000,10000,100000'))
      .split(',')
      .map((raw) => numberFlag('scale', raw, count, usage)),
    steady: numberFlag('steady', values.steady ?? (quick ? '3' : '60'), positive, usage),
    json: values.json,
    fakeNodeArgs: values['fake-node-args'].split(' ').filter(Boolean),
  };
}

export type Options = ReturnType<typeof readOptions>;

function baselineNeedsDir(targets: Target[], baseline: string | undefined): Target[] {
  if (targets.includes('baseline') && baseline === undefined)
    cliError(`--targets baseline needs --baseline DIR (a checkout of the code to compare with); ${usage}`);
  return targets;
}
