// Generated cases: fast-check bodies built from the schemas; valid ones must be accepted with a conforming answer (every
// accepted deploy is read back and compared with what was sent, every minted id is new) and invalid ones rejected with
// a documented 4xx. Seeded, shrunk on failure, and printed with the command that replays it.
import fc from 'fast-check';
import { describe, test } from 'vitest';
import {
  brokenKeywords,
  isJsonObject,
  mintedIds,
  type JsonObject,
  type JsonValue,
  type MintedId,
} from '../spec/index.ts';
import { generatedProperties, type GeneratedPropertyId } from './check-plan.ts';
import type { CheckRecord } from '../verifier-client/check-record.ts';
import { emptyRecord, fixtureOrViolation, type CheckRun } from './contract-check.ts';
import { createCheckRun, finishCheck, runOptions, runPlan } from './checks/register-checks.ts';
import { agree, deployAgreements, readBackPair, retrieve } from './checks/deploy-read-back.ts';
import { fillPath } from '../verifier-client/requests/path-parameters.ts';
import { expectSuccess } from './checks/expect-success.ts';
import { expectRejection } from './checks/expect-rejection.ts';
import { invalidBodies, validBodies } from '../verifier-client/requests/schema-arbitraries.ts';
import { requestSchemaPointer } from '../verifier-client/requests/spec-schemas.ts';

let shrinkLeft = runPlan.shrinkBudget;

function parseObject(text: string): JsonObject | undefined {
  try {
    const value = JSON.parse(text) as JsonValue;
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function answerField(text: string, field: string): string | undefined {
  const value = parseObject(text)?.[field];
  return typeof value === 'string' ? value : undefined;
}

/** Records an id the server already returned in this property (ids are compared across its cases). */
function repeated(run: CheckRun, minted: Set<string>, id: string, which: MintedId | undefined, exchange: number): void {
  const field = which?.field ?? 'id';
  if (minted.has(id)) {
    run.violate({
      check: 'behaviour',
      rule: field === readBackPair.field.slice(1) ? 'distinct-agent-ids' : 'distinct-task-ids',
      pointer: `/${field}`,
      expected: `a ${field} not returned before`,
      found: JSON.stringify(id),
      origin: 'seed',
      specPointer: which?.schemaPointer ?? '',
      message: `the server returned the ${field} ${JSON.stringify(id)} for two different requests`,
      exchange,
    });
  }
  minted.add(id);
}

function replayPathFor(id: GeneratedPropertyId): string | undefined {
  const replay = runOptions.replay;
  if (replay === undefined || !replay.startsWith(`${id}:`)) return undefined;
  return replay.slice(id.length + 1);
}

for (const property of generatedProperties) {
  describe(property.operationId, () => {
    test(`generated: ${property.title}`, async (context) => {
      const planned = runPlan.generated.get(property.id);
      const record: CheckRecord = emptyRecord(property.id, 'generated', property.operationId, property.title);
      context.task.meta.contract = record;
      if (!planned || planned.runs === 0) {
        record.outcome = 'skipped';
        record.skipReason = planned?.skip ?? 'max-writes';
        context.skip(
          record.skipReason === 'read-only' ? 'skipped: --read-only' : 'skipped: --max-writes leaves no room for it',
        );
        return;
      }
      // The fixture agent is deployed through a run of its own, so its POST is not taken from the cases' budget.
      const values = property.fixture ? await fixtureOrViolation(createCheckRun(record, 0), property.operationId) : {};
      if (values === undefined) {
        finishCheck(record);
        return;
      }
      const path = fillPath(property.operationId, values);
      let sent = 0;
      let lastFailure: CheckRecord | undefined;
      // Ids the server minted in this property: every accepted deploy or task must get a new one.
      const minted = new Set<string>();
      const predicate = async (body: JsonValue): Promise<boolean> => {
        // Shrinking past the budget stops at the last real failure: a case that was not sent counts as passing.
        if (sent >= planned.runs) {
          if (shrinkLeft <= 0) return true;
          shrinkLeft -= 1;
        }
        sent += 1;
        const scratch = emptyRecord(property.id, 'generated', property.operationId, property.title);
        const run = createCheckRun(scratch, 1);
        const { response, index } = await run.send({
          operationId: property.operationId,
          method: 'POST',
          path,
          contentType: 'application/json',
          body: JSON.stringify(body),
        });
        if (response && property.valid) {
          const what = 'a body the schema accepts';
          if (property.operationId === readBackPair.creator && isJsonObject(body)) {
            // Every accepted deploy is read back and compared field by field, not only the named examples.
            const agentId = expectSuccess(run, property.operationId, response.status, index, what)
              ? answerField(response.body, readBackPair.field.slice(1))
              : undefined;
            if (typeof agentId === 'string') {
              const retrieved = await retrieve(run, agentId);
              const answer = parseObject(response.body);
              if (retrieved && answer)
                agree(run, retrieved.agent, retrieved.index, deployAgreements(body, answer, index));
              repeated(run, minted, agentId, mintedIds(property.operationId)[0], index);
            }
          } else if (expectSuccess(run, property.operationId, response.status, index, what)) {
            for (const id of mintedIds(property.operationId)) {
              const value = answerField(response.body, id.field);
              if (value !== undefined) repeated(run, minted, value, id, index);
            }
          }
        }
        if (response && !property.valid) {
          // Labelled by the keyword that makes this body invalid, not by its whole schema: a body that only crosses a
          // bound the spec assumes is an assumption case (a warning under --seed-only); any seed keyword it breaks wins.
          const broken = brokenKeywords(property.operationId, body);
          const rule = broken.find((keyword) => keyword.origin === 'seed') ?? broken[0];
          expectRejection(
            run,
            property.operationId,
            response.status,
            400,
            rule?.keywordPointer ?? requestSchemaPointer(property.operationId),
            index,
            rule?.origin,
          );
        }
        if (runOptions.seedOnly) scratch.violations = scratch.violations.filter((v) => v.origin !== 'assumption');
        const failed = scratch.violations.length > 0;
        if (failed) lastFailure = scratch;
        else {
          record.warnings.push(...scratch.warnings.slice(0, 3 - Math.min(3, record.warnings.length)));
          // Kept (redacted, as every recorded exchange) so a spec-change check can replay the generated traffic too.
          record.exchanges.push(...scratch.exchanges);
        }
        return !failed;
      };
      const arbitrary = property.valid ? validBodies(property.operationId) : invalidBodies(property.operationId);
      const replayPath = replayPathFor(property.id);
      const result = await fc.check(fc.asyncProperty(arbitrary, predicate), {
        numRuns: planned.runs,
        seed: runOptions.seed,
        ...(replayPath === undefined ? {} : { path: replayPath }),
      });
      record.generated = {
        seed: runOptions.seed,
        runs: planned.runs,
        requestedRuns: planned.requested,
        counterexample: undefined,
        replay: undefined,
      };
      if (result.failed && lastFailure) {
        const failure: CheckRecord = lastFailure;
        record.exchanges = failure.exchanges;
        record.violations = failure.violations;
        record.generated.counterexample = failure.exchanges[0]?.request.body;
        record.generated.replay = `npm run contract -- --seed ${runOptions.seed} --runs ${runOptions.runs} --replay ${property.id}:${result.counterexamplePath ?? ''}`;
      } else if (result.failed && result.errorInstance) {
        throw result.errorInstance;
      }
      if (planned.runs < planned.requested) {
        // Ran fewer cases than asked: reported, and the run does not count as a pass.
        record.skipReason = 'max-writes';
      }
      finishCheck(record);
    });
  });
}
