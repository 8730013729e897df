// The catalogue of named checks with the POSTs each may send, and the plan of a run: what runs, what the caps skip,
// how many generated cases fit, and the totals printed before anything is sent. Pure: no HTTP in here.
import type { BodyOperationId, OperationId } from '../spec/index.ts';
import type { CheckName } from './check-record.ts';
import { invalidRequests } from './invalid-requests.ts';

/** One named check: its id, family, operation, and what it may send. */
export interface PlannedCheck {
  id: string;
  check: CheckName;
  operationId: OperationId;
  title: string;
  /** POST requests it sends (each counts against --max-writes). */
  posts: number;
  /** Of those, deploys and task submissions a correct server accepts (they create something). */
  deploys: number;
  executes: number;
  /** Needs the file's fixture agent (deployed once per file, or API_AGENT_ID under --read-only). */
  fixture: boolean;
}

/** The generated-case properties, in run order. */
export const generatedProperties = [
  {
    id: 'generated/deployAgent/valid',
    operationId: 'deployAgent',
    valid: true,
    title: 'generated valid deploy bodies are accepted with a conforming answer',
  },
  {
    id: 'generated/deployAgent/invalid',
    operationId: 'deployAgent',
    valid: false,
    title: 'generated invalid deploy bodies are rejected with a documented 4xx',
  },
  {
    id: 'generated/executeAgentTask/valid',
    operationId: 'executeAgentTask',
    valid: true,
    title: 'generated valid task bodies are accepted with a conforming answer',
  },
  {
    id: 'generated/executeAgentTask/invalid',
    operationId: 'executeAgentTask',
    valid: false,
    title: 'generated invalid task bodies are rejected with a documented 4xx',
  },
] as const satisfies ReadonlyArray<{ id: string; operationId: BodyOperationId; valid: boolean; title: string }>;

export type GeneratedPropertyId = (typeof generatedProperties)[number]['id'];

/** POSTs kept for shrinking generated failures when --max-writes is left at its default. */
export const shrinkAllowance = 40;

/** Test files that deploy one fixture agent each (unless --read-only). */
export const fixtureFiles = ['conformance', 'auth', 'request-validation', 'behaviour', 'generated'] as const;
export type FixtureFile = (typeof fixtureFiles)[number];

const authVariants = [
  { id: 'missing', title: 'no Authorization header is rejected with 401' },
  { id: 'not-bearer', title: 'a non-Bearer scheme is rejected with 401' },
  { id: 'malformed', title: 'a malformed bearer token is rejected with 401' },
  { id: 'bad-signature', title: 'a token whose signature was altered is rejected with 401' },
] as const;
export type AuthVariant = (typeof authVariants)[number]['id'];

