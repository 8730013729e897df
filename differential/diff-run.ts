// Runs the differential check: the script against a fake and a real server, step by step, then compares each pair of
// answers (status, content type, shape, pinned values, conformance) and the invariants each server keeps.
import { linksOf } from '../spec/index.ts';
import type { RecordedExchange } from '../verifier-client/check-record.ts';
import { sendRequest, type SentExchange } from '../verifier-client/http-exchange.ts';
import { authorization, credentialsFor, type Credentials } from '../verifier-client/requests/auth-variants.ts';
import { hostileTokens } from '../verifier-client/requests/hostile-tokens.ts';
import { createRedactor, type Redact } from '../verifier-client/redaction.ts';
import { primaryCreation } from '../verifier-client/requests/linked-operations.ts';
import { validHeaders } from '../verifier-client/requests/header-parameters.ts';
import { fillPath } from '../verifier-client/requests/path-parameters.ts';
import { buildScript, defaultScriptOptions, type DiffStep } from './diff-script.ts';
import { checkInvariants, type InvariantResult } from './invariants.ts';
import { valueAt } from './response-shape.ts';
import { withText } from './rule-text.ts';
import { compareStep, parse, type Divergence, type Side } from './step-comparison.ts';

const sides: readonly Side[] = ['fake', 'real'];

/** One server under comparison. */
export interface DiffTarget {
  /** `{base_url}` without `/v1` and without a trailing slash. */
  baseUrl: string;
  /** Bearer token; held in memory only, never printed. */
  token: string;
  /** What reports show instead of the token, e.g. `<FAKE_TOKEN>`. */
  tokenLabel: string;
  /** An existing agent on this server (needed by --read-only). */
  agentId: string | undefined;
}

export interface DiffOptions {
  fake: DiffTarget;
  real: DiffTarget;
  seed: number;
  /** Cap on POSTs sent to each server. */
  maxWrites: number;
  readOnly: boolean;
  timeoutMs: number;
  generatedDeploys?: number;
  generatedTasks?: number;
}

type StepOutcome = 'agree' | 'diverged' | 'skipped' | 'unresolved';

export interface StepResult {
  id: string;
  title: string;
  operationId: string;
  expectedStatus: number;
  outcome: StepOutcome;
  /** Why a step did not run: `max-writes` (fails the run), `read-only`, or a step it depends on that did not succeed. */
  skipReason: 'max-writes' | 'read-only' | 'no-agent' | undefined;
  fake: RecordedExchange | undefined;
  real: RecordedExchange | undefined;
  divergences: Divergence[];
}

export interface DiffResult {
  steps: StepResult[];
  /** Invariants each server was checked for; divergences among them are also in the step they point at. */
  invariants: Record<Side, InvariantResult[]>;
  /** Rules both servers break alike: not a divergence, but the spec is not met. */
  sharedFailures: InvariantResult[];
  /** Steps both servers answered with the same status, other than the one the spec says (a bad token, a shared bug). */
  sameUnexpectedStatus: Array<{ step: string; status: number; expected: number }>;
  divergences: Divergence[];
  posts: Record<Side, number>;
}

interface SideState {
  target: DiffTarget;
  redact: Redact;
  credentials: Credentials;
  posts: number;
  /** agentId each deploy step created on this server. */
  agents: Map<string, string>;
  /** The latest value of each linked path parameter created on this server (a task's id, say). */
  created: Map<string, string>;
  /** The same, per agent the creating step named: a path naming an agent and a task takes a task of that agent. */
  createdOn: Map<string, Map<string, string>>;
  /** Parsed answers by step id, for the invariants. */
  answers: Map<string, { status: number; body: unknown }>;
}

/**
 * Every secret derived from a token that must never be printed: the hostile tokens and their segments.
 * @example createRedactor(token, derivedSecrets(token))
 */
export function derivedSecrets(token: string): string[] {
  return Object.values(hostileTokens(token))
    .filter((derived): derived is string => derived !== undefined)
    .flatMap((derived) => [derived, ...derived.split('.').filter((segment) => segment.length >= 8)]);
}

function agentFor(state: SideState, step: DiffStep): string | undefined {
  switch (step.agent.kind) {
    case 'none':
      return '';
    case 'literal':
      return step.agent.agentId;
    case 'deployed':
      return state.agents.get(step.agent.step);
    case 'existing':
      return state.target.agentId ?? state.agents.get('deploy/example-1');
  }
}

