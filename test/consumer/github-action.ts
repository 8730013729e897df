// The GitHub Action at the repository's root (action.yml), run as GitHub would run it: its `run:` steps in bash, one
// after the other, each with its `env:` evaluated from the inputs (defaults filled in), GitHub's own variables set
// (GITHUB_ACTION_PATH, RUNNER_TEMP, GITHUB_WORKSPACE, a GITHUB_STEP_SUMMARY file per step), against `serve` from the
// packed kit, which the Action installs as its `package` input. Its `uses:` steps are GitHub's own actions
// (setup-node): here the Node of the run stands in for it.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { operations } from '../../spec/index.ts';
import {
  appBin,
  manifest,
  root,
  run,
  type StartedGroups,
  scratch,
  startListening,
  stopGroups,
  succeeded,
} from './scratch-app.ts';

interface ActionStep {
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Action {
  runs: { using: string; steps: ActionStep[] };
  inputs: Record<string, { required?: boolean; default?: string }>;
}

const expression = /\$\{\{\s*([^}]*?)\s*\}\}/g;

/** A value of the Action with its `${{ inputs.NAME }}` filled in; any other expression fails the step (not emulated). */
function evaluate(value: string, inputs: Record<string, string>): string {
  return value.replace(expression, (_whole, inner: string) => {
    const name = /^inputs\.([\w-]+)$/.exec(inner)?.[1];
    if (name === undefined || !(name in inputs)) throw new Error(`action.yml uses \${{ ${inner} }}, not emulated here`);
    return inputs[name] ?? '';
  });
}

/** Runs the Action's steps with `given` inputs in `workspace`: the last step's result, and each step's summary. */
async function runAction(
  action: Action,
  given: Record<string, string>,
  workspace: string,
): Promise<{ result: Awaited<ReturnType<typeof run>>; summaries: string[] }> {
  const inputs = Object.fromEntries(
    Object.entries(action.inputs).map(([name, input]) => [name, given[name] ?? input.default ?? '']),
  );
  const runnerTemp = join(workspace, '..', 'runner-temp');
  await mkdir(runnerTemp, { recursive: true });
  const summaries: string[] = [];
  let result: Awaited<ReturnType<typeof run>> = { status: 0, stdout: '', stderr: '' };
  for (const [index, step] of action.runs.steps.entries()) {
    if (step.run === undefined) continue;
    const summary = join(runnerTemp, `step-summary-${index}.md`);
    await writeFile(summary, '');
    const env = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([name, value]) => [name, evaluate(value, inputs)]),
    );
    // GitHub runs a bash step as `bash --noprofile --norc -eo pipefail {0}`.
    result = await run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], workspace, {
      ...env,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_ACTION_PATH: root,
      GITHUB_WORKSPACE: workspace,
      RUNNER_TEMP: runnerTemp,
      GITHUB_STEP_SUMMARY: summary,
      npm_config_prefer_offline: 'true',
    });
    summaries.push(await readFile(summary, 'utf8'));
    if (result.status !== 0) break;
  }
  return { result, summaries };
}

/** What action.yml states: a composite action, its inputs, the token only in an environment variable, the peers. */
async function statesWhatItNeeds(): Promise<Action> {
  const action = parse(await readFile(join(root, 'action.yml'), 'utf8')) as Action;
  expect(action.runs.using).toBe('composite');
  expect(Object.keys(action.inputs)).toEqual(
    expect.arrayContaining(['base-url', 'token', 'seed-only', 'junit', 'summary']),
  );
  const runSteps = action.runs.steps.filter((step) => step.run !== undefined);
  for (const step of runSteps) {
    expect(step.shell, step.name).toBe('bash');
    // Inputs reach a script only through its environment: an expression in `run:` would be pasted into the shell.
    expect(step.run, step.name).not.toMatch(expression);
    expect(step.run, step.name).not.toMatch(/set -x|echo .*\$API_TOKEN|printenv|env\b(?!:)/);
  }
  const tokenUses = runSteps.flatMap((step) =>
    Object.entries(step.env ?? {}).filter(([, value]) => /inputs\.token\b/.test(value)),
  );
  // biome-ignore lint/suspicious/noTemplateCurlyInString: GitHub's expression syntax, not a template
  expect(tokenUses).toEqual([['API_TOKEN', '${{ inputs.token }}']]);
  // The peers it installs are the majors of the kit's peer ranges.
  const major = (name: string): string => `${name}@^${/\d+/.exec(manifest.peerDependencies[name] ?? '')?.[0]}`;
  const install = runSteps.map((step) => step.run ?? '').find((script) => /npm install/.test(script)) ?? '';
  for (const peer of ['vitest', 'fast-check']) expect(install).toContain(` ${major(peer)}`);
  return action;
}

async function runsTheAction(): Promise<void> {
  const action = await statesWhatItNeeds();
  const workspace = join(scratch.work, 'action-workspace');
  await mkdir(workspace);
  const started: StartedGroups = [];
  try {
    const url = await startListening(appBin('agent-registry-kit'), ['serve', '--port', '0'], started);
    const token = succeeded(await run(appBin('agent-registry-kit'), ['token'], scratch.app), 'token').stdout.trim();
    const { result, summaries } = await runAction(
      action,
      { 'base-url': url, token, package: join(scratch.work, scratch.packed.filename) },
      workspace,
    );
    expect(result.stdout, result.stderr).toMatch(/^PASSED: \d+ passed, 0 failed/m);
    expect(result.status).toBe(0);
    const junit = await readFile(join(workspace, 'contract-report.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites [^>]*failures="0"/);
    const summary = summaries.join('');
    expect(summary).toMatch(/^### agent-registry-kit contract: ✅ PASSED$/m);
    for (const operationId of operations.keys()) expect(summary).toMatch(new RegExp(`^\\| ${operationId} \\| `, 'm'));
    for (const text of [result.stdout, result.stderr, junit, summary]) {
      expect(text).not.toContain(token);
      for (const segment of token.split('.')) expect(text).not.toContain(segment);
    }
  } finally {
    stopGroups(started);
  }
}

/** Registers the Action's step; call inside consumer.test.ts's concurrent describe. */
export function githubActionSteps(): void {
  it(
    'runs action.yml’s steps as GitHub would: installs the packed kit with its peers and passes contract against serve, with a JUnit report and a job summary naming every operation, the token in neither',
    {
      timeout: 600_000,
    },
    runsTheAction,
  );
}