function named(): PlannedCheck[] {
  const checks: PlannedCheck[] = [
    {
      id: 'conformance/deployAgent/201',
      check: 'conformance',
      operationId: 'deployAgent',
      title: 'a valid deploy is answered 201 with a conforming DeployResult',
      posts: 1,
      deploys: 1,
      executes: 0,
      fixture: false,
    },
    {
      id: 'conformance/getAgent/200',
      check: 'conformance',
      operationId: 'getAgent',
      title: 'retrieving an existing agent is answered 200 with a conforming Agent',
      posts: 0,
      deploys: 0,
      executes: 0,
      fixture: true,
    },
    {
      id: 'conformance/executeAgentTask/200',
      check: 'conformance',
      operationId: 'executeAgentTask',
      title: 'a valid task is answered 200 with a conforming TaskSubmission',
      posts: 1,
      deploys: 0,
      executes: 1,
      fixture: true,
    },
  ];
  for (const operationId of ['deployAgent', 'getAgent', 'executeAgentTask'] as const) {
    for (const variant of authVariants) {
      const posts = operationId === 'getAgent' ? 0 : 1;
      checks.push({
        id: `auth/${operationId}/${variant.id}`,
        check: 'auth',
        operationId,
        title: variant.title,
        posts,
        deploys: 0,
        executes: 0,
        fixture: operationId !== 'deployAgent',
      });
    }
  }
  for (const operationId of ['deployAgent', 'executeAgentTask'] as const) {
    for (const invalid of invalidRequests(operationId)) {
      checks.push({
        id: `request-validation/${operationId}/${invalid.id}`,
        check: 'request-validation',
        operationId,
        title: `${invalid.title} is rejected with ${invalid.expectedStatus}`,
        posts: 1,
        deploys: 0,
        executes: 0,
        fixture: operationId === 'executeAgentTask',
      });
    }
  }
  checks.push(
    {
      id: 'request-validation/getAgent/agentId-max-length',
      check: 'request-validation',
      operationId: 'getAgent',
      title: 'an agentId longer than its maxLength is rejected with 400',
      posts: 0,
      deploys: 0,
      executes: 0,
      fixture: false,
    },
    {
      id: 'request-validation/executeAgentTask/agentId-max-length',
      check: 'request-validation',
      operationId: 'executeAgentTask',
      title: 'an agentId longer than its maxLength is rejected with 400',
      posts: 1,
      deploys: 0,
      executes: 0,
      fixture: false,
    },
    {
      id: 'behaviour/deployAgent/retrievable',
      check: 'behaviour',
      operationId: 'deployAgent',
      title: 'a deployed agent is retrievable and agrees with what was sent and answered',
      posts: 1,
      deploys: 1,
      executes: 0,
      fixture: false,
    },
    {
      id: 'behaviour/deployAgent/defaults',
      check: 'behaviour',
      operationId: 'deployAgent',
      title: 'a minimal deploy is retrievable with the documented defaults',
      posts: 1,
      deploys: 1,
      executes: 0,
      fixture: false,
    },
    {
      id: 'behaviour/deployAgent/distinct-ids',
      check: 'behaviour',
      operationId: 'deployAgent',
      title: 'two deploys give two different agentIds',
      posts: 2,
      deploys: 2,
      executes: 0,
      fixture: false,
    },
    {
      id: 'behaviour/executeAgentTask/priorities',
      check: 'behaviour',
      operationId: 'executeAgentTask',
      title: 'each priority (and none) is accepted with a queued task submission',
      posts: 4,
      deploys: 0,
      executes: 4,
      fixture: true,
    },
    {
      id: 'behaviour/getAgent/unknown',
      check: 'behaviour',
      operationId: 'getAgent',
      title: 'an unknown agentId is answered 404',
      posts: 0,
      deploys: 0,
      executes: 0,
      fixture: false,
    },
    {
      id: 'behaviour/executeAgentTask/unknown',
      check: 'behaviour',
      operationId: 'executeAgentTask',
      title: 'a task for an unknown agentId is answered 404',
      posts: 1,
      deploys: 0,
      executes: 0,
      fixture: false,
    },
  );
  return checks;
}

/**
 * Every named check, in run order.
 * @example namedChecks.filter((c) => c.check === 'auth').length // 12
 */
export const namedChecks: readonly PlannedCheck[] = named();

/** The file a check id belongs to (its family). */
export function fileOf(id: string): FixtureFile {
  return id.split('/')[0] as FixtureFile;
}

/**
 * Whether --read-only may send a check: a POST goes out only when two independent guards each make a correct server
 * reject it, so that one broken guard can never create anything. Auth checks pair bad credentials with an invalid body
 * or an unknown agent (auth.test.ts); an over-long agentId is both invalid and unknown. An invalid body alone, or an
 * unknown agent alone, is one guard, so those checks (and generated cases) are skipped.
 * @example readOnlySafe(namedChecks.find((c) => c.id === 'auth/deployAgent/missing')!) // true
 */
export function readOnlySafe(check: PlannedCheck): boolean {
  return (
    check.posts === 0 || check.check === 'auth' || check.id === 'request-validation/executeAgentTask/agentId-max-length'
  );
}

export type Decision = { run: true } | { run: false; reason: 'max-writes' | 'read-only' };

