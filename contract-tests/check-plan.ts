// The plan of a run, derived from the checks' own definitions (each family's *-checks.ts, built from the spec's
// operations) and the generated properties: what runs, what the caps skip, how many generated cases fit, and the totals
// printed before anything is sent. Pure: no HTTP and no vitest in here.
import { operations, type BodyOperationId, type OperationId } from '../spec/index.ts';
import { creationSteps } from '../verifier-client/requests/path-parameters.ts';
import { authChecks } from './checks/auth-checks.ts';
import { behaviourChecks } from './checks/behaviour-checks.ts';
import type { CheckDefinition } from './checks/check-definition.ts';
import type { CheckName } from '../verifier-client/check-record.ts';
import { conformanceChecks } from './checks/conformance-checks.ts';
import { acceptedWrites } from '../verifier-client/requests/linked-operations.ts';
import { takesBody } from '../verifier-client/requests/operation-requests.ts';
import { reliabilityChecks } from './checks/reliability-checks.ts';
import { requestValidationChecks } from './checks/request-validation-checks.ts';

/** One named check as the plan sees it: its definition without the body. */
export type PlannedCheck = Omit<CheckDefinition, 'body'>;

/** One generated-case property: valid or invalid bodies of an operation that takes one. */
export interface GeneratedProperty {
  id: string;
  operationId: BodyOperationId;
  valid: boolean;
  title: string;
  /** Needs the generated family's fixture agent (the operation's path names an agent). */
  fixture: boolean;
}

/**
 * The generated-case properties, in run order: valid and invalid bodies of every operation of the spec that takes one.
 * @example generatedProperties.map((p) => p.id) // ['generated/<operationId>/valid', 'generated/<operationId>/invalid', …]
 */
export const generatedProperties: readonly GeneratedProperty[] = [...operations.values()].flatMap((operation) => {
  const operationId = operation.operationId;
  if (!takesBody(operationId)) return [];
  const fixture = operation.pathParameters.length > 0;
  return [
    {
      id: `generated/${operationId}/valid`,
      operationId,
      valid: true,
      title: `generated valid ${operationId} bodies are accepted with a conforming answer`,
      fixture,
    },
    {
      id: `generated/${operationId}/invalid`,
      operationId,
      valid: false,
      title: `generated invalid ${operationId} bodies are rejected with a documented 4xx`,
      fixture,
    },
  ];
});

export type GeneratedPropertyId = string;

/** POSTs kept for shrinking generated failures when --max-writes is left at its default. */
export const shrinkAllowance = 40;

/**
 * Every named check, in run order, with its body: the one list the plan, the runner and the reports share.
 * @example checkDefinitions.filter((c) => c.check === 'auth').length // 8 variants × every operation
 */
const checkDefinitions: readonly CheckDefinition[] = [
  ...conformanceChecks,
  ...authChecks,
  ...requestValidationChecks,
  ...behaviourChecks,
  ...reliabilityChecks,
];

/**
 * Every named check, in run order, without its body.
 * @example namedChecks.find((c) => c.id === `behaviour/${operationId}/unknown`)?.posts // 0 for a GET
 */
export const namedChecks: readonly PlannedCheck[] = checkDefinitions.map(({ body: _body, ...planned }) => planned);

/** Families that deploy one fixture agent each (unless --read-only): every family with a check that needs one. */
const fixtureFiles: readonly CheckName[] = [
  ...new Set<CheckName>([
    ...namedChecks.filter((check) => check.fixture).map((check) => check.check),
    ...(generatedProperties.some((property) => property.fixture) ? (['generated'] as const) : []),
  ]),
];
export type FixtureFile = CheckName;

/**
 * The creations a family's fixtures take: every value its checks' operations need (verifier-client/requests/path-parameters.ts), each
 * created once per family, counted as the writes they are.
 * @example fixtureWrites('conformance') // { posts: 1, deploys: 1, executes: 0 } with the live spec
 */
function fixtureWrites(file: FixtureFile): { posts: number; deploys: number; executes: number } {
  const operationIds = [
    ...namedChecks.filter((check) => check.fixture && fileOf(check.id) === file).map((check) => check.operationId),
    ...(file === 'generated' ? generatedProperties.filter((p) => p.fixture).map((p) => p.operationId) : []),
  ];
  const creators = new Map<string, OperationId>();
  for (const operationId of operationIds)
    for (const step of creationSteps(operationId)) creators.set(step.parameter, step.creator);
  const writes = { posts: creators.size, deploys: 0, executes: 0 };
  for (const creator of creators.values()) {
    const accepted = acceptedWrites(creator);
    writes.deploys += accepted.deploys;
    writes.executes += accepted.executes;
  }
  return writes;
}

/** The family a check id belongs to (each family has its own fixture agent). */
export function fileOf(id: string): FixtureFile {
  return id.split('/')[0] as FixtureFile;
}

/**
 * Whether --read-only may send a check: a POST goes out only when two independent guards each make a correct server
 * reject it, so that one broken guard can never create anything; an over-long path parameter is both invalid and unknown
 * (`twoGuards`). An invalid body alone, or an unknown agent alone, is one guard, so those checks (and generated cases)
 * are skipped; so are the auth checks of writing operations, whose bad credentials come with a request that would
 * succeed with a valid token (bad credentials are the only guard there).
 * @example readOnlySafe(namedChecks.find((c) => c.id === `auth/${operationId}/missing`)!) // true
 */
function readOnlySafe(check: PlannedCheck): boolean {
  return check.posts === 0 || check.twoGuards;
}

/**
 * The auth checks --read-only leaves out (those of writing operations), for the run's header and report.
 * @example readOnlySkippedAuth() // [`auth/${operationId}/missing`, …] for each writing operation
 */
export function readOnlySkippedAuth(): string[] {
  return namedChecks.filter((check) => check.check === 'auth' && !readOnlySafe(check)).map((check) => check.id);
}

type Decision = { run: true } | { run: false; reason: 'max-writes' | 'read-only' };

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
  let posts = readOnly ? 0 : fixtureFiles.reduce((sum, file) => sum + fixtureWrites(file).posts, 0);
  for (const check of namedChecks) if (!readOnly || readOnlySafe(check)) posts += check.posts;
  if (!readOnly) posts += generatedProperties.length * runs;
  // Read-only sends no generated case, so there is nothing to shrink.
  return posts + (readOnly ? 0 : shrinkAllowance);
}

/**
 * Decides what a run does within its caps. Fixtures come first (checks need them), then named checks in catalogue
 * order, then generated cases; whatever is left is the shrink budget.
 * @example planRun({ maxWrites: 0, readOnly: false, runs: 10 }).decisions.get(`behaviour/${operationId}/unknown`) // { run: true } for a GET
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
    else {
      const writes = fixtureWrites(file);
      decisions.set(
        id,
        claim(writes.posts, writes.deploys, writes.executes) ? { run: true } : { run: false, reason: 'max-writes' },
      );
    }
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
    const needsFixture = property.fixture;
    const runs =
      needsFixture && fixtureRuns && !fixtureRuns.run && fixtureRuns.reason === 'max-writes'
        ? 0
        : Math.min(input.runs, left);
    const writes = property.valid ? acceptedWrites(property.operationId) : { deploys: 0, executes: 0 };
    claim(runs, writes.deploys * runs, writes.executes * runs);
    generated.set(property.id, { runs, requested: input.runs, skip: runs < input.runs ? 'max-writes' : undefined });
  }
  return { maxWrites, decisions, generated, shrinkBudget: left, totals: { ...totals, posts: totals.posts + left } };
}
