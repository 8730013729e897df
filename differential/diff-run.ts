// Runs the differential check: the script against a fake and a real server, step by step, then compares each pair of
// answers (status, content type, shape, pinned values, conformance) and the invariants each server keeps.
import { checkResponse, getAtPointer, isJsonObject, linksOf, openapiDocument, type Violation } from '../spec/index.ts';
import type { RecordedExchange } from '../client/check-record.ts';
import { sendRequest, type SentExchange } from '../client/http-exchange.ts';
import { authorization, credentialsFor, type Credentials } from '../client/auth-variants.ts';
import { hostileTokens } from '../client/hostile-tokens.ts';
import { createRedactor, type Redact } from '../client/redaction.ts';
import { primaryCreation } from '../client/linked-operations.ts';
import { fillPath } from '../client/path-parameters.ts';
import { buildScript, defaultScriptOptions, type DiffStep, type SpecRule } from './diff-script.ts';
import { checkInvariants, type InvariantResult } from './invariants.ts';
import { compareShapes, fieldSchema, shapeOf, valueAt, valueRules } from './response-shape.ts';

/** The two sides of the comparison. */
export type Side = 'fake' | 'real';
export const sides: readonly Side[] = ['fake', 'real'];

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

export type DivergenceKind = 'no-answer' | 'status' | 'content-type' | 'shape' | 'value' | 'conformance' | 'invariant';

/** One way the two servers answered differently, with the spec rule involved. */
export interface Divergence {
  kind: DivergenceKind;
  /** The step whose exchanges show it. */
  step: string;
  /** Pointer into the response body ('' for the whole answer). */
  pointer: string;
  fake: string;
  real: string;
  /** Which side the spec agrees with, when it takes one. */
  followsSpec: Side | 'both' | 'neither' | 'unknown';
  rule: SpecRule & { text: string };
  message: string;
}

export type StepOutcome = 'agree' | 'diverged' | 'skipped' | 'unresolved';

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

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * The readable text of a rule: the description (or x-assumption) of the node at its pointer, or of its nearest ancestor.
 * @example ruleText('/components/responses/AgentNotFound') // 'No agent has this agentId.'
 */
export function ruleText(specPointer: string, origin: SpecRule['origin'] = 'seed'): string {
  const tokens = specPointer.split('/');
  for (let length = tokens.length; length > 1; length -= 1) {
    const node = getAtPointer(openapiDocument, tokens.slice(0, length).join('/'));
    if (!isJsonObject(node)) continue;
    // For a decision of the spec, the decision itself reads better than the node's description.
    const assumption = origin === 'assumption' ? node['x-assumption'] : undefined;
    const text =
      typeof assumption === 'string'
        ? assumption
        : typeof node.description === 'string'
          ? node.description
          : node['x-assumption'];
    if (typeof text === 'string') return text.trim().split('\n')[0] ?? '';
  }
  if (specPointer === '/security') return 'Every operation requires a JWT bearer token.';
  return '';
}

function withText(rule: SpecRule): Divergence['rule'] {
  return { ...rule, text: ruleText(rule.specPointer, rule.origin) };
}

function fromViolation(violation: Violation): Divergence['rule'] {
  return withText({ specPointer: violation.specPointer, origin: violation.origin });
}

type Answer = NonNullable<SentExchange['response']>;

