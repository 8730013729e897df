// The behavioural rules a server keeps across its own answers, derived from the spec once for every tool that judges a
// conversation: `diff` (each server on the script it ran) and the proxy (the app's traffic as it passes). What the read
// of a created thing must echo comes from the link's `x-echoes`; which ids a write mints from its answer's `*Id` fields;
// what an omitted field becomes from the request schema's `default` or the Agent schema's documented empty value.
import {
  escapePointerToken,
  getAtPointer,
  getOperation,
  linkEchoes,
  linksOf,
  mintedIds,
  parsePointer,
  ruleOrigin,
  type BodyOperationId,
  type JsonObject,
  type JsonValue,
  type LinkEcho,
  type OperationId,
  type RuleOrigin,
} from '../spec/index.ts';
import { primaryCreation } from './requests/linked-operations.ts';
import { successStatus, takesBody } from './requests/operation-requests.ts';
import { propertiesOf, requestSchema, resolveSchema, responseSchema, type SchemaAt } from './requests/spec-schemas.ts';

/** One value the read-back of a creation must show, and why. */
export interface ReadBackAgreement {
  /** Pointer into the read-back's answer. */
  pointer: string;
  /** undefined when the source had none (then the read-back must have none either). */
  want: JsonValue | undefined;
  /** `sent`: the creation's request had it; `default`: the request omitted it; `answered`: the creation's answer had it. */
  kind: 'sent' | 'default' | 'answered';
  /** Where the wanted value came from, in words: `the deploy's name`. */
  why: string;
  specPointer: string;
  origin: RuleOrigin;
  /** For `answered`, the pointer into the creation's answer the value came from. */
  source?: string;
}

const creation = primaryCreation();
const creatorPointer = getOperation(creation.creator).pointer;

/** The `x-echoes` of the link from the creation to its read-back: empty when the spec links none (nothing compared). */
const echoes: readonly LinkEcho[] = ((link) => (link ? linkEchoes(link) : []))(
  linksOf().find(
    (l) => l.from === creation.creator && l.to === creation.readBack && l.parameter === creation.parameter,
  ),
);

/** The schema of a field (a JSON pointer into a body) within the body's schema, following `$ref`s on the way. */
function fieldSchema(bodySchemaPointer: string, field: string): SchemaAt {
  return parsePointer(field).reduce(
    (at, token) => resolveSchema(`${at.pointer}/properties/${escapePointerToken(token)}`),
    resolveSchema(bodySchemaPointer),
  );
}

/**
 * What the read-back shows for an omitted request field: the request schema's `default`, else the agent field's
 * documented empty value ("an empty string when none was given on deploy", "an empty array"); none for a required one.
 */
function omittedValue(echo: LinkEcho): { want: JsonValue; specPointer: string } | undefined {
  const request = fieldSchema(requestSchema(creation.creator).pointer, echo.field);
  if (request.schema.default !== undefined)
    return { want: request.schema.default, specPointer: `${request.pointer}/default` };
  const name = parsePointer(echo.field).at(-1) ?? '';
  const required = requestSchema(creation.creator).schema.required;
  if (Array.isArray(required) && required.includes(name)) return undefined;
  const agent = fieldSchema(
    responseSchema(creation.readBack, successStatus(creation.readBack).status).pointer,
    echo.target,
  );
  if (agent.schema.type === 'array') return { want: [], specPointer: `${agent.pointer}/description` };
  if (agent.schema.type === 'string') return { want: '', specPointer: `${agent.pointer}/description` };
  return undefined;
}

/** What the read-back must show for each request field the link echoes: what was sent, or its documented value. */
interface RequestWant {
  field: string;
  target: string;
  want: JsonValue;
  kind: 'sent' | 'default';
  specPointer: string;
  origin: RuleOrigin;
}

function requestWants(sent: JsonObject): RequestWant[] {
  const result: RequestWant[] = [];
  for (const echo of echoes) {
    if (echo.from !== 'request') continue;
    const value = getAtPointer(sent, echo.field);
    const base = { field: echo.field, target: echo.target };
    if (value !== undefined) {
      result.push({ ...base, want: value, kind: 'sent', specPointer: `${creatorPointer}/requestBody`, origin: 'seed' });
      continue;
    }
    const omitted = omittedValue(echo);
    if (omitted !== undefined)
      result.push({
        ...base,
        want: omitted.want,
        kind: 'default',
        specPointer: omitted.specPointer,
        origin: ruleOrigin(omitted.specPointer),
      });
  }
  return result;
}

/**
 * Everything the read-back of a creation must agree with: each echoed request field (sent, or its documented value when
 * omitted) and each echoed answer field. A field both sent and answered (a deploy's name) is compared once, with what
 * was sent; that the answer holds what was sent too is `answerAgreements`' rule.
 * @example readBackAgreements(deployBody, deployAnswer).filter((a) => !agrees(a, agent))
 */
export function readBackAgreements(sent: JsonObject, answer: JsonObject): ReadBackAgreement[] {
  const fromRequest = requestWants(sent);
  const covered = new Set(fromRequest.map((w) => w.target));
  const result: ReadBackAgreement[] = fromRequest.map(({ field, target, want, kind, specPointer, origin }) => ({
    pointer: target,
    want,
    kind,
    why: kind === 'sent' ? `the deploy's ${field.slice(1)}` : `the documented default for an omitted ${field.slice(1)}`,
    specPointer,
    origin,
  }));
  for (const echo of echoes)
    if (echo.from === 'response' && !covered.has(echo.target))
      result.push({
        pointer: echo.target,
        want: getAtPointer(answer, echo.field),
        kind: 'answered',
        source: echo.field,
        why: 'what the deploy answered',
        specPointer: successStatus(creation.creator).pointer,
        origin: 'seed',
      });
  return result;
}

