// Compares the fake's and the real server's answers to one step, as a list of small rules: status, content type,
// body shape, pinned values, then whatever else only one side breaks. Each rule adds the divergences it finds.
import { checkResponse, foundText, type ResponseCheck, type Violation } from '../spec/index.ts';
import type { SentExchange } from '../verifier-client/http-exchange.ts';
import type { DiffStep } from './diff-script.ts';
import { compareShapes, fieldSchema, shapeOf, valueAt, valueRules } from './response-shape.ts';
import { fromViolation, withText, type RuleWithText } from './rule-text.ts';

/** The two sides of the comparison. */
export type Side = 'fake' | 'real';

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
  rule: RuleWithText;
  message: string;
}

type Answer = NonNullable<SentExchange['response']>;
type Found = Omit<Divergence, 'step'>;

/** What every rule reads: the step, both answers, both checks, and the pointers already reported. */
interface Comparison {
  step: DiffStep;
  answers: Record<Side, Answer>;
  checks: Record<Side, ResponseCheck>;
  bodies: Record<Side, unknown>;
  /** Pointers an earlier rule reported, so a later one does not say the same thing twice. */
  reported: Set<string>;
}

const bothSides: readonly Side[] = ['fake', 'real'];

/**
 * Every divergence between the two answers to one step.
 * @example compareStep(step, fakeSent.response, realSent.response)
 */
export function compareStep(step: DiffStep, fake: Answer, real: Answer): Divergence[] {
  const withStep = (found: Found[]): Divergence[] => found.map((d) => ({ step: step.id, ...d }));
  // A different status makes every other comparison noise: the two bodies answer different questions.
  if (fake.status !== real.status) return withStep([statusDivergence(step, fake, real)]);
  const comparison: Comparison = {
    step,
    answers: { fake, real },
    checks: { fake: checkAnswer(step, fake), real: checkAnswer(step, real) },
    bodies: { fake: parse(fake.body), real: parse(real.body) },
    reported: new Set(),
  };
  const found = [
    ...contentTypeDivergence(comparison),
    ...shapeDivergences(comparison),
    ...valueDivergences(comparison),
  ];
  const contentTypeReported = found.some((d) => d.kind === 'content-type');
  return withStep([...found, ...conformanceDivergences(comparison, contentTypeReported)]);
}

function checkAnswer(step: DiffStep, answer: Answer): ResponseCheck {
  const { status, contentType, body, headers } = answer;
  return checkResponse({ operationId: step.operationId, status, contentType, body, headers });
}

function follows(ok: Record<Side, boolean>): Divergence['followsSpec'] {
  return ok.fake && ok.real ? 'both' : ok.fake ? 'fake' : ok.real ? 'real' : 'neither';
}

function statusDivergence(step: DiffStep, fake: Answer, real: Answer): Found {
  const expected = step.expected;
  const accepted = (status: number): boolean => status >= 200 && status < 300;
  // A server that accepted what it should have refused breaks the refusal's rule, not just the status table.
  const rule =
    expected.rejectRule && (accepted(fake.status) || accepted(real.status)) ? expected.rejectRule : expected.statusRule;
  return {
    kind: 'status',
    pointer: '',
    fake: String(fake.status),
    real: String(real.status),
    followsSpec: follows({ fake: fake.status === expected.status, real: real.status === expected.status }),
    rule: withText(rule),
    message: `status ${fake.status} from the fake, ${real.status} from the real server (the spec says ${expected.status})`,
  };
}

function contentTypeDivergence({ step, answers, checks }: Comparison): Found[] {
  const fake = answers.fake.contentType;
  const real = answers.real.contentType;
  if (mediaType(fake) === mediaType(real)) return [];
  const isContentType = (v: Violation): boolean => v.rule === 'content-type';
  const violation = [...checks.fake.violations, ...checks.real.violations].find(isContentType);
  return [
    {
      kind: 'content-type',
      pointer: '',
      fake: fake ?? 'none',
      real: real ?? 'none',
      followsSpec: follows({
        fake: !checks.fake.violations.some(isContentType),
        real: !checks.real.violations.some(isContentType),
      }),
      rule: violation ? fromViolation(violation) : withText(step.expected.statusRule),
      message: `Content-Type ${fake ?? 'none'} from the fake, ${real ?? 'none'} from the real server`,
    },
  ];
}

