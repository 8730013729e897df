// Registers the named checks as vitest tests: applies the run plan (caps, read-only), sends requests through one
// recorder, checks every response for conformance (and any 5xx), applies --seed-only, stores the record in the task
// meta and fails with an explanation.
import { describe, inject, test } from 'vitest';
import { checkResponse, operations, type OperationId, type Violation } from '../spec/index.ts';
import type { AuthVariant, CheckDefinition, CheckRun } from './check-definition.ts';
import type { CheckName, CheckRecord, CheckViolation } from './check-record.ts';
import { fileOf, planRun, type FixtureFile, type RunPlan } from './check-plan.ts';
import { formatFailure } from './failure-text.ts';
import { hostileTokens } from './hostile-tokens.ts';
import { sendRequest, type OutgoingRequest } from './http-exchange.ts';
import { assertReadOnlySafe } from './read-only-guard.ts';
import { createRedactor, describeServerText, type Redact } from './redaction.ts';
import type { RunOptions } from './run-options.ts';
import { successStatus } from './operation-requests.ts';
import { requestExamples } from './spec-schemas.ts';

export type { CheckRun };

/** The run's options, read once per test file. */
export const runOptions: RunOptions = inject('contractOptions');
/** The run's plan; every file computes the same one from the same options. */
export const runPlan: RunPlan = planRun({
  maxWrites: runOptions.maxWrites,
  readOnly: runOptions.readOnly,
  runs: runOptions.runs,
});

const hostile = hostileTokens(runOptions.token);
/**
 * The run's redactor, the same one scripts/contract.ts builds from the same normalized token: the token, every token
 * derived from it (hostile-tokens.ts) and their encodings never leave the suite.
 */
export const redact: Redact = createRedactor(runOptions.token);

const hostileLabels: Record<keyof typeof hostile, string> = {
  'bad-signature': 'Bearer <API_TOKEN with its signature altered>',
  'signature-removed': 'Bearer <API_TOKEN with its signature removed>',
  'alg-none': 'Bearer <API_TOKEN with alg none and no signature>',
  'alg-switched': 'Bearer <API_TOKEN with its alg switched>',
  'payload-altered': 'Bearer <API_TOKEN with its payload altered>',
};

function authorization(variant: AuthVariant | 'token'): OutgoingRequest['authorization'] {
  switch (variant) {
    case 'token':
      return { value: `Bearer ${runOptions.token}`, label: 'Bearer <API_TOKEN>' };
    case 'missing':
      return undefined;
    case 'not-bearer':
      return { value: `Basic ${runOptions.token}`, label: 'Basic <API_TOKEN>' };
    case 'malformed':
      return { value: 'Bearer not-a-jwt', label: 'Bearer not-a-jwt' };
    default: {
      const token = hostile[variant];
      // Planned away (the check is skipped when API_TOKEN is not a JWT); the empty token is rejected either way.
      return { value: `Bearer ${token ?? ''}`, label: hostileLabels[variant] };
    }
  }
}

const fixtures = new Map<FixtureFile, Promise<string>>();

/** Thrown when the fixture agent could not be deployed; the check reports it as a behaviour failure. */
class FixtureError extends Error {}

async function deployFixture(file: FixtureFile): Promise<string> {
  if (runOptions.readOnly) {
    if (runOptions.agentId === undefined) throw new FixtureError('--read-only needs API_AGENT_ID (an existing agent)');
    return runOptions.agentId;
  }
  const example = requestExamples('deployAgent').at(-1);
  const { record, response } = await sendRequest(runOptions.baseUrl, runOptions.timeoutMs, redact, {
    operationId: 'deployAgent',
    method: 'POST',
    path: '/v1/agents/deploy',
    authorization: authorization('token'),
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

function fixtureAgentOf(file: FixtureFile): Promise<string> {
  let pending = fixtures.get(file);
  if (!pending) {
    pending = deployFixture(file);
    fixtures.set(file, pending);
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
export function createCheckRun(record: CheckRecord, allowedPosts: number | (() => boolean)): CheckRun {
  let posts = 0;
  const run: CheckRun = {
    options: runOptions,
    record,
    async send(request) {
      if (request.method === 'POST') {
        const allowed = typeof allowedPosts === 'number' ? posts < allowedPosts : allowedPosts();
        if (!allowed) throw new Error(`suite bug: ${record.id} sent more POSTs than the plan allows`);
        posts += 1;
        if (runOptions.readOnly)
          assertReadOnlySafe(
            { ...request, method: 'POST', validCredentials: (request.auth ?? 'token') === 'token' },
            runOptions.agentId,
          );
      }
      const sent = await sendRequest(runOptions.baseUrl, runOptions.timeoutMs, redact, {
        ...request,
        authorization: authorization(request.auth ?? 'token'),
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
      for (const violation of checked.violations) record.violations.push(fromSpec(violation, index, 'conformance'));
      for (const warning of checked.warnings) record.warnings.push(fromSpec(warning, index, 'conformance'));
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
      return fixtureAgentOf(fileOf(record.id));
    },
  };
  return run;
}

function fromSpec(violation: Violation, exchange: number, check: CheckName): CheckViolation {
  return {
    check,
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
export function finishCheck(record: CheckRecord): void {
  if (runOptions.seedOnly) {
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

async function runCheck(definition: CheckDefinition, skip: (note: string) => void, record: CheckRecord): Promise<void> {
  const decision = runPlan.decisions.get(definition.id);
  if (decision && !decision.run) {
    record.outcome = 'skipped';
    record.skipReason = decision.reason;
    skip(decision.reason === 'max-writes' ? 'skipped: --max-writes leaves no room for it' : 'skipped: --read-only');
    return;
  }
  if (definition.fixture && runOptions.readOnly && runOptions.agentId === undefined) {
    record.outcome = 'skipped';
    record.skipReason = 'no-agent';
    skip('skipped: needs API_AGENT_ID under --read-only');
    return;
  }
  if (definition.needsJwt && hostile['alg-none'] === undefined) {
    record.outcome = 'skipped';
    record.skipReason = 'not-a-jwt';
    skip('skipped: API_TOKEN is not a JWT, so no token can be derived from it');
    return;
  }
  const run = createCheckRun(record, definition.posts);
  try {
    await definition.body(run);
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error;
    fixtureViolation(run, error);
  }
  finishCheck(record);
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
 * @example const agentId = await fixtureOrViolation(createCheckRun(record, 0)); if (agentId === undefined) return;
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

/**
 * Registers named checks as tests, grouped by operation.
 * @example registerChecks(authChecks); // in auth.test.ts
 */
export function registerChecks(definitions: readonly CheckDefinition[]): void {
  const byOperation = Map.groupBy(definitions, (definition) => definition.operationId);
  for (const [operationId, mine] of byOperation) {
    describe(operationId, () => {
      for (const definition of mine) {
        test(`${definition.check}: ${definition.title}`, async (context) => {
          const record = emptyRecord(definition.id, definition.check, definition.operationId, definition.title);
          context.task.meta.contract = record;
          await runCheck(definition, (note) => context.skip(note), record);
        });
      }
    });
  }
}
