// Tests derive operation lists and their order from the spec: an operation inserted in its natural place, in the
// middle of a FIXTURE copy of the spec (a list of agents between the deploy and the retrieve, no path parameter, no
// behaviour the spec states beyond its statuses), breaks none of the tests that list operations, count their checks or
// statuses, or replay their examples. The copy of the repository gets the spec, a handler and its table entry (the
// steps CONTRIBUTING names), and one `npm run generate`; then those tests run in it, unchanged.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { copyTrackedFiles } from '../support/repo-copy.ts';

const run = promisify(execFile);
const copy = mkdtempSync(join(tmpdir(), 'agent-registry-inserted-operation-'));

/**
 * The tests that list, count or order the spec's operations. test/contract/contract-targets.test.ts and
 * test/differential/diff-run.test.ts pass in such a copy too, but run the whole suite and diff many times (with them,
 * this file takes minutes more on the loaded 2-core machine): test/contract/fixture-spec.test.ts already runs the
 * contract, diff and bench against an added operation, so they are left out here to keep `npm test` within its budget.
 */
const derivedListTests = [
  'test/contract/check-plan.test.ts',
  'test/contract/status-coverage.test.ts',
  'test/spec-change/traffic-replay.test.ts',
  'test/cli/coverage.test.ts',
  'mocks/operations/operation-table.test.ts',
  'mocks/adapters/msw/handlers.test.ts',
  'test/structure/docs.test.ts',
];

const operation = {
  operationId: 'listFixtureAgents',
  summary: 'List agents',
  tags: ['Agents'],
  security: [{ bearerAuth: [] }],
  responses: {
    '200': {
      description: 'A page of agents.',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['items'],
            properties: { items: { type: 'array', maxItems: 100, items: { $ref: '#/components/schemas/Agent' } } },
          },
          examples: { Empty: { summary: 'No agent', value: { items: [] } } },
        },
      },
    },
    '401': { $ref: '#/components/responses/Unauthorized' },
    '429': { $ref: '#/components/responses/TooManyRequests' },
    '500': { $ref: '#/components/responses/InternalServerError' },
  },
};

const handler = `import { jsonValueResponse } from '../core/mock-http.ts';
import type { OperationHandler } from '../core/operation-handler.ts';

export const listFixtureAgents: OperationHandler<'listFixtureAgents'> = () => jsonValueResponse(200, { items: [] });
`;

async function inCopy(command: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(command, args, {
      cwd: copy,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', CI: '1' },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 900_000,
    });
    return { code: 0, output: `${stdout}\n${stderr}` };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, output: `${failed.stdout}\n${failed.stderr}` };
  }
}

beforeAll(async () => {
  await copyTrackedFiles(copy);
  // Inserted after the first path, so that it is neither first nor last: as the API's own list would be.
  const specFile = join(copy, 'spec/openapi.yaml');
  const document = parseDocument(readFileSync(specFile, 'utf8'));
  const paths = document.get('paths') as { items: unknown[] };
  const entry = document.createPair('/v1/fixture-agents', { get: operation });
  paths.items.splice(1, 0, entry);
  writeFileSync(specFile, document.toString());
  writeFileSync(join(copy, 'mocks/operations/listFixtureAgents.ts'), handler);
  const table = join(copy, 'mocks/operations/operation-table.ts');
  writeFileSync(
    table,
    `import { listFixtureAgents } from './listFixtureAgents.ts';\n${readFileSync(table, 'utf8')}`.replace(
      "  deployAgent: { handle: deployAgent, reads: 'no-stored-records' },\n",
      "  deployAgent: { handle: deployAgent, reads: 'no-stored-records' },\n  listFixtureAgents: { handle: listFixtureAgents, reads: 'no-stored-records' },\n",
    ),
  );
  const docs = join(copy, 'docs/fake-backend.md');
  writeFileSync(
    docs,
    readFileSync(docs, 'utf8').replace(
      '## Behaviour\n',
      '## Behaviour\n\n- **List agents** (`listFixtureAgents`) answers an empty page.\n',
    ),
  );
  const generated = await inCopy(process.execPath, ['tools/generate.ts']);
  expect(generated.code, generated.output).toBe(0);
}, 300_000);

afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('an operation inserted in the middle of a fixture copy of the spec', () => {
  it('sits between the spec operations, where it was written', () => {
    const generated = readFileSync(join(copy, 'README.md'), 'utf8');
    const rows = [...generated.matchAll(/^\| `(GET|POST) [^`]+` \| `(\w+)` \|/gm)].map((match) => match[2]);
    expect(rows.indexOf('listFixtureAgents')).toBeGreaterThan(0);
    expect(rows.indexOf('listFixtureAgents')).toBeLessThan(rows.length - 1);
  });

  it('breaks none of the tests that derive operation lists from the spec', async () => {
    const result = await inCopy(process.execPath, [
      'node_modules/vitest/vitest.mjs',
      'run',
      '--reporter=dot',
      ...derivedListTests,
    ]);
    expect(result.code, result.output.slice(-6000)).toBe(0);
  }, 900_000);
});