export interface RunPlan {
  maxWrites: number;
  /** Named checks and fixtures by id. */
  decisions: ReadonlyMap<string, Decision>;
  /** Generated cases per property: how many run, how many were asked for, or why none. */
  generated: ReadonlyMap<
    GeneratedPropertyId,
    { runs: number; requested: number; skip: 'max-writes' | 'read-only' | undefined }
  >;
  /** POSTs left for shrinking generated failures. */
  shrinkBudget: number;
  totals: { posts: number; deploys: number; executes: number };
}

export interface PlanInput {
  maxWrites: number | undefined;
  readOnly: boolean;
  runs: number;
}

/** The --max-writes default: every named check once, every generated case, and a margin for shrinking. */
export function defaultMaxWrites(readOnly: boolean, runs: number): number {
  let posts = readOnly ? 0 : fixtureFiles.length;
  for (const check of namedChecks) if (!readOnly || readOnlySafe(check)) posts += check.posts;
  if (!readOnly) posts += generatedProperties.length * runs;
  // Read-only sends no generated case, so there is nothing to shrink.
  return posts + (readOnly ? 0 : shrinkAllowance);
}

/**
 * Decides what a run does within its caps. Fixtures come first (checks need them), then named checks in catalogue
 * order, then generated cases; whatever is left is the shrink budget.
 * @example planRun({ maxWrites: 0, readOnly: false, runs: 10 }).decisions.get('behaviour/getAgent/unknown') // { run: true }
 */
export function planRun(input: PlanInput): RunPlan {
  const maxWrites = input.maxWrites ?? defaultMaxWrites(input.readOnly, input.runs);
  const decisions = new Map<string, Decision>();
  let left = maxWrites;
  const totals = { posts: 0, deploys: 0, executes: 0 };
  const claim = (posts: number, deploys: number, executes: number): boolean => {
    if (posts > left) return false;
    left -= posts;
    totals.posts += posts;
    totals.deploys += deploys;
    totals.executes += executes;
    return true;
  };
  for (const file of fixtureFiles) {
    const id = `fixture/${file}`;
    if (input.readOnly) decisions.set(id, { run: false, reason: 'read-only' });
    else decisions.set(id, claim(1, 1, 0) ? { run: true } : { run: false, reason: 'max-writes' });
  }
  for (const check of namedChecks) {
    if (input.readOnly && !readOnlySafe(check)) {
      decisions.set(check.id, { run: false, reason: 'read-only' });
      continue;
    }
    // A check on the fixture agent cannot run when its file's fixture was capped away.
    const fixture = decisions.get(`fixture/${fileOf(check.id)}`);
    if (check.fixture && fixture && !fixture.run && fixture.reason === 'max-writes') {
      decisions.set(check.id, { run: false, reason: 'max-writes' });
      continue;
    }
    decisions.set(
      check.id,
      claim(check.posts, check.deploys, check.executes) ? { run: true } : { run: false, reason: 'max-writes' },
    );
  }
  const generated = new Map<
    GeneratedPropertyId,
    { runs: number; requested: number; skip: 'max-writes' | 'read-only' | undefined }
  >();
  const fixtureRuns = decisions.get('fixture/generated');
  for (const property of generatedProperties) {
    if (input.readOnly) {
      generated.set(property.id, { runs: 0, requested: input.runs, skip: 'read-only' });
      continue;
    }
    const needsFixture = property.operationId === 'executeAgentTask';
    const runs =
      needsFixture && fixtureRuns && !fixtureRuns.run && fixtureRuns.reason === 'max-writes'
        ? 0
        : Math.min(input.runs, left);
    claim(
      runs,
      property.valid && property.operationId === 'deployAgent' ? runs : 0,
      property.valid && property.operationId === 'executeAgentTask' ? runs : 0,
    );
    generated.set(property.id, { runs, requested: input.runs, skip: runs < input.runs ? 'max-writes' : undefined });
  }
  return { maxWrites, decisions, generated, shrinkBudget: left, totals: { ...totals, posts: totals.posts + left } };
}