/** One value a creation's own answer must hold: what was sent (or its documented value) where both echo one field. */
export interface AnswerAgreement {
  /** Pointer into the creation's answer. */
  pointer: string;
  want: JsonValue;
  /** `sent`: the request had it; `default`: the request omitted it and the spec documents what it becomes. */
  kind: 'sent' | 'default';
  /** Pointer into the request the wanted value came from (`/name`). */
  field: string;
  specPointer: string;
  origin: RuleOrigin;
}

/**
 * What the creation's answer must agree with, within its own exchange: where the link's `x-echoes` maps a request field
 * and an answer field to the same field of the read-back (the deploy's name, sent and answered), the answer holds what
 * was sent. The read-back compares that field with what was sent only, so without this a server that answers another
 * name than the one it stores would go unseen.
 * @example answerAgreements({ name: 'x', … }) // [{ pointer: '/name', want: 'x', kind: 'sent', field: '/name', … }]
 */
export function answerAgreements(sent: JsonObject): AnswerAgreement[] {
  const byTarget = new Map(requestWants(sent).map((w) => [w.target, w]));
  const result: AnswerAgreement[] = [];
  for (const echo of echoes) {
    const from = echo.from === 'response' ? byTarget.get(echo.target) : undefined;
    if (from)
      result.push({
        pointer: echo.field,
        want: from.want,
        kind: from.kind,
        field: from.field,
        specPointer: from.specPointer,
        origin: from.origin,
      });
  }
  return result;
}

/**
 * The value the read-back shows at an agreement's pointer, and whether it is the wanted one (JSON-equal).
 * @example const { holds, found } = agreementAt(agreement, agent);
 */
export function agreementAt(
  agreement: ReadBackAgreement,
  agent: JsonObject,
): { holds: boolean; found: JsonValue | undefined } {
  const found = getAtPointer(agent, agreement.pointer);
  return { holds: JSON.stringify(found) === JSON.stringify(agreement.want), found };
}

/** One id a write's answer mints, and the rule that no two answers mint the same one. */
export interface MintedIdRule {
  /** `distinct-agent-ids` for the deploy's agentId, `distinct-task-ids` for a task's taskId. */
  rule: `distinct-${string}-ids`;
  /** Pointer of the id in the answer. */
  pointer: string;
  specPointer: string;
}

/**
 * The ids an operation's success answer mints (its `*Id` fields that no path parameter of the operation supplies: a
 * task's answer repeats the agentId of its path, which it does not mint).
 * @example mintedIdRules('deployAgent') // [{ rule: 'distinct-agent-ids', pointer: '/agentId', … }]
 */
export function mintedIdRules(operationId: OperationId): MintedIdRule[] {
  const operation = getOperation(operationId);
  return mintedIds(operationId)
    .filter((id) => !operation.pathParameters.includes(id.field))
    .map((id) => ({
      rule: `distinct-${id.field.replace(/Id$/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}-ids` as const,
      pointer: `/${escapePointerToken(id.field)}`,
      specPointer: id.schemaPointer,
    }));
}

/** The creation the read-back rules follow (the deploy, its read and the parameter that joins them), from the links. */
export const readBackCreation = creation;

/** What a submission's answer must say of the new thing: a new task is queued (the spec's decision on the execute). */
export function newSubmissionRule(
  operationId: OperationId,
): { pointer: string; want: JsonValue; specPointer: string; origin: RuleOrigin } | undefined {
  if (!creation.submissions.includes(operationId as BodyOperationId)) return undefined;
  const pointer = getOperation(operationId).pointer;
  return { pointer: '/status', want: 'queued', specPointer: pointer, origin: ruleOrigin(`${pointer}/description`) };
}

/**
 * The top-level request fields an operation's success answer repeats under the same name (a deploy's name): what was
 * sent must be what is answered, within one exchange. Fields the answer pins by an enum are left to the schema check.
 * @example echoedRequestFields('deployAgent') // ['name']
 */
export function echoedRequestFields(operationId: OperationId): string[] {
  const cached = echoedCache.get(operationId);
  if (cached) return cached;
  const operation = getOperation(operationId);
  let fields: string[] = [];
  if (takesBody(operationId)) {
    const request = propertiesOf(requestSchema(operationId)).map((p) => p.name);
    const answer = propertiesOf(responseSchema(operationId, successStatus(operationId).status));
    fields = answer
      .filter((p) => request.includes(p.name) && p.at.schema.enum === undefined)
      .map((p) => p.name)
      .filter((name) => !operation.pathParameters.includes(name));
  }
  echoedCache.set(operationId, fields);
  return fields;
}
const echoedCache = new Map<OperationId, string[]>();

/**
 * Whether a schema violation already reported at a field stands in for comparing that field again: one cause is
 * reported once, unless the violation breaks only an assumption and the comparison is the seed's (`--seed-only` keeps
 * the seed's, so an assumption's report must never hide it).
 * @example reportCovers('assumption', 'seed') // false: the disagreement with what was sent is reported too
 */
export function reportCovers(violation: RuleOrigin | undefined, comparison: RuleOrigin): boolean {
  return violation === 'seed' || (violation !== undefined && comparison === 'assumption');
}
