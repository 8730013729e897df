// The scripted sequence the differential check sends to both servers, derived from the spec and a seed: deploys of varied
// valid bodies, retrieves, task submissions and the documented error cases. Pure: no HTTP in here.
import fc from 'fast-check';
import {
  getOperation,
  operations,
  parameterSchemaPointer,
  ruleOrigin,
  type BodyOperationId,
  type HttpMethod,
  type JsonObject,
  type OperationId,
  type RuleOrigin,
} from '../spec/index.ts';
import { boundaryBodies } from '../verifier-client/requests/boundary-values.ts';
import { authVariants, type AuthVariant } from '../verifier-client/requests/auth-variants.ts';
import { invalidRequests } from '../verifier-client/requests/invalid-requests.ts';
import { validBodies } from '../verifier-client/requests/schema-arbitraries.ts';
import {
  propertiesOf,
  requestExamples,
  requestSchema,
  resolveSchema,
} from '../verifier-client/requests/spec-schemas.ts';
import { primaryCreation } from '../verifier-client/requests/linked-operations.ts';
import { successStatus, takesBody } from '../verifier-client/requests/operation-requests.ts';

/** Which agent a step's path names, resolved per server at run time. */
type AgentRef =
  | { kind: 'none' }
  /** The agent that server created in an earlier deploy step. */
  | { kind: 'deployed'; step: string }
  /** An existing agent given by the user (--read-only); each server has its own. */
  | { kind: 'existing' }
  | { kind: 'literal'; agentId: string };

/** One request of the script, sent alike to both servers. */
export interface DiffStep {
  /** Stable id, e.g. `deploy/example-tradingAgent`, `auth/<operationId>/missing`. */
  id: string;
  title: string;
  operationId: OperationId;
  method: HttpMethod;
  agent: AgentRef;
  auth: AuthVariant | 'token';
  contentType: string | undefined;
  body: string | undefined;
  /** The body as an object, for valid requests (the invariants compare the answers with it). */
  sent: JsonObject | undefined;
  /** What a server that follows the spec answers. */
  expected: {
    status: number;
    /** The rule behind that status (the documented response). */
    statusRule: SpecRule;
    /** For requests a correct server rejects: the rule that makes it reject them (a keyword, the security scheme). */
    rejectRule: SpecRule | undefined;
  };
  /** Whether a correct server creates something (only these are left out under --read-only). */
  creates: boolean;
  /** Whether both servers answer about the same thing, so values the spec pins must agree (false for two existing agents). */
  sameSubject: boolean;
}

export interface ScriptOptions {
  seed: number;
  /** Deploys of generated valid bodies, besides the spec's examples. */
  generatedDeploys: number;
  /** Task submissions of generated valid bodies, besides one per priority. */
  generatedTasks: number;
  /** Whether the user named an existing agent on each server (needed by --read-only). */
  existingAgent: boolean;
}

/** Defaults of the script: enough variety to catch a drifting fake in about a hundred requests per server. */
export const defaultScriptOptions = { generatedDeploys: 4, generatedTasks: 3 } as const;

/** A rule of the spec: where it lives and whether the service description or the spec decided it. */
export interface SpecRule {
  specPointer: string;
  origin: RuleOrigin;
}

/**
 * The rule behind a documented status: the response object, a seed rule unless the response is itself an assumption.
 * @example statusRule(reader, 404) // { specPointer: '/components/responses/AgentNotFound', origin: 'assumption' }
 */
function statusRule(operationId: OperationId, status: number): SpecRule {
  const operation = getOperation(operationId);
  const documented = operation.responses.get(status);
  if (!documented) return { specPointer: `${operation.pointer}/responses`, origin: 'assumption' };
  return { specPointer: documented.pointer, origin: documented.assumption ? 'assumption' : 'seed' };
}

function expect(operationId: OperationId, status: number, rejectRule?: SpecRule): DiffStep['expected'] {
  return { status, statusRule: statusRule(operationId, status), rejectRule };
}