function skipReasonFor(
  step: DiffStep,
  options: DiffOptions,
  states: Record<Side, SideState>,
): StepResult['skipReason'] {
  if (options.readOnly && step.creates) return 'read-only';
  if (options.readOnly && step.agent.kind === 'deployed') return 'read-only';
  if (step.method === 'POST' && sides.some((side) => states[side].posts >= options.maxWrites)) return 'max-writes';
  return undefined;
}

/**
 * Runs the seeded script against both servers and compares every exchange and invariant.
 * @example const result = await runDiff({ fake, real, seed: 7, maxWrites: 200, readOnly: false, timeoutMs: 10_000 });
 */
export async function runDiff(options: DiffOptions): Promise<DiffResult> {
  const script = buildScript({
    seed: options.seed,
    generatedDeploys: options.generatedDeploys ?? defaultScriptOptions.generatedDeploys,
    generatedTasks: options.generatedTasks ?? defaultScriptOptions.generatedTasks,
    existingAgent: options.fake.agentId !== undefined && options.real.agentId !== undefined,
  });
  const stateOf = (target: DiffTarget): SideState => ({
    target,
    credentials: credentialsFor(target.token, target.tokenLabel),
    redact: createRedactor(target.token, derivedSecrets(target.token)),
    posts: 0,
    agents: new Map(),
    created: new Map(),
    createdOn: new Map(),
    answers: new Map(),
  });
  const states: Record<Side, SideState> = { fake: stateOf(options.fake), real: stateOf(options.real) };
  // Each side's report text goes through both redactors: a server may echo the other side's token only if it was given it.
  const redactBoth: Redact = (text) => states.fake.redact(states.real.redact(text));
  const run: ScriptRun = { options, states, redactBoth, sameUnexpectedStatus: [] };
  const results: StepResult[] = [];
  for (const step of script) results.push(await runStep(run, step));
  const invariants = {
    fake: checkInvariants(script, states.fake.answers),
    real: checkInvariants(script, states.real.answers),
  };
  const sharedFailures = mergeInvariants(invariants, results, redactBoth);
  return {
    steps: results,
    invariants,
    sharedFailures,
    sameUnexpectedStatus: run.sameUnexpectedStatus,
    divergences: results.flatMap((r) => r.divergences),
    posts: { fake: states.fake.posts, real: states.real.posts },
  };
}

/** What the steps of one run share. */
interface ScriptRun {
  options: DiffOptions;
  states: Record<Side, SideState>;
  redactBoth: Redact;
  sameUnexpectedStatus: DiffResult['sameUnexpectedStatus'];
}

/** Sends one step to both servers (unless it is skipped) and compares the answers. */
async function runStep(run: ScriptRun, step: DiffStep): Promise<StepResult> {
  const { options, states } = run;
  const result: StepResult = {
    id: step.id,
    title: step.title,
    operationId: step.operationId,
    expectedStatus: step.expected.status,
    outcome: 'skipped',
    skipReason: skipReasonFor(step, options, states),
    fake: undefined,
    real: undefined,
    divergences: [],
  };
  if (result.skipReason) return result;
  const agents = { fake: agentFor(states.fake, step), real: agentFor(states.real, step) };
  if (agents.fake === undefined || agents.real === undefined) {
    // The deploy this step needs failed on a side; that failure is already a divergence (or a shared failure).
    result.outcome = 'unresolved';
    result.skipReason = 'no-agent';
    return result;
  }
  const sent = await Promise.all(sides.map((side) => sendStep(run, step, side, agents[side] ?? '')));
  const [fakeSent, realSent] = sent as [SentExchange, SentExchange];
  result.fake = fakeSent.record;
  result.real = realSent.record;
  for (const [side, exchange] of [
    ['fake', fakeSent],
    ['real', realSent],
  ] as const) {
    if (!exchange.response) continue;
    const body = parse(exchange.response.body);
    states[side].answers.set(step.id, { status: exchange.response.status, body });
    if (exchange.response.status >= 200 && exchange.response.status < 300)
      remember(states[side], step, body, agents[side] ?? '');
  }
  if (fakeSent.response && realSent.response) {
    result.divergences.push(...compareStep(step, fakeSent.response, realSent.response));
    const status = fakeSent.response.status;
    if (status === realSent.response.status && status !== step.expected.status)
      run.sameUnexpectedStatus.push({ step: step.id, status, expected: step.expected.status });
  } else if (fakeSent.response || realSent.response) {
    result.divergences.push(noAnswerDivergence(step, fakeSent, realSent));
  }
  result.outcome = result.divergences.length > 0 ? 'diverged' : 'agree';
  return result;
}

