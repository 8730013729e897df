// The behavioural rules the differential check holds each server to on its own answers: what is retrieved agrees with
// what was deployed, omitted fields get the documented defaults, ids are unique, a new task is queued.
import {
  isJsonObject,
  ruleOrigin,
  type BodyOperationId,
  type JsonObject,
  type JsonValue,
  type RuleOrigin,
} from '../spec/index.ts';
import { propertiesOf, requestSchema, resolveSchema } from '../client/requests/spec-schemas.ts';
import { primaryCreation } from '../client/requests/linked-operations.ts';
import type { DiffStep } from './diff-script.ts';
import { valueAt } from './response-shape.ts';

/** Whether one rule held for one server at one step. */
export interface InvariantResult {
  rule:
    | 'retrieve-agrees-with-deploy'
    | 'default-applied'
    | 'distinct-agent-ids'
    | 'distinct-task-ids'
    | 'new-task-queued';
  /** The step whose answer the rule is about. */
  step: string;
  pointer: string;
  holds: boolean;
  expected: string;
  found: string;
  description: string;
  specPointer: string;
  origin: RuleOrigin;
}

const deploySpec = '/paths/~1v1~1agents~1deploy/post';
const executeSpec = '/paths/~1v1~1agents~1{agentId}~1execute/post';

/**
 * Where the retrieved agent shows a deploy request field: the field of the same name in the Agent schema (top level or
 * one object down), or, for the two the operation's description renames, totalSupply and price.
 * @example agentPointerOf('revenueShare') // '/tokenomics/revenueShare'
 */
function agentPointerOf(requestField: string): string | undefined {
  // "its totalSupply and circulatingSupply equal initialSupply; its price is pricePerToken" (the deploy's description).
  const renamed: Record<string, string> = {
    initialSupply: '/tokenomics/totalSupply',
    pricePerToken: '/tokenomics/price',
  };
  if (renamed[requestField]) return renamed[requestField];
  for (const property of propertiesOf(resolveSchema('/components/schemas/Agent'))) {
    if (property.name === requestField) return `/${property.name}`;
    if (property.at.schema.type === 'object')
      for (const nested of propertiesOf(property.at))
        if (nested.name === requestField) return `/${property.name}/${nested.name}`;
  }
  return undefined;
}

/** Fields of a deploy answer that the retrieved agent repeats (documented in both schemas, at the top level). */
function sharedAnswerFields(): string[] {
  const agent = new Set(propertiesOf(resolveSchema('/components/schemas/Agent')).map((p) => p.name));
  return propertiesOf(resolveSchema('/components/schemas/DeployResult'))
    .map((p) => p.name)
    .filter((name) => agent.has(name));
}

/** What the retrieved agent shows for a field the deploy omitted: the request schema's default, or the Agent field's documented empty value. */
function omittedDefaults(): Array<{ field: string; pointer: string; value: JsonValue; specPointer: string }> {
  const result: Array<{ field: string; pointer: string; value: JsonValue; specPointer: string }> = [];
  for (const property of propertiesOf(requestSchema(primaryCreation().creator))) {
    const pointer = agentPointerOf(property.name);
    if (pointer === undefined || property.required) continue;
    if (property.at.schema.default !== undefined) {
      result.push({
        field: property.name,
        pointer,
        value: property.at.schema.default,
        specPointer: `${property.at.pointer}/default`,
      });
      continue;
    }
    // "an empty string when none was given on deploy" / "an empty array …": the Agent schema's descriptions say so.
    const agentField = `/components/schemas/Agent/properties${pointer}`;
    const type = resolveSchema(agentField).schema.type;
    if (type === 'string')
      result.push({ field: property.name, pointer, value: '', specPointer: `${agentField}/description` });
    if (type === 'array')
      result.push({ field: property.name, pointer, value: [], specPointer: `${agentField}/description` });
  }
  return result;
}

function same(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function show(value: JsonValue | undefined): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Checks one server's answers (by step id) against the invariants of the script.
 * @example checkInvariants(script, answers).filter((r) => !r.holds)
 */
export function checkInvariants(
  script: DiffStep[],
  answers: ReadonlyMap<string, { status: number; body: unknown }>,
): InvariantResult[] {
  const results: InvariantResult[] = [];
  const ok = (step: string): JsonObject | undefined => {
    const answer = answers.get(step);
    return answer && answer.status >= 200 && answer.status < 300 && isJsonObject(answer.body) ? answer.body : undefined;
  };
  const seenAgents = new Set<string>();
  const seenTasks = new Set<string>();
  const defaults = omittedDefaults();
  const creation = primaryCreation();
  for (const step of script) {
    const answer = ok(step.id);
    if (!answer) continue;
    if (step.operationId === creation.creator && step.sent) {
      const agentId = String(answer.agentId);
      results.push({
        rule: 'distinct-agent-ids',
        step: step.id,
        pointer: '/agentId',
        holds: !seenAgents.has(agentId),
        expected: 'an agentId no earlier deploy returned',
        found: show(agentId),
        description: 'two deploys give two different agentIds',
        specPointer: '/components/schemas/AgentId',
        origin: 'seed',
      });
      seenAgents.add(agentId);
      const retrieveStep = step.id.replace(/^deploy\//, 'retrieve/');
      const agent = ok(retrieveStep);
      if (!agent) continue;
      const agreement = (
        pointer: string,
        want: JsonValue | undefined,
        why: string,
        specPointer: string,
        origin: RuleOrigin,
      ): InvariantResult => {
        const found = valueAt(agent, pointer);
        return {
          rule: 'retrieve-agrees-with-deploy',
          step: retrieveStep,
          pointer,
          holds: same(found, want),
          expected: show(want),
          found: show(found),
          description: `the retrieved agent's ${pointer} is ${why}`,
          specPointer,
          origin,
        };
      };
      for (const [field, value] of Object.entries(step.sent)) {
        const pointer = agentPointerOf(field);
        if (pointer !== undefined)
          results.push(agreement(pointer, value, `the deploy's ${field}`, `${deploySpec}/requestBody`, 'seed'));
      }
      for (const field of sharedAnswerFields())
        if (!Object.hasOwn(step.sent, field))
          results.push(
            agreement(`/${field}`, answer[field], `what the deploy answered`, `${deploySpec}/responses/201`, 'seed'),
          );
      for (const omitted of defaults) {
        if (Object.hasOwn(step.sent, omitted.field)) continue;
        results.push({
          ...agreement(
            omitted.pointer,
            omitted.value,
            `the documented default for an omitted ${omitted.field}`,
            omitted.specPointer,
            ruleOrigin(omitted.specPointer),
          ),
          rule: 'default-applied',
        });
      }
    }
    if (creation.submissions.includes(step.operationId as BodyOperationId) && step.sent) {
      const taskId = String(answer.taskId);
      results.push({
        rule: 'distinct-task-ids',
        step: step.id,
        pointer: '/taskId',
        holds: !seenTasks.has(taskId),
        expected: 'a taskId no earlier submission returned',
        found: show(taskId),
        description: 'two task submissions give two different taskIds',
        specPointer: '/components/schemas/TaskId',
        origin: 'seed',
      });
      seenTasks.add(taskId);
      results.push({
        rule: 'new-task-queued',
        step: step.id,
        pointer: '/status',
        holds: answer.status === 'queued',
        expected: '"queued"',
        found: show(answer.status as JsonValue | undefined),
        description: 'a new task is queued',
        specPointer: executeSpec,
        origin: ruleOrigin(`${executeSpec}/description`),
      });
    }
  }
  return results;
}