/** A retrieve with the run's own token, expected to answer 200. */
function retrieveStep(id: string, title: string, agent: AgentRef, sameSubject: boolean): DiffStep {
  const { readBack } = primaryCreation();
  return {
    id,
    title,
    operationId: readBack,
    method: 'GET',
    agent,
    auth: 'token',
    contentType: undefined,
    body: undefined,
    sent: undefined,
    expected: expect(readBack, successStatus(readBack).status),
    creates: false,
    sameSubject,
  };
}

/**
 * The script for a seed: every step in the order it is sent. The same seed gives the same bodies, byte for byte.
 * @example buildScript({ seed: 7, ...defaultScriptOptions, existingAgent: false }).filter((s) => s.creates).length // 14
 */
export function buildScript(options: ScriptOptions): DiffStep[] {
  // Which operation deploys, which reads back and which submits tasks: from the spec's links, not named here.
  const { submissions } = primaryCreation();
  const deployBodies = deployBodiesFor(options);
  const deployed = (name: string): AgentRef => ({ kind: 'deployed', step: `deploy/${name}` });
  // Tasks go to the agent of the richest example: an active agent both servers were given the same way.
  const taskAgent: AgentRef = deployed('example-1');
  return [
    ...deployBodies.map(deployStep),
    ...deployBodies.map(({ name }) =>
      retrieveStep(`retrieve/${name}`, `retrieve the agent of deploy/${name}`, deployed(name), true),
    ),
    ...(options.existingAgent
      ? [retrieveStep('retrieve/existing', 'retrieve the existing agent (--agent)', { kind: 'existing' }, false)]
      : []),
    ...submissions.flatMap((submission) => submissionSteps(submission, taskAgent, options)),
    ...otherOperationSteps(taskAgent),
    ...deployBodies.map(({ name }) =>
      retrieveStep(
        `again/${name}`,
        `retrieve the agent of deploy/${name} again, after the tasks`,
        deployed(name),
        true,
      ),
    ),
    ...unknownSubjectSteps(`agt_diff_unknown_${options.seed}`),
    ...tooLongIdSteps(),
    ...invalidBodySteps(),
    ...authSteps(),
  ];
}

/** The deploy bodies, named: the spec's examples, generated ones, a repeat, and every documented edge. */
function deployBodiesFor(options: ScriptOptions): Array<{ name: string; body: JsonObject }> {
  const { creator } = primaryCreation();
  const deployBodies: Array<{ name: string; body: JsonObject }> = [];
  // The spec's examples first (richest and minimal, so defaults are exercised), then generated bodies.
  const examples = requestExamples(creator);
  examples.forEach((body, index) => {
    deployBodies.push({ name: `example-${index + 1}`, body });
  });
  fc.sample(validBodies(creator), { seed: options.seed, numRuns: options.generatedDeploys }).forEach((body, index) => {
    deployBodies.push({ name: `generated-${index + 1}`, body });
  });
  // The same body twice more: a server that hands out ids per name or per body shows it on the third deploy.
  const minimal = examples.at(-1) ?? {};
  deployBodies.push({ name: 'repeat-1', body: minimal }, { name: 'repeat-2', body: minimal });
  // Every documented edge of the request schema, reached exactly (the contract suite's boundary bodies): where
  // servers most often read a range differently.
  for (const edge of boundaryBodies(creator)) deployBodies.push({ name: edgeName(edge.label), body: edge.body });
  return deployBodies;
}

function deployStep({ name, body }: { name: string; body: JsonObject }): DiffStep {
  const { creator } = primaryCreation();
  return {
    id: `deploy/${name}`,
    title: name.startsWith('example')
      ? `deploy the spec's example with ${Object.keys(body).length} fields (${name})`
      : `deploy a generated body (${name})`,
    operationId: creator,
    method: 'POST',
    agent: { kind: 'none' },
    auth: 'token',
    contentType: 'application/json',
    body: JSON.stringify(body),
    sent: body,
    expected: expect(creator, successStatus(creator).status),
    creates: true,
    sameSubject: true,
  };
}