function sendStep(run: ScriptRun, step: DiffStep, side: Side, agentId: string): Promise<SentExchange> {
  const state = run.states[side];
  if (step.method === 'POST') state.posts += 1;
  return sendRequest(state.target.baseUrl, run.options.timeoutMs, run.redactBoth, {
    operationId: step.operationId,
    method: step.method,
    path: getPath(step, state, agentId),
    authorization: authorization(state.credentials, step.auth),
    contentType: step.contentType,
    body: step.body,
    // Each required header and cookie parameter valid, as every request of the contract suite carries them.
    headers: validHeaders(step.operationId),
  });
}

function noAnswerDivergence(step: DiffStep, fakeSent: SentExchange, realSent: SentExchange): Divergence {
  return {
    kind: 'no-answer',
    step: step.id,
    pointer: '',
    fake: fakeSent.response ? String(fakeSent.response.status) : (fakeSent.record.error ?? 'no answer'),
    real: realSent.response ? String(realSent.response.status) : (realSent.record.error ?? 'no answer'),
    followsSpec: fakeSent.response ? 'fake' : 'real',
    rule: withText(step.expected.statusRule),
    message: `only the ${fakeSent.response ? 'fake' : 'real server'} answered`,
  };
}

/**
 * Adds each invariant one server keeps and the other breaks to the step it points at, and answers those both break.
 */
function mergeInvariants(
  invariants: Record<Side, InvariantResult[]>,
  results: StepResult[],
  redactBoth: Redact,
): InvariantResult[] {
  const sharedFailures: InvariantResult[] = [];
  const realByKey = new Map(invariants.real.map((r) => [`${r.rule} ${r.step} ${r.pointer}`, r]));
  for (const fakeResult of invariants.fake) {
    const realResult = realByKey.get(`${fakeResult.rule} ${fakeResult.step} ${fakeResult.pointer}`);
    if (!realResult) continue;
    if (!fakeResult.holds && !realResult.holds) {
      sharedFailures.push(fakeResult);
      continue;
    }
    if (fakeResult.holds === realResult.holds) continue;
    const step = results.find((r) => r.id === fakeResult.step);
    const broken = fakeResult.holds ? realResult : fakeResult;
    const divergence: Divergence = {
      kind: 'invariant',
      step: fakeResult.step,
      pointer: fakeResult.pointer,
      fake: fakeResult.holds ? 'holds' : redactBoth(fakeResult.found),
      real: realResult.holds ? 'holds' : redactBoth(realResult.found),
      followsSpec: fakeResult.holds ? 'fake' : 'real',
      rule: withText({ specPointer: broken.specPointer, origin: broken.origin }),
      message: `${fakeResult.holds ? 'the real server' : 'the fake'} breaks "${broken.description}", which the ${fakeResult.holds ? 'fake' : 'real server'} keeps`,
    };
    // A field already reported as a different shape or value at this step says the same thing once; a value both
    // servers may send is then judged by the invariant, which knows which of the two the spec expects here.
    const same = step?.divergences.find((d) => d.pointer === divergence.pointer);
    if (same) {
      if (same.kind === 'value' && same.followsSpec === 'both') {
        same.followsSpec = divergence.followsSpec;
        same.rule = divergence.rule;
        same.message = `${same.message}; ${divergence.message}`;
      }
      continue;
    }
    if (step) {
      step.divergences.push(divergence);
      step.outcome = 'diverged';
    }
  }
  return sharedFailures;
}

/**
 * The step's path: the agent it names, and every other parameter from what earlier steps created on this server, on
 * that agent where one did (the task an agent ran, not the last task of any agent).
 */
function getPath(step: DiffStep, state: SideState, agentId: string): string {
  const values = { ...Object.fromEntries(state.created), ...Object.fromEntries(state.createdOn.get(agentId) ?? []) };
  return fillPath(step.operationId, { ...values, [primaryCreation().parameter]: agentId });
}

/** Keeps what a successful step created, where the spec's links say its answer holds a parameter's value. */
function remember(state: SideState, step: DiffStep, body: unknown, agentId: string): void {
  for (const link of linksOf()) {
    if (link.from !== step.operationId) continue;
    const value = valueAt(body, link.field);
    if (typeof value !== 'string') continue;
    state.created.set(link.parameter, value);
    if (agentId !== '')
      state.createdOn.set(agentId, (state.createdOn.get(agentId) ?? new Map()).set(link.parameter, value));
    if (link.parameter === primaryCreation().parameter) state.agents.set(step.id, value);
  }
}
