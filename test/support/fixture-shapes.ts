// The shapes the API is likely to grow, added to a FIXTURE copy of spec/openapi.yaml (the product spec keeps the
// operations the service description states), with the handlers the fake's operation table asks for:
// - on the retrieve: an optional enum query parameter (`view`), an optional enum header (`X-Fixture-Trace`) and an
//   optional bounded integer cookie (`fixtureDepth`);
// - `GET /v1/fixture-agents`: a list with query filters (category, status: enums), `limit` 1..100 default 20 and a
//   cursor, a required header (`X-Fixture-Tenant`), answering `{ items: Agent[], nextCursor }` (an array of `$ref`);
// - `GET /v1/fixture-tasks/{taskId}`, its taskId linked from the execute's answer, and
//   `GET /v1/fixture-agents/{agentId}/tasks/{taskId}`: two path parameters, each filled through the links;
// - `POST /v1/fixture-agents/{agentId}/labels`: a `oneOf` body answered 204.
// Nothing else of the copy is edited: `npm run generate` does the rest.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

type Operation = { responses: Record<string, object>; [key: string]: unknown };
/** The parts of the document the fixture touches. */
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

const ref = (to: string) => ({ $ref: to });
const assumed = (what: string) => `A fixture ${what}: the service description has none.`;
const common = {
  '401': ref('#/components/responses/Unauthorized'),
  '429': ref('#/components/responses/TooManyRequests'),
  '500': ref('#/components/responses/InternalServerError'),
};
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const taskSchema = {
  type: 'object',
  required: ['taskId', 'status'],
  properties: { taskId: ref('#/components/schemas/TaskId'), status: ref('#/components/schemas/TaskStatus') },
};
const taskIdParameter = { name: 'taskId', in: 'path', required: true, schema: ref('#/components/schemas/TaskId') };

function retrieveParameters(document: Document): void {
  const retrieve = document.paths['/v1/agents/{agentId}']?.get;
  if (!retrieve || !Array.isArray(retrieve.parameters)) throw new Error('the fixture expects the retrieve operation');
  retrieve.parameters.push(
    {
      name: 'view',
      in: 'query',
      description: 'How much of the agent to answer.',
      'x-assumption': assumed('query parameter'),
      schema: { type: 'string', enum: ['full', 'summary'] },
    },
    {
      name: 'X-Fixture-Trace',
      in: 'header',
      description: 'How much tracing the answer carries.',
      'x-assumption': assumed('header parameter'),
      schema: { type: 'string', enum: ['brief', 'detailed'] },
    },
    {
      name: 'fixtureDepth',
      in: 'cookie',
      description: 'How deep the answer goes.',
      'x-assumption': assumed('cookie parameter'),
      schema: { type: 'integer', minimum: 1, maximum: 3 },
    },
  );
}

const list: Operation = {
  operationId: 'listFixtureAgents',
  summary: 'List agents',
  tags: ['Agents'],
  security: [{ bearerAuth: [] }],
  parameters: [
    {
      name: 'category',
      in: 'query',
      'x-assumption': assumed('filter'),
      schema: ref('#/components/schemas/AgentCategory'),
    },
    { name: 'status', in: 'query', 'x-assumption': assumed('filter'), schema: ref('#/components/schemas/AgentStatus') },
    {
      name: 'limit',
      in: 'query',
      'x-assumption': assumed('page size'),
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    },
    {
      name: 'cursor',
      in: 'query',
      'x-assumption': assumed('cursor'),
      schema: { type: 'string', pattern: '^[0-9]{1,6}$' },
    },
    {
      name: 'X-Fixture-Tenant',
      in: 'header',
      required: true,
      'x-assumption': assumed('required header'),
      schema: { type: 'string', minLength: 1, maxLength: 32 },
    },
  ],
  responses: {
    '200': {
      description: 'A page of agents.',
      ...json({
        type: 'object',
        required: ['items', 'nextCursor'],
        properties: {
          items: { type: 'array', maxItems: 100, items: ref('#/components/schemas/Agent') },
          nextCursor: { type: ['string', 'null'], pattern: '^[0-9]{1,6}$' },
        },
      }),
    },
    '400': ref('#/components/responses/BadRequest'),
    ...common,
  },
};

const label = (kind: string, field: string, maxLength: number) => ({
  type: 'object',
  required: ['kind', field],
  additionalProperties: false,
  properties: { kind: { const: kind }, [field]: { type: 'string', minLength: 1, maxLength } },
});