/**
 * Every other operation on what was created (an operation added to the spec with a linked path parameter): one valid
 * call, its other parameters filled from what earlier steps created on each server.
 */
function otherOperationSteps(taskAgent: AgentRef): DiffStep[] {
  const { creator, readBack: reader, parameter, submissions } = primaryCreation();
  const steps: DiffStep[] = [];
  for (const operation of operations.values()) {
    const { operationId } = operation;
    if (operationId === creator || operationId === reader || submissions.includes(operationId as BodyOperationId))
      continue;
    const body = takesBody(operationId) ? (requestExamples(operationId).at(-1) ?? {}) : undefined;
    steps.push({
      id: `call/${operationId}`,
      title: `a valid ${operationId} request on the agent of deploy/example-1`,
      operationId,
      method: operation.method,
      agent: operation.pathParameters.includes(parameter) ? taskAgent : { kind: 'none' },
      auth: 'token',
      contentType: body === undefined ? undefined : 'application/json',
      body: body === undefined ? undefined : JSON.stringify(body),
      sent: body,
      expected: expect(operationId, successStatus(operationId).status),
      creates: operation.method === 'POST',
      sameSubject: true,
    });
  }
  return steps;
}

/** Each operation that documents a 404 for an unknown subject, called on one that does not exist. */
function unknownSubjectSteps(unknown: string): DiffStep[] {
  return consumersWith404(primaryCreation().parameter).map((operationId) => {
    const body = takesBody(operationId) ? JSON.stringify(requestExamples(operationId).at(-1) ?? {}) : undefined;
    return {
      id: `unknown/${operationId}`,
      title: `${operationId} on an agent that does not exist`,
      operationId,
      method: getOperation(operationId).method,
      agent: { kind: 'literal', agentId: unknown },
      auth: 'token',
      contentType: body === undefined ? undefined : 'application/json',
      body,
      sent: undefined,
      expected: expect(operationId, 404, { specPointer: statusRule(operationId, 404).specPointer, origin: 'seed' }),
      creates: false,
      sameSubject: true,
    };
  });
}

/** The read-back with an id one character longer than the spec allows, when the spec bounds it. */
function tooLongIdSteps(): DiffStep[] {
  const { readBack: reader, parameter } = primaryCreation();
  const idSchema = resolveSchema(parameterSchemaPointer(reader, parameter));
  const idMaxLength = idSchema.schema.maxLength;
  if (typeof idMaxLength !== 'number') return [];
  const keyword = `${idSchema.pointer}/maxLength`;
  return [
    {
      id: `invalid-agent-id/${reader}`,
      title: `${reader} with an ${parameter} longer than the spec allows`,
      operationId: reader,
      method: 'GET',
      agent: { kind: 'literal', agentId: 'a'.repeat(idMaxLength + 1) },
      auth: 'token',
      contentType: undefined,
      body: undefined,
      sent: undefined,
      expected: expect(reader, 400, { specPointer: keyword, origin: ruleOrigin(keyword) }),
      creates: false,
      sameSubject: true,
    },
  ];
}

/** Each invalid request body the contract suite sends, to the creator and to each submission. */
function invalidBodySteps(): DiffStep[] {
  const { creator, submissions } = primaryCreation();
  return [creator, ...submissions].flatMap((operationId) => {
    const agent: AgentRef = operationId === creator ? { kind: 'none' } : { kind: 'existing' };
    return invalidRequests(operationId).map(
      (invalid): DiffStep => ({
        id: `invalid/${operationId}/${invalid.id}`,
        title: `${operationId}: ${invalid.title}`,
        operationId,
        method: 'POST',
        agent,
        auth: 'token',
        contentType: invalid.contentType,
        body: invalid.body,
        sent: undefined,
        expected: expect(operationId, invalid.expectedStatus, {
          specPointer: invalid.keywordPointer,
          origin: ruleOrigin(invalid.keywordPointer),
        }),
        creates: false,
        sameSubject: true,
      }),
    );
  });
}

