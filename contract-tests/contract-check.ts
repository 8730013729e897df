// Runs the named checks against a server: applies the run plan (caps, read-only), sends requests through one recorder,
// checks every response for conformance (and any 5xx), applies --seed-only, and fails with an explanation. No vitest
// here: the thin vitest layer (register-checks.ts) reads the run's options and turns checks into tests.
import { checkResponse, operationRoles, operations, type OperationId, type Violation } from '../spec/index.ts';
import { authorization, credentialsFor, type Credentials } from '../verifier-client/requests/auth-variants.ts';
import type { CheckDefinition, CheckRun } from './checks/check-definition.ts';
import type { CheckName, CheckRecord, CheckViolation } from '../verifier-client/check-record.ts';
import { fileOf, planRun, type FixtureFile, type RunPlan } from './check-plan.ts';
import { formatFailure } from '../verifier-client/failure-text.ts';
import { sendRequest } from '../verifier-client/http-exchange.ts';
import { assertReadOnlySafe } from './read-only-guard.ts';
import { createRedactor, describeServerText, type Redact } from '../verifier-client/redaction.ts';
import type { RunOptions } from './run-options.ts';
import { successStatus, takesBody, validRequest } from '../verifier-client/requests/operation-requests.ts';
import { findPathValues, type PathValues } from '../verifier-client/requests/path-parameters.ts';
import { requestExamples } from '../verifier-client/requests/spec-schemas.ts';

export type { CheckRun };

/** One contract run: its options, its plan, its redactor and credentials, and the fixture agents of its files. */
export interface ContractSession {
  options: RunOptions;
  /** Every file computes the same plan from the same options. */
  plan: RunPlan;
  /**
   * The same redactor scripts/commands/contract.ts builds from the same normalized token: the token, every token derived from
   * it (hostile-tokens.ts) and their encodings never leave the suite.
   */
  redact: Redact;
  credentials: Credentials;
  /** Path values each family has created so far (its fixtures), extended as its checks need more. */
  fixtures: Map<FixtureFile, Promise<PathValues>>;
}

/**
 * A session for a run's options (the vitest layer makes one per test file from `inject('contractOptions')`).
 * @example const session = createContractSession(options);
 */
export function createContractSession(options: RunOptions): ContractSession {
  return {
    options,
    plan: planRun({ maxWrites: options.maxWrites, readOnly: options.readOnly, runs: options.runs }),
    redact: createRedactor(options.token),
    credentials: credentialsFor(options.token, '<API_TOKEN>'),
    fixtures: new Map(),
  };
}

/** Thrown when a fixture could not be created; the check reports it as a behaviour failure. */
class FixtureError extends Error {
  /** The operation that was to create the value, when known. */
  readonly creator: OperationId | undefined;
  constructor(message: string, creator?: OperationId) {
    super(message);
    this.creator = creator;
  }
}

/** Sends a valid request of the operation a link names as a parameter's source, and returns its parsed answer. */
async function createFixture(
  session: ContractSession,
  file: FixtureFile,
  creator: OperationId,
  values: PathValues,
): Promise<unknown> {
  const { options, redact } = session;
  if (options.readOnly)
    throw new FixtureError(`--read-only cannot create what ${creator} creates; it needs API_AGENT_ID`, creator);
  const example = takesBody(creator) ? requestExamples(creator).at(-1) : undefined;
  // Named after its family where the body has a name, so fixtures left on a real server say where they came from.
  const named =
    example && typeof example.name === 'string' ? { ...example, name: `contract fixture (${file})` } : example;
  const request = validRequest(creator, values, named);
  const { record, response } = await sendRequest(options.baseUrl, options.timeoutMs, redact, {
    ...request,
    authorization: authorization(session.credentials, 'token'),
  });
  if (response && response.status >= 200 && response.status < 300) {
    try {
      return JSON.parse(response.body) as unknown;
    } catch {
      // Reported below with the rest of the failures.
    }
  }
  const answer = response ? `${response.status} ${describeServerText(redact, response.body, 80)}` : record.error;
  throw new FixtureError(
    `could not create what this check needs (${request.method} ${request.path} answered ${answer})`,
    creator,
  );
}

