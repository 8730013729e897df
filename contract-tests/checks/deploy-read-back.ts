// Every accepted deploy is read back: deploys a body, retrieves the agent it created and compares it, field by field,
// with what was sent (or the documented default) and what the deploy answered. Shared by behaviour and generated checks.
import { getAtPointer, isJsonObject, type JsonObject, type JsonValue, type RuleOrigin } from '../../spec/index.ts';
import { answerAgreements, readBackAgreements, reportCovers } from '../../verifier-client/invariants.ts';
import { primaryCreation } from '../../verifier-client/requests/linked-operations.ts';
import type { CheckRun } from './check-definition.ts';
import { successStatus, validRequest } from '../../verifier-client/requests/operation-requests.ts';
import { expectSuccess } from './expect-success.ts';

/** The write the links name as the first creator (the deploy), what it creates, and the GET that reads it back. */
const creation = primaryCreation();
const creator = creation.creator;
const reader = creation.readBack;

/** One field of the retrieved agent and the value it must have. */
export interface Agreement {
  pointer: string;
  want: JsonValue | undefined;
  origin: RuleOrigin;
  specPointer: string;
  why: string;
  /** The exchange the wanted value came from (the deploy's answer), when not the request. */
  source?: number;
}

function parse(body: string): JsonValue | undefined {
  try {
    return JSON.parse(body) as JsonValue;
  } catch {
    return undefined;
  }
}

/** Equal as JSON, with numbers equal up to double rounding noise (a server may store them as decimals). */
function same(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (typeof a === 'number' && typeof b === 'number')
    return a === b || Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => same(item, b[i]));
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => same(a[key], b[key]));
  }
  return a === b;
}

/** The id a creation answered, where its link says it is. */
function createdId(answer: JsonValue | undefined): string | undefined {
  const value = answer === undefined ? undefined : getAtPointer(answer, creation.field);
  return typeof value === 'string' ? value : undefined;
}

/** The creating operation and the GET that reads back what it created (from the spec's links). */
export const readBackPair = { creator, reader, parameter: creation.parameter, field: creation.field } as const;

/**
 * Deploys `body`; records why it did not create an agent, or returns the answer.
 * @example const deployed = await deploy(run, { name: 'x', category: 'defi', model: 'gpt-4', initialSupply: 1 });
 */
export async function deploy(
  run: CheckRun,
  body: JsonObject,
  validBy?: RuleOrigin,
  what = 'a valid deploy',
): Promise<{ answer: JsonObject; id: string; index: number } | undefined> {
  const { response, index } = await run.send(validRequest(creator, {}, body));
  if (!response || !expectSuccess(run, creator, response.status, index, what, validBy)) return undefined;
  const answer = parse(response.body);
  if (isJsonObject(answer)) answerAgrees(run, answer, index, body);
  // A success without the created id is a conformance violation of the body (recorded by send); nothing to read back.
  const id = createdId(answer);
  return isJsonObject(answer) && id !== undefined ? { answer, id, index } : undefined;
}

/**
 * The schema violations already recorded for an exchange, by pointer, that an agreement of `origin` may leave to them:
 * one cause is reported once, but only where that report survives --seed-only as well as the agreement would; an
 * assumption-labelled break (a name past the assumed maxLength) never hides a seed difference at the same place.
 */
function reportedThere(run: CheckRun, origin: RuleOrigin): Set<string> {
  return new Set(
    run.record.violations
      .filter((v) => v.rule === 'body-schema' && reportCovers(v.origin, origin))
      .map((v) => `${v.exchange}:${v.pointer}`),
  );
}

/** The deploy's own answer holds what was sent where the link echoes both into one field of the agent (its name). */
function answerAgrees(run: CheckRun, answer: JsonObject, index: number, sent: JsonObject): void {
  for (const { pointer, want, kind, field, origin, specPointer } of answerAgreements(sent)) {
    if (reportedThere(run, origin).has(`${index}:${pointer}`)) continue;
    const found = getAtPointer(answer, pointer);
    if (same(found, want)) continue;
    run.violate({
      rule: 'answer-echoes-request',
      pointer,
      expected: JSON.stringify(want),
      found: found === undefined ? 'nothing' : JSON.stringify(found),
      origin,
      specPointer,
      message: `${pointer} of the deploy's answer disagrees with ${kind === 'sent' ? `the ${field.slice(1)} it was sent` : `the documented value of an omitted ${field.slice(1)}`}`,
      exchange: index,
    });
  }
}

