// Behaviour across calls: what a deploy creates is read back and agrees with what was sent and answered (the examples,
// the documented defaults and every documented edge), minted ids are unique, valid tasks are accepted at every priority
// and edge, and an agentId no deploy returned is 404 on every operation that takes one.
import {
  getOperation,
  isJsonObject,
  mintedIds,
  operations,
  type BodyOperationId,
  type JsonObject,
  type JsonValue,
  type OperationId,
} from '../../spec/index.ts';
import { boundaryBodies } from '../../verifier-client/requests/boundary-values.ts';
import { defineCheck, type CheckDefinition, type CheckRun } from './check-definition.ts';
import { agree, deploy, readBack, readBackPair } from './deploy-read-back.ts';
import { creations } from '../../verifier-client/requests/linked-operations.ts';
import type { PathValues } from '../../verifier-client/requests/path-parameters.ts';
import { successStatus, validRequest } from '../../verifier-client/requests/operation-requests.ts';
import { expectSuccess, unknownValues } from './expect-success.ts';
import {
  propertiesOf,
  requestExamples,
  requestSchema,
  resolveSchema,
  responseSchema,
} from '../../verifier-client/requests/spec-schemas.ts';

/** Deploys in a row for the agentId uniqueness check, and task submissions per agent for the taskId one. */
const uniqueDeploys = 5;
const tasksPerAgent = 4;

/** Where the schema of an id the server mints lives (the success answer's property, resolved). */
function idSchema(operationId: OperationId, field: string): string {
  return resolveSchema(`${responseSchema(operationId, successStatus(operationId).status).pointer}/properties/${field}`)
    .pointer;
}

function parse(body: string): JsonValue | undefined {
  try {
    return JSON.parse(body) as JsonValue;
  } catch {
    return undefined;
  }
}

/** Submits a task; returns the submission when it was accepted. */
async function submit(
  run: CheckRun,
  operationId: BodyOperationId,
  values: PathValues,
  body: JsonObject,
  what: string,
  validBy?: 'seed' | 'assumption',
): Promise<{ submission: JsonObject; index: number } | undefined> {
  const { response, index } = await run.send(validRequest(operationId, values, body));
  if (!response || !expectSuccess(run, operationId, response.status, index, what, validBy)) return undefined;
  const submission = parse(response.body);
  return isJsonObject(submission) ? { submission, index } : undefined;
}

/** Records `rule` for every id in `ids` that was already returned before it (at the exchange that repeated it). */
function expectDistinct(
  run: CheckRun,
  ids: Array<{ id: JsonValue | undefined; index: number }>,
  rule: string,
  field: string,
  specPointer: string,
): void {
  const seen = new Set<string>();
  for (const { id, index } of ids) {
    const key = JSON.stringify(id);
    if (seen.has(key)) {
      run.violate({
        rule,
        pointer: `/${field}`,
        expected: `a ${field} not returned before`,
        found: key,
        origin: 'seed',
        specPointer,
        message: `the server returned the ${field} ${key} twice (${ids.length} ${field}s compared)`,
        exchange: index,
      });
    }
    seen.add(key);
  }
}

const { creator, reader } = readBackPair;

const deployChecks: CheckDefinition[] = [
  defineCheck(
    {
      id: `behaviour/${creator}/retrievable`,
      title: 'a deployed agent (every field sent) is retrievable and agrees with what was sent and answered',
      posts: 1,
      deploys: 1,
    },
    async (run) => {
      await readBack(run, requestExamples(creator)[0] ?? {});
    },
  ),
  defineCheck(
    {
      id: `behaviour/${creator}/defaults`,
      title: 'a minimal deploy is retrievable with the documented defaults and status active',
      posts: 1,
      deploys: 1,
    },
    async (run) => {
      const read = await readBack(run, requestExamples(creator).at(-1) ?? {});
      if (!read) return;
      agree(run, read.agent, read.index, [
        {
          pointer: '/status',
          want: 'active',
          origin: 'assumption',
          specPointer: `${resolveSchema(`${responseSchema(reader, successStatus(reader).status).pointer}/properties/status`).pointer}/description`,
          why: 'the status of a new agent',
        },
      ]);
    },
  ),
  defineCheck(
    {
      id: `behaviour/${creator}/distinct-ids`,
      title: `${uniqueDeploys} deploys of the same body give ${uniqueDeploys} different agentIds`,
      posts: uniqueDeploys,
      deploys: uniqueDeploys,
    },
    async (run) => {
      const sent = requestExamples(creator).at(-1) ?? {};
      const ids: Array<{ id: JsonValue | undefined; index: number }> = [];
      for (let i = 0; i < uniqueDeploys; i += 1) {
        const deployed = await deploy(run, sent);
        if (deployed) ids.push({ id: deployed.id, index: deployed.index });
      }
      const field = readBackPair.field.slice(1);
      expectDistinct(run, ids, 'distinct-agent-ids', field, idSchema(creator, field));
    },
  ),
  defineCheck(
    {
      id: `behaviour/${creator}/edges`,
      title: 'valid deploys at every documented edge (bounds, lengths, every enum value) are accepted and read back',
      posts: boundaryBodies(creator).length,
      deploys: boundaryBodies(creator).length,
    },
    async (run) => {
      for (const edge of boundaryBodies(creator))
        await readBack(run, edge.body, edge.validBy, `a valid deploy with ${edge.label}`);
    },
  ),
];

