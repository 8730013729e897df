// Registers one named check as a vitest test: applies the run plan (caps, read-only), sends requests through one recorder,
// checks every response for conformance, applies --seed-only, stores the record in the task meta and fails with an explanation.
import { inject, test } from 'vitest';
import { checkResponse, type OperationId, type Violation } from '../spec/index.ts';
import type { CheckName, CheckRecord, CheckViolation } from './check-record.ts';
import { fileOf, namedChecks, planRun, type AuthVariant, type FixtureFile, type RunPlan } from './check-plan.ts';
import { formatFailure } from './failure-text.ts';
import { sendRequest, type OutgoingRequest, type SentExchange } from './http-exchange.ts';
import { assertReadOnlySafe } from './read-only-guard.ts';
import { alterSignature, createRedactor, describeServerText, type Redact } from './redaction.ts';
import type { RunOptions } from './run-options.ts';
import { requestExamples } from './spec-schemas.ts';

/** What a check body can do. */
export interface CheckRun {
  options: RunOptions;
  /** Sends with the run's token unless `auth` says otherwise; every answer is checked for conformance. */
  send(
    request: Omit<OutgoingRequest, 'authorization'> & { auth?: AuthVariant | 'token' },
  ): Promise<SentExchange & { index: number }>;
  /** Records a violation of the check's own rule (conformance violations are recorded by send). */
  violate(
    violation: Omit<CheckViolation, 'check' | 'exchange'> & { exchange?: number | undefined; check?: CheckName },
  ): void;
  /** The agent this file works on: deployed once per file, or API_AGENT_ID under --read-only. */
  fixtureAgent(): Promise<string>;
  /** Records generated-case details for the report. */
  record: CheckRecord;
}

/** The run's options, read once per test file. */
export const runOptions: RunOptions = inject('contractOptions');
/** The run's plan; every file computes the same one from the same options. */
export const runPlan: RunPlan = planRun({
  maxWrites: runOptions.maxWrites,
  readOnly: runOptions.readOnly,
  runs: runOptions.runs,
});

const alteredToken = alterSignature(runOptions.token);
/** The run's redactor, the same one scripts/contract.ts builds: the token and all it derives never leave the suite. */
export const redact: Redact = createRedactor(runOptions.token);

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
    case 'bad-signature':
      return { value: `Bearer ${alteredToken}`, label: 'Bearer <API_TOKEN with its signature altered>' };
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
    const answer = response ? `${response.status} ${describeServerText(redact, response.body, 200)}` : record.error;
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
            { ...request, validCredentials: (request.auth ?? 'token') === 'token' },
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

/**
 * Registers a named check of the catalogue (check-plan.ts) as a test.
 * @example contractCheck('behaviour/getAgent/unknown', async (run) => { const { response } = await run.send(...); ... });
 */
export function contractCheck(id: string, body: (run: CheckRun) => Promise<void>): void {
  const planned = namedChecks.find((check) => check.id === id);
  if (!planned) throw new Error(`suite bug: ${id} is not in the check catalogue`);
  test(`${planned.check}: ${planned.title}`, async (context) => {
    const record = emptyRecord(id, planned.check, planned.operationId, planned.title);
    context.task.meta.contract = record;
    const decision = runPlan.decisions.get(id);
    if (decision && !decision.run) {
      record.outcome = 'skipped';
      record.skipReason = decision.reason;
      context.skip(
        decision.reason === 'max-writes' ? 'skipped: --max-writes leaves no room for it' : 'skipped: --read-only',
      );
      return;
    }
    if (planned.fixture && runOptions.readOnly && runOptions.agentId === undefined) {
      record.outcome = 'skipped';
      record.skipReason = 'no-agent';
      context.skip('skipped: needs API_AGENT_ID under --read-only');
      return;
    }
    const run = createCheckRun(record, planned.posts);
    try {
      await body(run);
    } catch (error) {
      if (!(error instanceof FixtureError)) throw error;
      run.violate({
        check: 'behaviour',
        rule: 'deploy-creates-agent',
        pointer: '/agentId',
        expected: 'a 2xx answer with an agentId',
        found: error.message,
        origin: 'seed',
        specPointer: '/paths/~1v1~1agents~1deploy/post/responses/201',
        message: error.message,
      });
    }
    finishCheck(record);
  });
}