/** The family's path values, extended (once, in order) with whatever `operationId` needs that it does not have yet. */
function fixtureValuesOf(session: ContractSession, file: FixtureFile, operationId: OperationId): Promise<PathValues> {
  const { options } = session;
  if (options.readOnly && options.agentId === undefined)
    return Promise.reject(new FixtureError('--read-only needs API_AGENT_ID (an existing agent)'));
  const start: PathValues = options.readOnly && options.agentId !== undefined ? { agentId: options.agentId } : {};
  const previous = session.fixtures.get(file) ?? Promise.resolve(start);
  const next = previous.then((known) =>
    findPathValues(operationId, (creator, values) => createFixture(session, file, creator, values), known).catch(
      (error: unknown) => {
        throw error instanceof FixtureError ? error : new FixtureError(String((error as Error).message ?? error));
      },
    ),
  );
  session.fixtures.set(file, next);
  return next;
}

/** A fresh record; generated properties, which are not in the named catalogue, make theirs with it too. */
export function emptyRecord(id: string, check: CheckName, operationId: string, title: string): CheckRecord {
  return {
    id,
    check,
    operationId,
    title,
    outcome: 'passed',
    skipReason: undefined,
    violations: [],
    warnings: [],
    exchanges: [],
    generated: undefined,
  };
}

/** Creates the run object of one check; `allowedPosts` is enforced so the plan's totals are a promise, not a guess. */
export function createCheckRun(
  session: ContractSession,
  record: CheckRecord,
  allowedPosts: number | (() => boolean),
): CheckRun {
  const { options, redact } = session;
  let posts = 0;
  const run: CheckRun = {
    options,
    record,
    async send(request) {
      if (request.method === 'POST') {
        const allowed = typeof allowedPosts === 'number' ? posts < allowedPosts : allowedPosts();
        if (!allowed) throw new Error(`suite bug: ${record.id} sent more POSTs than the plan allows`);
        posts += 1;
        if (options.readOnly)
          assertReadOnlySafe(
            { ...request, method: 'POST', validCredentials: (request.auth ?? 'token') === 'token' },
            options.agentId,
          );
      }
      const sent = await sendRequest(options.baseUrl, options.timeoutMs, redact, {
        ...request,
        authorization: authorization(session.credentials, request.auth ?? 'token'),
      });
      const index = record.exchanges.push(sent.record) - 1;
      if (!sent.response) {
        run.violate({
          rule: 'answers',
          pointer: '',
          expected: 'an HTTP response',
          found: sent.record.error ?? 'no response',
          origin: 'seed',
          specPointer: '',
          message: `no answer to ${request.method} ${request.path}: ${sent.record.error ?? ''}`,
          exchange: index,
        });
        return { ...sent, index };
      }
      const checked = checkResponse({
        operationId: request.operationId as OperationId,
        status: sent.response.status,
        contentType: sent.response.contentType,
        body: sent.response.body,
        headers: sent.response.headers,
      });
      for (const violation of checked.violations) record.violations.push(fromSpec(redact, violation, index));
      for (const warning of checked.warnings) record.warnings.push(fromSpec(redact, warning, index));
      if (sent.response.status >= 500) {
        // Schemathesis' not_a_server_error: documented or not, a 5xx means the server failed, whatever was sent.
        // A rule of every answer, like the spec's: reported under conformance, with the path template, so that the
        // same failure seen by many checks collapses into one line of the report.
        const operation = operations.get(request.operationId as OperationId);
        run.violate({
          check: 'conformance',
          rule: 'not-a-server-error',
          pointer: '',
          expected: 'an answer that is not a 5xx',
          found: String(sent.response.status),
          origin: 'seed',
          specPointer: `${operation?.pointer ?? ''}/responses`,
          message: `${request.method} ${operation?.path ?? request.path} made the server fail (${sent.response.status})`,
          exchange: index,
        });
      }
      return { ...sent, index };
    },
    violate(violation) {
      const { exchange, check, ...rest } = violation;
      record.violations.push({
        ...rest,
        message: redact(rest.message),
        found: redact(rest.found),
        check: check ?? record.check,
        exchange,
      });
    },
    pathValues(operationId) {
      return fixtureValuesOf(session, fileOf(record.id), operationId);
    },
  };
  return run;
}