/**
 * Retrieves an agent that a deploy just returned (through the GET its link names); records why it cannot be.
 * @example const retrieved = await retrieve(run, 'agt_1'); // undefined when it could not be retrieved
 */
export async function retrieve(
  run: CheckRun,
  agentId: string,
): Promise<{ agent: JsonObject; index: number } | undefined> {
  const { response, index } = await run.send(validRequest(reader, { [creation.parameter]: agentId }));
  if (!response || response.status >= 500) return undefined;
  const agent = parse(response.body);
  if (response.status !== 200 || !isJsonObject(agent)) {
    run.violate({
      rule: 'deployed-agent-retrievable',
      pointer: '',
      expected: 'status 200 with the agent',
      found: String(response.status),
      origin: 'seed',
      specPointer: successStatus(reader).pointer,
      message: `the agent ${agentId} that deploy just returned cannot be retrieved (${response.status})`,
      exchange: index,
    });
    return undefined;
  }
  return { agent, index };
}

/**
 * Compares the retrieved agent with each agreement.
 * @example agree(run, agent, index, [{ pointer: '/status', want: 'active', origin: 'assumption', specPointer, why }]);
 */
export function agree(run: CheckRun, agent: JsonObject, index: number, agreements: Agreement[]): void {
  // A field that already breaks its schema, in the agent or in the answer it is compared with, is reported once, there
  // (unless that report is an assumption's and the agreement the seed's).
  for (const { pointer, want, origin, specPointer, why, source } of agreements) {
    const malformed = reportedThere(run, origin);
    if (malformed.has(`${index}:${pointer}`) || (source !== undefined && malformed.has(`${source}:${pointer}`)))
      continue;
    const found = pointer
      .split('/')
      .slice(1)
      .reduce<JsonValue | undefined>((node, key) => (isJsonObject(node) ? node[key] : undefined), agent);
    if (!same(found, want)) {
      run.violate({
        rule: 'retrieve-agrees-with-deploy',
        pointer,
        expected: JSON.stringify(want),
        found: found === undefined ? 'nothing' : JSON.stringify(found),
        origin,
        specPointer,
        message: `${pointer} of the retrieved agent disagrees with ${why}`,
        exchange: index,
      });
    }
  }
}

/**
 * What the retrieved agent must agree with: every request field (sent, or its documented default) and the deploy's
 * answer, as verifier-client/invariants.ts derives them from the link's `x-echoes` for every tool that judges a read-back.
 * @example agree(run, agent, index, deployAgreements(sent, answer));
 */
export function deployAgreements(sent: JsonObject, answer: JsonObject, answerExchange?: number): Agreement[] {
  return readBackAgreements(sent, answer).map(({ pointer, want, kind, specPointer, origin }) => ({
    pointer,
    want,
    origin,
    specPointer,
    why:
      kind === 'sent'
        ? 'what the deploy sent'
        : kind === 'default'
          ? `the documented value of an omitted ${pointer.slice(1)}`
          : 'what the deploy answered',
    ...(kind === 'answered' && answerExchange !== undefined ? { source: answerExchange } : {}),
  }));
}

/**
 * Deploys `sent`, retrieves the agent and compares them; returns the answer and the retrieved agent.
 * @example await readBack(run, requestExamples(readBackPair.creator)[0]);
 */
export async function readBack(
  run: CheckRun,
  sent: JsonObject,
  validBy?: RuleOrigin,
  what?: string,
): Promise<{ answer: JsonObject; agent: JsonObject; index: number } | undefined> {
  const deployed = await deploy(run, sent, validBy, what);
  if (!deployed) return undefined;
  const retrieved = await retrieve(run, deployed.id);
  if (!retrieved) return undefined;
  agree(run, retrieved.agent, retrieved.index, deployAgreements(sent, deployed.answer, deployed.index));
  return { answer: deployed.answer, agent: retrieved.agent, index: retrieved.index };
}