/** The checks of one write made on what the creator created (a task submission on a deployed agent). */
function submissionChecks(submission: BodyOperationId): CheckDefinition[] {
  const spec = getOperation(submission).pointer;
  const minted = mintedIds(submission)[0];
  // A write on an agent whose body has no priority (a label, say) has no priority checks.
  const priority = propertiesOf(requestSchema(submission)).find((property) => property.name === 'priority');
  const priorities = priority?.at.schema.enum;
  const enumChecks = Array.isArray(priorities)
    ? [
        defineCheck(
          {
            id: `behaviour/${submission}/priorities`,
            title: 'each priority (and none) is accepted with a queued task submission',
            posts: priorities.length + 1,
            executes: priorities.length + 1,
            fixture: true,
          },
          async (run) => {
            const values = await run.pathValues(submission);
            const base = requestExamples(submission).at(-1) ?? {};
            for (const priority of [...priorities, undefined]) {
              const label = priority === undefined ? 'no priority' : `priority ${String(priority)}`;
              const body = priority === undefined ? base : { ...base, priority };
              const submitted = await submit(run, submission, values, body, `a valid task with ${label}`);
              if (submitted && submitted.submission.status !== 'queued') {
                run.violate({
                  rule: 'new-task-queued',
                  pointer: '/status',
                  expected: '"queued"',
                  found: JSON.stringify(submitted.submission.status),
                  origin: 'assumption',
                  specPointer: `${spec}/description`,
                  message: `a new task (${label}) must be queued`,
                  exchange: submitted.index,
                });
              }
            }
          },
        ),
      ]
    : [];
  const distinctChecks = minted
    ? [
        defineCheck(
          {
            id: `behaviour/${submission}/distinct-task-ids`,
            title: `${tasksPerAgent} tasks to each of two new agents give ${2 * tasksPerAgent} different ${minted.field}s`,
            posts: 2 + 2 * tasksPerAgent,
            deploys: 2,
            executes: 2 * tasksPerAgent,
          },
          async (run) => {
            // Two fresh agents, so a server that numbers tasks per agent shows the same numbers twice.
            const agents: string[] = [];
            for (const name of ['contract task-id agent 1', 'contract task-id agent 2']) {
              const deployed = await deploy(run, { ...(requestExamples(creator).at(-1) ?? {}), name });
              if (deployed) agents.push(deployed.id);
            }
            const ids: Array<{ id: JsonValue | undefined; index: number }> = [];
            for (const id of agents) {
              for (let i = 0; i < tasksPerAgent; i += 1) {
                const body = requestExamples(submission).at(-1) ?? {};
                const submitted = await submit(run, submission, { [readBackPair.parameter]: id }, body, 'a valid task');
                if (submitted) ids.push({ id: submitted.submission[minted.field], index: submitted.index });
              }
            }
            expectDistinct(run, ids, 'distinct-task-ids', minted.field, idSchema(submission, minted.field));
          },
        ),
      ]
    : [];
  return [
    ...enumChecks,
    ...distinctChecks,
    defineCheck(
      {
        id: `behaviour/${submission}/edges`,
        title: 'valid tasks at every documented edge (task length, every priority, nested parameters) are accepted',
        posts: boundaryBodies(submission).length,
        executes: boundaryBodies(submission).length,
        fixture: true,
      },
      async (run) => {
        const values = await run.pathValues(submission);
        for (const edge of boundaryBodies(submission))
          await submit(run, submission, values, edge.body, `a valid task with ${edge.label}`, edge.validBy);
      },
    ),
  ];
}

function unknownAgentCheck(operationId: OperationId): CheckDefinition {
  const operation = getOperation(operationId);
  const notFound = operation.responses.get(404);
  return defineCheck(
    {
      id: `behaviour/${operationId}/unknown`,
      title: 'an agentId no deploy returned is answered 404',
      posts: operation.method === 'POST' ? 1 : 0,
    },
    async (run) => {
      const { response, index } = await run.send(validRequest(operationId, unknownValues(run, operationId)));
      const status = response?.status;
      if (status === undefined || status === 404 || status >= 500) return;
      const accepted = status >= 200 && status < 300;
      run.violate({
        rule: 'unknown-agent-404',
        pointer: '',
        expected: 'status 404',
        found: String(status),
        origin: accepted ? 'seed' : 'assumption',
        specPointer: notFound?.pointer ?? `${operation.pointer}/responses`,
        message: `an agentId no deploy returned must be answered 404, got ${status}`,
        exchange: index,
      });
    },
  );
}

/** Every behaviour check: the named ones, and an unknown-agent check per operation that takes an agentId. */
export const behaviourChecks: readonly CheckDefinition[] = [
  ...deployChecks,
  ...creations.flatMap((creation) => creation.submissions.flatMap(submissionChecks)),
  ...[...operations.values()]
    .filter((operation) => operation.pathParameters.length > 0)
    .map((operation) => unknownAgentCheck(operation.operationId)),
];
