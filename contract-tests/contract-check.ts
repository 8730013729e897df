// Runs the named checks against a server: applies the run plan (caps, read-only), sends requests through one recorder,
// checks every response for conformance (and any 5xx), applies --seed-only, and fails with an explanation. No vitest
// here: the thin vitest layer (register-checks.ts) reads the run's options and turns checks into tests.
import { checkResponse, operations, type OperationId, type Violation } from '../spec/index.ts';
import { authorization, credentialsFor, type Credentials } from '../client/auth-variants.ts';
import type { CheckDefinition, CheckRun } from './check-definition.ts';
import type { CheckName, CheckRecord, CheckViolation } from '../client/check-record.ts';
import { fileOf, planRun, type FixtureFile, type RunPlan } from './check-plan.ts';
import { formatFailure } from '../client/failure-text.ts';
import { sendRequest } from '../client/http-exchange.ts';
import { assertReadOnlySafe } from './read-only-guard.ts';
import { createRedactor, describeServerText, type Redact } from '../client/redaction.ts';
import type { RunOptions } from './run-options.ts';
import { successStatus } from '../client/operation-requests.ts';
import { requestExamples } from '../client/spec-schemas.ts';

export type { CheckRun };

/** One contract run: its options, its plan, its redactor and credentials, and the fixture agents of its files. */
export interface ContractSession {
  options: RunOptions;
  /** Every file computes the same plan from the same options. */
  plan: RunPlan;
  /**
   * The same redactor scripts/contract.ts builds from the same normalized token: the token, every token derived from
   * it (hostile-tokens.ts) and their encodings never leave the suite.
   */
  redact: Redact;
  credentials: Credentials;
  fixtures: Map<FixtureFile, Promise<string>>;
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

/** Thrown when the fixture agent could not be deployed; the check reports it as a behaviour failure. */
class FixtureError extends Error {}

async function deployFixture(session: ContractSession, file: FixtureFile): Promise<string> {
  const { options, redact } = session;
  if (options.readOnly) {
    if (options.agentId === undefined) throw new FixtureError('--read-only needs API_AGENT_ID (an existing agent)');
    return options.agentId;
  }
  const example = requestExamples('deployAgent').at(-1);
  const { record, response } = await sendRequest(options.baseUrl, options.timeoutMs, redact, {
    operationId: 'deployAgent',
    method: 'POST',
    path: '/v1/agents/deploy',
    authorization: authorization(session.credentials, 'token'),
    contentType: 'application/json',
    body: JSON.stringify({ ...example, name: `contract fixture (${file})` }),
  });
  let agentId: unknown;
  try {
    agentId =
      response && response.status >= 200 && response.status < 300
        ? (JSON.parse(response.body) as { agentId?: unknown }).agentId
        : undefined;
  } catch {
    agentId = undefined;
  }
  if (typeof agentId !== 'string') {
    const answer = response ? `${response.status} ${describeServerText(redact, response.body, 80)}` : record.error;
    throw new FixtureError(`could not deploy the agent this check needs (POST /v1/agents/deploy answered ${answer})`);
  }
  return agentId;
}

function fixtureAgentOf(session: ContractSession, file: FixtureFile): Promise<string> {
  let pending = session.fixtures.get(file);
  if (!pending) {
    pending = deployFixture(session, file);
    session.fixtures.set(file, pending);
  }
  return pending;
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
    fixtureAgent() {
      return fixtureAgentOf(session, fileOf(record.id));
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
    record.warnings.push(...record.violations.filter((v) => v.origin === 'assumption'));
    record.violations = record.violations.filter((v) => v.origin !== 'assumption');
  }
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
  run.violate({
    check: 'behaviour',
    rule: 'deploy-creates-agent',
    pointer: '/agentId',
    expected: 'a 2xx answer with an agentId',
    found: error.message,
    origin: 'seed',
    specPointer: successStatus('deployAgent').pointer,
    message: error.message,
  });
}

/**
 * The family's fixture agent, or undefined after recording why it could not be deployed (for checks outside
 * registerChecks, such as the generated properties).
 * @example const agentId = await fixtureOrViolation(createCheckRun(session, record, 0)); if (agentId === undefined) return;
 */
export async function fixtureOrViolation(run: CheckRun): Promise<string | undefined> {
  try {
    return await run.fixtureAgent();
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error;
    fixtureViolation(run, error);
    return undefined;
  }
}