/** Every operation with each bad credential and a request that would pass with the token: one left unguarded shows. */
function authSteps(): DiffStep[] {
  const { parameter } = primaryCreation();
  const steps: DiffStep[] = [];
  for (const operation of operations.values()) {
    const { operationId } = operation;
    const body = takesBody(operationId) ? (requestExamples(operationId).at(-1) ?? {}) : undefined;
    for (const variant of authVariants) {
      steps.push({
        id: `auth/${operationId}/${variant}`,
        title: `${operationId} with ${variant === 'missing' ? 'no Authorization header' : `a ${variant} token`}`,
        operationId,
        method: getOperation(operationId).method,
        agent: operation.pathParameters.includes(parameter) ? { kind: 'existing' } : { kind: 'none' },
        auth: variant,
        contentType: body === undefined ? undefined : 'application/json',
        body: body === undefined ? undefined : JSON.stringify(body),
        sent: undefined,
        // Rejecting bad credentials at all is the seed's rule; the 401 status and its challenge are the spec's choices.
        expected: expect(operationId, 401, { specPointer: '/security', origin: 'seed' }),
        creates: false,
        sameSubject: true,
      });
    }
  }
  return steps;
}

/** A step id from a boundary body's label: `revenueShare maximum (1)` → `edge-revenueShare-maximum-1`. */
function edgeName(label: string): string {
  return `edge-${label.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
}

/** The operations taking the created parameter that document a 404 for an unknown one. */
function consumersWith404(parameter: string): OperationId[] {
  return [...operations.values()]
    .filter((operation) => operation.pathParameters.includes(parameter) && operation.responses.has(404))
    .map((operation) => operation.operationId);
}

/** Task submissions to the deployed agent: one per priority and none, generated bodies, every edge, a second agent. */
function submissionSteps(submission: BodyOperationId, taskAgent: AgentRef, options: ScriptOptions): DiffStep[] {
  const taskBase = requestExamples(submission).at(-1) ?? {};
  // Not every submission has a priority (a labels body has none): one step per priority only where there is one.
  const priorities = propertiesOf(requestSchema(submission)).find((property) => property.name === 'priority')?.at.schema
    .enum;
  const taskBodies: Array<{ name: string; body: JsonObject }> = [{ name: 'no-priority', body: taskBase }];
  for (const priority of Array.isArray(priorities) ? priorities : [])
    taskBodies.push({ name: `priority-${String(priority)}`, body: { ...taskBase, priority } });
  fc.sample(validBodies(submission), { seed: options.seed + 1, numRuns: options.generatedTasks }).forEach(
    (body, index) => {
      taskBodies.push({ name: `generated-${index + 1}`, body });
    },
  );
  for (const edge of boundaryBodies(submission)) taskBodies.push({ name: edgeName(edge.label), body: edge.body });
  const expected = expect(submission, successStatus(submission).status);
  const step = (id: string, title: string, agent: AgentRef, body: JsonObject): DiffStep => ({
    id,
    title,
    operationId: submission,
    method: 'POST',
    agent,
    auth: 'token',
    contentType: 'application/json',
    body: JSON.stringify(body),
    sent: body,
    expected,
    creates: true,
    sameSubject: true,
  });
  const from = taskAgent.kind === 'deployed' ? taskAgent.step : '';
  return [
    ...taskBodies.map(({ name, body }) =>
      step(`execute/${name}`, `submit a task (${name}) to the agent of ${from}`, taskAgent, body),
    ),
    step(
      'execute/second-agent',
      'submit a task to another agent (the agent of deploy/example-2)',
      { kind: 'deployed', step: 'deploy/example-2' },
      taskBase,
    ),
  ];
}