const labelAgent: Operation = {
  operationId: 'labelFixtureAgent',
  summary: 'Label an agent',
  tags: ['Agents'],
  security: [{ bearerAuth: [] }],
  parameters: [ref('#/components/parameters/AgentId')],
  requestBody: {
    required: true,
    content: {
      'application/json': {
        schema: { oneOf: [label('tag', 'tag', 40), label('note', 'note', 200)] },
        examples: {
          Tag: { summary: 'A tag', value: { kind: 'tag', tag: 'fast' } },
          Note: { summary: 'A note', value: { kind: 'note', note: 'Answers in French.' } },
        },
      },
    },
  },
  responses: {
    '204': { description: 'The agent is labelled.' },
    '400': ref('#/components/responses/BadRequest'),
    '404': ref('#/components/responses/AgentNotFound'),
    '415': ref('#/components/responses/UnsupportedMediaType'),
    ...common,
  },
};

function addOperations(document: Document): void {
  const execute = document.paths['/v1/agents/{agentId}/execute']?.post;
  if (!execute) throw new Error('the fixture expects the live spec to have the execute operation');
  execute.responses['200'] = {
    ...execute.responses['200'],
    links: { GetFixtureTask: { operationId: 'getFixtureTask', parameters: { taskId: '$response.body#/taskId' } } },
  };
  const taskResponses = {
    '200': { description: 'The task.', ...json(taskSchema) },
    '400': ref('#/components/responses/InvalidAgentId'),
    '404': ref('#/components/responses/AgentNotFound'),
    ...common,
  };
  const security = [{ bearerAuth: [] }];
  document.paths['/v1/fixture-agents'] = { get: list };
  document.paths['/v1/fixture-tasks/{taskId}'] = {
    get: {
      operationId: 'getFixtureTask',
      summary: 'Retrieve a task',
      tags: ['Tasks'],
      security,
      parameters: [taskIdParameter],
      responses: taskResponses,
    },
  };
  document.paths['/v1/fixture-agents/{agentId}/tasks/{taskId}'] = {
    get: {
      operationId: 'getFixtureAgentTask',
      summary: "Retrieve an agent's task",
      tags: ['Tasks'],
      security,
      parameters: [ref('#/components/parameters/AgentId'), taskIdParameter],
      responses: taskResponses,
    },
  };
  document.paths['/v1/fixture-agents/{agentId}/labels'] = { post: labelAgent };
}

/** The handlers, each generic over the store, as a contributor writes one. */
const handlers: Record<string, { reads: string; code: string }> = {
  getFixtureTask: {
    reads: 'stored-records',
    code: `({ params, instance }, { store }) => {
  const task = store.findTask(params.taskId);
  return task === undefined ? agentNotFound(params.taskId, instance) : jsonResponse(200, JSON.stringify(task));
}`,
  },
  getFixtureAgentTask: {
    reads: 'stored-records',
    code: `({ params, instance }, { store }) => {
  const task = store.findTask(params.taskId);
  return task === undefined || task.agentId !== params.agentId
    ? agentNotFound(params.taskId, instance)
    : jsonResponse(200, JSON.stringify(task));
}`,
  },
  listFixtureAgents: {
    reads: 'stored-records',
    code: `({ query }, { store }) => {
  const offset = Number(query.cursor ?? 0);
  const all = store.list({ limit: 1_000_000, ...(query.status && { status: query.status }) }).agents;
  const matching = all.filter((agent) => query.category === undefined || agent.category === query.category);
  const page = matching.slice(offset, offset + query.limit);
  const items = page.flatMap((summary) => store.get(summary.agentId) ?? []);
  const next = offset + query.limit < matching.length ? String(offset + query.limit) : null;
  return jsonValueResponse(200, { items, nextCursor: next });
}`,
  },
  labelFixtureAgent: {
    reads: 'stored-records',
    code: `({ params, instance }, { store }) =>
  store.get(params.agentId) === undefined ? agentNotFound(params.agentId, instance) : noContent()`,
  },
};

/**
 * Writes the fixture's operations and parameters into the copy's spec, and their handlers into its operation table.
 * @example addFixtureShapes(copy.root); await copy.run(['tools/generate.ts']);
 */
export function addFixtureShapes(root: string): void {
  const specFile = join(root, 'spec/openapi.yaml');
  const document = parse(readFileSync(specFile, 'utf8')) as Document;
  addOperations(document);
  retrieveParameters(document);
  writeFileSync(specFile, stringify(document));
  const table = join(root, 'mocks/operations/operation-table.ts');
  let text = readFileSync(table, 'utf8');
  for (const [operationId, { reads, code }] of Object.entries(handlers)) {
    writeFileSync(
      join(root, `mocks/operations/${operationId}.ts`),
      `import { jsonResponse, jsonValueResponse, noContent } from '../core/mock-http.ts';
import { agentNotFound, type OperationHandler } from '../core/operation-handler.ts';

export const ${operationId}: OperationHandler<'${operationId}'> = ${code};
`,
    );
    text = `import { ${operationId} } from './${operationId}.ts';\n${text}`.replace(
      'export const operationTable = {',
      `export const operationTable = { ${operationId}: { handle: ${operationId}, reads: '${reads}' },`,
    );
  }
  writeFileSync(table, text);
}