function fromSpec(redact: Redact, violation: Violation, exchange: number): CheckViolation {
  return {
    check: 'conformance',
    rule: violation.rule,
    pointer: violation.pointer,
    expected: violation.expected,
    found: redact(violation.found),
    origin: violation.origin,
    specPointer: violation.specPointer,
    message: redact(violation.message),
    exchange,
  };
}

/** Applies --seed-only, sets the outcome, and throws the explanation when the check failed. */
export function finishCheck(session: ContractSession, record: CheckRecord): void {
  if (session.options.seedOnly) {
    for (const violation of record.violations) if (violation.origin === 'assumption') record.warnings.push(violation);
    record.violations = record.violations.filter((v) => v.origin !== 'assumption');
  }
  // Every difference found stays in the record; the seed's come first, so the first line of a report (JUnit's message)
  // is never an assumption's while a seed rule is broken too. The sort is stable: each origin keeps its order.
  record.violations.sort((a, b) => Number(a.origin !== 'seed') - Number(b.origin !== 'seed'));
  record.outcome = record.violations.length > 0 ? 'failed' : 'passed';
  if (record.outcome === 'failed') {
    const error = new Error(`${record.violations.length} violation(s)\n${formatFailure(record)}`);
    error.stack = error.message;
    throw error;
  }
}

/**
 * Runs one named check into `record`, or marks it skipped (calling `skip` with the reason) when the plan says so.
 * @example await runCheck(session, definition, (note) => context.skip(note), record);
 */
export async function runCheck(
  session: ContractSession,
  definition: CheckDefinition,
  skip: (note: string) => void,
  record: CheckRecord,
): Promise<void> {
  const { options } = session;
  const decision = session.plan.decisions.get(definition.id);
  if (decision && !decision.run) {
    record.outcome = 'skipped';
    record.skipReason = decision.reason;
    skip(decision.reason === 'max-writes' ? 'skipped: --max-writes leaves no room for it' : 'skipped: --read-only');
    return;
  }
  if (definition.fixture && options.readOnly && options.agentId === undefined) {
    record.outcome = 'skipped';
    record.skipReason = 'no-agent';
    skip('skipped: needs API_AGENT_ID under --read-only');
    return;
  }
  if (definition.needsJwt && session.credentials.hostile['alg-none'] === undefined) {
    record.outcome = 'skipped';
    record.skipReason = 'not-a-jwt';
    skip('skipped: API_TOKEN is not a JWT, so no token can be derived from it');
    return;
  }
  const run = createCheckRun(session, record, definition.posts);
  try {
    await definition.body(run);
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error;
    fixtureViolation(run, error);
  }
  finishCheck(session, record);
}

function fixtureViolation(run: CheckRun, error: FixtureError): void {
  const creator = error.creator ?? operationRoles().creators[0];
  run.violate({
    check: 'behaviour',
    rule: 'creation-succeeds',
    pointer: '',
    expected: 'a 2xx answer holding what the links say it creates',
    found: error.message,
    origin: 'seed',
    specPointer: creator === undefined ? '' : successStatus(creator).pointer,
    message: error.message,
  });
}

/**
 * The family's path values for an operation, or undefined after recording why they could not be created (for checks
 * outside registerChecks, such as the generated properties).
 * @example const values = await fixtureOrViolation(createCheckRun(session, record, 0), operationId); if (!values) return;
 */
export async function fixtureOrViolation(run: CheckRun, operationId: OperationId): Promise<PathValues | undefined> {
  try {
    return await run.pathValues(operationId);
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error;
    fixtureViolation(run, error);
    return undefined;
  }
}