function compareStep(step: DiffStep, fake: Answer, real: Answer): Divergence[] {
  const divergences: Divergence[] = [];
  const add = (d: Omit<Divergence, 'step'>): void => {
    divergences.push({ step: step.id, ...d });
  };
  const checks = {
    fake: checkResponse({
      operationId: step.operationId,
      status: fake.status,
      contentType: fake.contentType,
      body: fake.body,
      headers: fake.headers,
    }),
    real: checkResponse({
      operationId: step.operationId,
      status: real.status,
      contentType: real.contentType,
      body: real.body,
      headers: real.headers,
    }),
  };
  const follows = (ok: Record<Side, boolean>): Divergence['followsSpec'] =>
    ok.fake && ok.real ? 'both' : ok.fake ? 'fake' : ok.real ? 'real' : 'neither';

  if (fake.status !== real.status) {
    const expected = step.expected;
    const accepted = (status: number): boolean => status >= 200 && status < 300;
    const rule =
      expected.rejectRule && (accepted(fake.status) || accepted(real.status))
        ? expected.rejectRule
        : expected.statusRule;
    add({
      kind: 'status',
      pointer: '',
      fake: String(fake.status),
      real: String(real.status),
      followsSpec: follows({ fake: fake.status === expected.status, real: real.status === expected.status }),
      rule: withText(rule),
      message: `status ${fake.status} from the fake, ${real.status} from the real server (the spec says ${expected.status})`,
    });
    return divergences;
  }
  const status = fake.status;

  if (mediaType(fake.contentType) !== mediaType(real.contentType)) {
    const violation = [...checks.fake.violations, ...checks.real.violations].find((v) => v.rule === 'content-type');
    add({
      kind: 'content-type',
      pointer: '',
      fake: fake.contentType ?? 'none',
      real: real.contentType ?? 'none',
      followsSpec: follows({
        fake: !checks.fake.violations.some((v) => v.rule === 'content-type'),
        real: !checks.real.violations.some((v) => v.rule === 'content-type'),
      }),
      rule: violation ? fromViolation(violation) : withText(step.expected.statusRule),
      message: `Content-Type ${fake.contentType ?? 'none'} from the fake, ${real.contentType ?? 'none'} from the real server`,
    });
  }

  const bodies = { fake: parse(fake.body), real: parse(real.body) };
  const reported = new Set<string>();
  if (bodies.fake !== undefined && bodies.real !== undefined) {
    for (const difference of compareShapes(shapeOf(bodies.fake), shapeOf(bodies.real))) {
      const at = (s: Side) => (s === 'fake' ? difference.left : difference.right);
      const describe = (s: Side) => (at(s).length === 0 ? 'absent' : at(s).join(' or '));
      const violation = [...checks.fake.violations, ...checks.real.violations].find(
        (v) => v.pointer === difference.pointer || (difference.pointer.startsWith(`${v.pointer}/`) && v.pointer !== ''),
      );
      const field = fieldSchema(step.operationId, status, difference.pointer);
      const optional =
        field !== undefined &&
        !(Array.isArray(field.parent.schema.required) && field.parent.schema.required.includes(field.name));
      const rule = violation
        ? fromViolation(violation)
        : field && optional
          ? withText({ specPointer: `${field.parent.pointer}/properties/${field.name}`, origin: 'seed' })
          : withText(field ? { specPointer: field.at.pointer, origin: 'seed' } : step.expected.statusRule);
      reported.add(difference.pointer);
      add({
        kind: 'shape',
        pointer: difference.pointer,
        fake: describe('fake'),
        real: describe('real'),
        followsSpec: follows({
          fake: !checks.fake.violations.some((v) => v.pointer === difference.pointer),
          real: !checks.real.violations.some((v) => v.pointer === difference.pointer),
        }),
        rule,
        message:
          at('fake').length === 0 || at('real').length === 0
            ? `${difference.pointer} is ${at('fake').length === 0 ? 'only in the real server' : 'only in the fake'}'s answer${optional && !violation ? ' (an optional field)' : ''}`
            : `${difference.pointer} is ${describe('fake')} in the fake's answer, ${describe('real')} in the real server's`,
      });
    }
    if (step.sameSubject) {
      for (const rule of valueRules(step.operationId, status)) {
        if (!rule.compared || rule.pointer.includes('/*') || reported.has(rule.pointer)) continue;
        const values = { fake: valueAt(bodies.fake, rule.pointer), real: valueAt(bodies.real, rule.pointer) };
        if (same(values.fake, values.real)) continue;
        // An echo has a right answer: what was sent.
        const echoed = rule.echoes && step.sent ? step.sent[rule.echoes] : undefined;
        reported.add(rule.pointer);
        const violation = [...checks.fake.violations, ...checks.real.violations].find(
          (v) => v.pointer === rule.pointer,
        );
        add({
          kind: 'value',
          pointer: rule.pointer,
          fake: show(values.fake),
          real: show(values.real),
          followsSpec: follows(
            echoed === undefined
              ? {
                  fake: !checks.fake.violations.some((v) => v.pointer === rule.pointer),
                  real: !checks.real.violations.some((v) => v.pointer === rule.pointer),
                }
              : { fake: same(values.fake, echoed), real: same(values.real, echoed) },
          ),
          rule: violation ? fromViolation(violation) : withText({ specPointer: rule.specPointer, origin: 'seed' }),
          message: `${rule.pointer} is ${show(values.fake)} from the fake, ${show(values.real)} from the real server (${rule.reason})`,
        });
      }
    }
  }

  // Whatever else one side breaks and the other does not (a bound, a header, a problem's status).
  const key = (v: Violation): string => `${v.rule} ${v.pointer}`;
  for (const side of sides) {
    const other = side === 'fake' ? 'real' : 'fake';
    const otherKeys = new Set(checks[other].violations.map(key));
    for (const violation of checks[side].violations) {
      if (otherKeys.has(key(violation)) || reported.has(violation.pointer)) continue;
      if (violation.rule === 'content-type' && divergences.some((d) => d.kind === 'content-type')) continue;
      reported.add(violation.pointer);
      const found = violation.found;
      add({
        kind: 'conformance',
        pointer: violation.pointer,
        fake: side === 'fake' ? found : 'conforms',
        real: side === 'real' ? found : 'conforms',
        followsSpec: other,
        rule: fromViolation(violation),
        message: `the ${side === 'fake' ? 'fake' : 'real server'} breaks the spec where the other does not: ${violation.message}`,
      });
    }
  }
  return divergences;
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
    answers: new Map(),
  });
  const states: Record<Side, SideState> = { fake: stateOf(options.fake), real: stateOf(options.real) };
  // Each side's report text goes through both redactors: a server may echo the other side's token only if it was given it.
  const redactBoth: Redact = (text) => states.fake.redact(states.real.redact(text));
  const results: StepResult[] = [];
  const sameUnexpectedStatus: DiffResult['sameUnexpectedStatus'] = [];
  for (const step of script) {
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
    results.push(result);
    if (result.skipReason) continue;
    const agents = { fake: agentFor(states.fake, step), real: agentFor(states.real, step) };
    if (agents.fake === undefined || agents.real === undefined) {
      // The deploy this step needs failed on a side; that failure is already a divergence (or a shared failure).
      result.outcome = 'unresolved';
      result.skipReason = 'no-agent';
      continue;
    }
    const sent = await Promise.all(
      sides.map((side) => {
        const state = states[side];
        if (step.method === 'POST') state.posts += 1;
        const path = getPath(step, state, agents[side] ?? '');
        return sendRequest(state.target.baseUrl, options.timeoutMs, redactBoth, {
          operationId: step.operationId,
          method: step.method,
          path,
          authorization: authorization(state.credentials, step.auth),
          contentType: step.contentType,
          body: step.body,
        });
      }),
    );
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
      if (exchange.response.status >= 200 && exchange.response.status < 300) remember(states[side], step, body);
    }
    if (!fakeSent.response || !realSent.response) {
      if (fakeSent.response || realSent.response) {
        result.divergences.push({
          kind: 'no-answer',
          step: step.id,
          pointer: '',
          fake: fakeSent.response ? String(fakeSent.response.status) : (fakeSent.record.error ?? 'no answer'),
          real: realSent.response ? String(realSent.response.status) : (realSent.record.error ?? 'no answer'),
          followsSpec: fakeSent.response ? 'fake' : 'real',
          rule: withText(step.expected.statusRule),
          message: `only the ${fakeSent.response ? 'fake' : 'real server'} answered`,
        });
      }
    } else {
      result.divergences.push(...compareStep(step, fakeSent.response, realSent.response));
      if (fakeSent.response.status === realSent.response.status && fakeSent.response.status !== step.expected.status)
        sameUnexpectedStatus.push({ step: step.id, status: fakeSent.response.status, expected: step.expected.status });
    }
    result.outcome = result.divergences.length > 0 ? 'diverged' : 'agree';
  }

  const invariants = {
    fake: checkInvariants(script, states.fake.answers),
    real: checkInvariants(script, states.real.answers),
  };
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
  return {
    steps: results,
    invariants,
    sharedFailures,
    sameUnexpectedStatus,
    divergences: results.flatMap((r) => r.divergences),
    posts: { fake: states.fake.posts, real: states.real.posts },
  };
}

/** The step's path: the agent it names, and every other parameter from what earlier steps created on this server. */
function getPath(step: DiffStep, state: SideState, agentId: string): string {
  const values = Object.fromEntries(state.created);
  return fillPath(step.operationId, { ...values, [primaryCreation().parameter]: agentId });
}

/** Keeps what a successful step created, where the spec's links say its answer holds a parameter's value. */
function remember(state: SideState, step: DiffStep, body: unknown): void {
  for (const link of linksOf()) {
    if (link.from !== step.operationId) continue;
    const value = valueAt(body, link.field);
    if (typeof value !== 'string') continue;
    state.created.set(link.parameter, value);
    if (link.parameter === primaryCreation().parameter) state.agents.set(step.id, value);
  }
}