function shapeDivergences(comparison: Comparison): Found[] {
  const { step, checks, bodies, reported } = comparison;
  if (bodies.fake === undefined || bodies.real === undefined) return [];
  const violations = [...checks.fake.violations, ...checks.real.violations];
  return compareShapes(shapeOf(bodies.fake), shapeOf(bodies.real)).map((difference) => {
    const at = (s: Side) => (s === 'fake' ? difference.left : difference.right);
    const describe = (s: Side) => (at(s).length === 0 ? 'absent' : at(s).join(' or '));
    const violation = violations.find(
      (v) => v.pointer === difference.pointer || (difference.pointer.startsWith(`${v.pointer}/`) && v.pointer !== ''),
    );
    const field = fieldSchema(step.operationId, comparison.answers.fake.status, difference.pointer);
    const optional =
      field !== undefined &&
      !(Array.isArray(field.parent.schema.required) && field.parent.schema.required.includes(field.name));
    const rule = violation
      ? fromViolation(violation)
      : field && optional
        ? withText({ specPointer: `${field.parent.pointer}/properties/${field.name}`, origin: 'seed' })
        : withText(field ? { specPointer: field.at.pointer, origin: 'seed' } : step.expected.statusRule);
    reported.add(difference.pointer);
    const onlyOne = at('fake').length === 0 || at('real').length === 0;
    return {
      kind: 'shape',
      pointer: difference.pointer,
      fake: describe('fake'),
      real: describe('real'),
      followsSpec: follows({
        fake: !checks.fake.violations.some((v) => v.pointer === difference.pointer),
        real: !checks.real.violations.some((v) => v.pointer === difference.pointer),
      }),
      rule,
      message: onlyOne
        ? `${difference.pointer} is ${at('fake').length === 0 ? 'only in the real server' : 'only in the fake'}'s answer${optional && !violation ? ' (an optional field)' : ''}`
        : `${difference.pointer} is ${describe('fake')} in the fake's answer, ${describe('real')} in the real server's`,
    } satisfies Found;
  });
}

function valueDivergences({ step, answers, checks, bodies, reported }: Comparison): Found[] {
  if (!step.sameSubject || bodies.fake === undefined || bodies.real === undefined) return [];
  const found: Found[] = [];
  for (const rule of valueRules(step.operationId, answers.fake.status)) {
    if (!rule.compared || rule.pointer.includes('/*') || reported.has(rule.pointer)) continue;
    const values = { fake: valueAt(bodies.fake, rule.pointer), real: valueAt(bodies.real, rule.pointer) };
    if (same(values.fake, values.real)) continue;
    // An echo has a right answer: what was sent.
    const echoed = rule.echoes && step.sent ? step.sent[rule.echoes] : undefined;
    reported.add(rule.pointer);
    const atRule = (v: Violation): boolean => v.pointer === rule.pointer;
    const violation = [...checks.fake.violations, ...checks.real.violations].find(atRule);
    found.push({
      kind: 'value',
      pointer: rule.pointer,
      fake: show(values.fake),
      real: show(values.real),
      followsSpec: follows(
        echoed === undefined
          ? { fake: !checks.fake.violations.some(atRule), real: !checks.real.violations.some(atRule) }
          : { fake: same(values.fake, echoed), real: same(values.real, echoed) },
      ),
      rule: violation ? fromViolation(violation) : withText({ specPointer: rule.specPointer, origin: 'seed' }),
      message: `${rule.pointer} is ${show(values.fake)} from the fake, ${show(values.real)} from the real server (${rule.reason})`,
    });
  }
  return found;
}

/** Whatever else one side breaks and the other does not (a bound, a header, a problem's status). */
function conformanceDivergences({ checks, reported }: Comparison, contentTypeReported: boolean): Found[] {
  const key = (v: Violation): string => `${v.rule} ${v.pointer}`;
  const found: Found[] = [];
  for (const side of bothSides) {
    const other: Side = side === 'fake' ? 'real' : 'fake';
    const otherKeys = new Set(checks[other].violations.map(key));
    for (const violation of checks[side].violations) {
      if (otherKeys.has(key(violation)) || reported.has(violation.pointer)) continue;
      if (violation.rule === 'content-type' && contentTypeReported) continue;
      reported.add(violation.pointer);
      found.push({
        kind: 'conformance',
        pointer: violation.pointer,
        fake: side === 'fake' ? violation.found : 'conforms',
        real: side === 'real' ? violation.found : 'conforms',
        followsSpec: other,
        rule: fromViolation(violation),
        message: `the ${side === 'fake' ? 'fake' : 'real server'} breaks the spec where the other does not: ${violation.message}`,
      });
    }
  }
  return found;
}

/**
 * The parsed JSON of an answer, or undefined when it is not JSON.
 * @example parse('{"a":1}') // { a: 1 }
 */
export function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A value as a line of the report shows it (never a credential cut in two): JSON, cut at 80 characters. */
const show = (value: unknown): string => foundText(value, 80);

function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}
