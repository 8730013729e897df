// The behavioural rules the differential check holds each server to on its own answers: what is retrieved agrees with
// what was deployed, omitted fields get the documented defaults, ids are unique, a new task is queued. The rules
// themselves are verifier-client/invariants.ts, which the proxy follows too; here they are applied to the script's steps.
import { foundText, isJsonObject, type JsonObject, type JsonValue, type RuleOrigin } from '../spec/index.ts';
import {
  agreementAt,
  mintedIdRules,
  newSubmissionRule,
  readBackAgreements,
  readBackCreation,
} from '../verifier-client/invariants.ts';
import type { DiffStep } from './diff-script.ts';

/** Whether one rule held for one server at one step. */
export interface InvariantResult {
  rule: 'retrieve-agrees-with-deploy' | 'default-applied' | `distinct-${string}-ids` | 'new-task-queued';
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

function same(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A value as a line of the report shows it (never a credential cut in two): JSON, cut at 80 characters. */
const show = (value: unknown): string => foundText(value, 80);

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
  // One set of ids per rule: an agentId and a taskId that happen to be equal are not a repeat.
  const seen = new Map<string, Set<string>>();
  for (const step of script) {
    const answer = ok(step.id);
    if (!answer || !step.sent) continue;
    for (const minted of mintedIdRules(step.operationId)) {
      const id = JSON.stringify(answer[minted.pointer.slice(1)] ?? null);
      const ids = seen.get(minted.rule) ?? new Set<string>();
      seen.set(minted.rule, ids);
      results.push({
        rule: minted.rule,
        step: step.id,
        pointer: minted.pointer,
        holds: !ids.has(id),
        expected: `a ${minted.pointer.slice(1)} no earlier answer returned`,
        found: id,
        description: `two answers give two different ${minted.pointer.slice(1)}s`,
        specPointer: minted.specPointer,
        origin: 'seed',
      });
      ids.add(id);
    }
    if (step.operationId === readBackCreation.creator) {
      const retrieveStep = step.id.replace(/^deploy\//, 'retrieve/');
      const agent = ok(retrieveStep);
      if (!agent) continue;
      for (const agreement of readBackAgreements(step.sent, answer)) {
        const { holds, found } = agreementAt(agreement, agent);
        results.push({
          rule: agreement.kind === 'default' ? 'default-applied' : 'retrieve-agrees-with-deploy',
          step: retrieveStep,
          pointer: agreement.pointer,
          holds,
          expected: show(agreement.want),
          found: show(found),
          description: `the retrieved agent's ${agreement.pointer} is ${agreement.why}`,
          specPointer: agreement.specPointer,
          origin: agreement.origin,
        });
      }
    }
    const queued = newSubmissionRule(step.operationId);
    if (queued)
      results.push({
        rule: 'new-task-queued',
        step: step.id,
        pointer: queued.pointer,
        holds: same(answer.status as JsonValue | undefined, queued.want),
        expected: show(queued.want),
        found: show(answer.status as JsonValue | undefined),
        description: 'a new task is queued',
        specPointer: queued.specPointer,
        origin: queued.origin,
      });
  }
  return results;
}
