// One named check, defined once next to its code: what it is (id, family, operation, title), what it may send (the
// plan reads this), and the body that runs it. Pure data and types: no vitest here, so the CLI can plan from it.
import type { OperationId } from '../../spec/index.ts';
import type { AuthVariant } from '../../verifier-client/requests/auth-variants.ts';
import type { CheckName, CheckRecord, CheckViolation } from '../../verifier-client/check-record.ts';
import type { OutgoingRequest, SentExchange } from '../../verifier-client/http-exchange.ts';
import type { PathValues } from '../../verifier-client/requests/path-parameters.ts';
import type { RunOptions } from '../run-options.ts';

/** What a check body can do. */
export interface CheckRun {
  options: RunOptions;
  /**
   * Sends with the run's token unless `auth` says otherwise. Every answer is checked for conformance, and a 5xx is
   * recorded as `not-a-server-error` (so callers need not report it again).
   */
  send(
    request: Omit<OutgoingRequest, 'authorization'> & { auth?: AuthVariant | 'token' },
  ): Promise<SentExchange & { index: number }>;
  /** Records a violation of the check's own rule (conformance violations are recorded by send). */
  violate(
    violation: Omit<CheckViolation, 'check' | 'exchange'> & { exchange?: number | undefined; check?: CheckName },
  ): void;
  /**
   * Valid values of the operation's path parameters, from the family's fixtures: created once per family through the
   * spec's links (verifier-client/requests/path-parameters.ts), or API_AGENT_ID under --read-only.
   */
  pathValues(operationId: OperationId): Promise<PathValues>;
  /** The check's record (generated checks add their details to it). */
  record: CheckRecord;
}

/** What the plan needs to know about a check before anything is sent. */
export interface CheckMeta {
  /** Stable, `<family>/<operationId>/<name>`. */
  id: string;
  title: string;
  /** POST requests it sends (each counts against --max-writes). */
  posts: number;
  /** Of those, deploys and task submissions a correct server accepts (they create something; --read-only skips them). */
  deploys?: number;
  executes?: number;
  /** Needs its family's fixtures (its operation's path parameters: created once per family, or API_AGENT_ID under --read-only). */
  fixture?: boolean;
  /** Which auth variant it sends, when that variant needs the token to be a JWT. */
  needsJwt?: boolean;
  /** Every POST it sends is refused by a correct server for two independent reasons, so --read-only may send it. */
  twoGuards?: boolean;
}

/** A check as the plan and the runner see it. */
export interface CheckDefinition {
  id: string;
  check: CheckName;
  operationId: OperationId;
  title: string;
  posts: number;
  deploys: number;
  executes: number;
  fixture: boolean;
  needsJwt: boolean;
  twoGuards: boolean;
  body: (run: CheckRun) => Promise<void>;
}

const families: readonly CheckName[] = [
  'conformance',
  'auth',
  'request-validation',
  'behaviour',
  'reliability',
  'generated',
];

/**
 * Defines a named check; its family and operation are read from its id, so they cannot disagree with it.
 * @example
 * export const unknownAgent = defineCheck(
 *   { id: `behaviour/${operationId}/unknown`, title: 'an unknown agentId is answered 404', posts: 0 },
 *   async (run) => { await run.send(validRequest(operationId, { agentId: 'x' })); },
 * );
 */
export function defineCheck(meta: CheckMeta, body: (run: CheckRun) => Promise<void>): CheckDefinition {
  const [family, operationId] = meta.id.split('/');
  if (!families.includes(family as CheckName)) throw new Error(`suite bug: ${meta.id} names no check family`);
  return {
    id: meta.id,
    check: family as CheckName,
    operationId: operationId as OperationId,
    title: meta.title,
    posts: meta.posts,
    deploys: meta.deploys ?? 0,
    executes: meta.executes ?? 0,
    fixture: meta.fixture ?? false,
    needsJwt: meta.needsJwt ?? false,
    twoGuards: meta.twoGuards ?? false,
    body,
  };
}
