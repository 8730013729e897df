// The tables of README.md and docs/ that restate the spec, the control plane, the contract plan or the catalogue:
// rendered from them between marker comments, so `npm run generate` writes them and `--check` fails when one is stale.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { renderCheckCounts } from '../contract-tests/report/check-counts.ts';
import { createCatalogue } from '../mocks/state/catalogue.ts';
import { createFixedClock } from '../mocks/domain/clock.ts';
import { createMockCore } from '../mocks/assembly/mock-core.ts';
import { silentLogger } from '../mocks/domain/logger.ts';
import { mintToken } from '../mocks/core/request/auth.ts';
import { formatCoverageTable } from '../scripts/coverage-report.ts';
import { getAtPointer, isJsonObject, openapiDocument, operations, walkOperations } from '../spec/index.ts';
import { renderMutationExclusions } from './mutation-exclusions.ts';

/** One generated block: which file holds it, its marker name, and what goes between the markers. */
interface DocTable {
  file: string;
  name: string;
  render: () => string | Promise<string>;
}

/** The API's operations: request, operationId, summary and documented statuses, in the spec's order. */
function renderApiOperations(): string {
  const rows = [...operations.values()].map((operation) => {
    const node = getAtPointer(openapiDocument, operation.pointer);
    const summary = isJsonObject(node) && typeof node.summary === 'string' ? node.summary : '';
    return (
      `| \`${operation.method.toUpperCase()} ${operation.path}\` | \`${operation.operationId}\` | ${summary} | ` +
      `${[...operation.responses.keys()].join(', ')} |`
    );
  });
  return ['| request | operationId | does | answers |', '|---|---|---|---|', ...rows].join('\n');
}

/** The control plane's routes with their summaries, read from mocks/control-plane/control-plane.yaml. */
async function renderControlPlane(): Promise<string> {
  const document: unknown = parse(
    await readFile(new URL('../mocks/control-plane/control-plane.yaml', import.meta.url), 'utf8'),
  );
  if (!isJsonObject(document)) throw new Error('mocks/control-plane/control-plane.yaml is not a document');
  const rows = walkOperations(document).map(({ method, path, operation }) => {
    const summary = typeof operation.summary === 'string' ? operation.summary : '';
    return `| \`${method} ${path}\` | ${summary} |`;
  });
  return ['| request | does |', '|---|---|', ...rows].join('\n');
}

/** The agents of the default seed, from the catalogue itself, so the table in the docs cannot drift from it. */
function renderCatalogue(): string {
  const rows = createCatalogue(42).map(
    ({ agent }) => `| \`${agent.agentId}\` | ${agent.name} | ${agent.category} | ${agent.model} | ${agent.status} |`,
  );
  return ['| agentId | name | category | model | status |', '|---|---|---|---|---|', ...rows].join('\n');
}

/**
 * The coverage guide's worked example, run in process: the eight requests it lists against a fake of the default seed,
 * and what `coverage --min 80` then prints, so its figures are the tool's own.
 */
async function renderCoverageExample(): Promise<string> {
  const now = Date.parse('2026-01-01T00:00:00.000Z');
  const core = createMockCore({ clock: createFixedClock(now), wallClock: () => now, logger: silentLogger });
  const token = await mintToken({ now });
  const agentId = createCatalogue(42).find(({ agent }) => agent.status === 'active')?.agent.agentId ?? '';
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    core.handle({
      method,
      path,
      query: '',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
    });
  const deploy = { name: 'Example', category: 'defi', model: 'gpt-4', initialSupply: 1000, capabilities: ['swap'] };
  await send('GET', `/v1/agents/${agentId}`);
  await send('GET', '/v1/agents/agt_nobody');
  await send('POST', '/v1/agents/deploy', deploy);
  await send('POST', '/v1/agents/deploy', {});
  await send('POST', `/v1/agents/${agentId}/execute`, { task: 'Summarise today' });
  await send('POST', `/v1/agents/${agentId}/execute`, { task: 'Summarise today' }, { prefer: 'code=409' });
  await send('GET', `/v1/agents/${agentId}`, undefined, { authorization: '' });
  // The retrieve operation (the spec's GET), named from the spec rather than spelt here.
  const retrieve = [...operations.values()].find((operation) => operation.method === 'GET')?.operationId ?? '';
  await core.configureScenarios({ operations: { [retrieve]: { errorStatus: 500, errorRatio: 1 } } });
  await send('GET', `/v1/agents/${agentId}`);
  const report = core.coverage.report();
  const below = `agent-registry-kit: contract coverage ${report.percent.toFixed(1)}% is below --min 80%`;
  return ['```text', formatCoverageTable(report, 'http://127.0.0.1:4010').trimEnd(), below, '```'].join('\n');
}

/** Every generated block of the documentation. */
export const docTables: readonly DocTable[] = [
  { file: 'README.md', name: 'api-operations', render: renderApiOperations },
  { file: 'docs/configuration.md', name: 'control-plane', render: renderControlPlane },
  { file: 'docs/contract-tests.md', name: 'contract-counts', render: renderCheckCounts },
  { file: 'docs/fake-backend.md', name: 'catalogue', render: renderCatalogue },
  { file: 'docs/testing-your-app.md', name: 'coverage-example', render: renderCoverageExample },
  { file: 'docs/mutation-exclusions.md', name: 'mutation-exclusions', render: renderMutationExclusions },
];

/** The comment lines around a block: a reader sees where it comes from, and `generate` finds it. */
export function docTableMarkers(name: string): { begin: string; end: string } {
  return {
    begin: `<!-- generated:${name} by tools/generate.ts: do not edit, run \`npm run generate\` -->`,
    end: `<!-- /generated:${name} -->`,
  };
}

/**
 * `text` with the block between `name`'s markers replaced by `content`.
 * @example spliceDocTable(readme, 'control-plane', '| request | does |\n…')
 */
export function spliceDocTable(text: string, name: string, content: string, file = 'the document'): string {
  const { begin, end } = docTableMarkers(name);
  const from = text.indexOf(begin);
  const to = text.indexOf(end, from);
  if (from < 0 || to < 0)
    throw new Error(`${file} lacks the markers of the generated block ${name}: ${begin} … ${end}`);
  return `${text.slice(0, from + begin.length)}\n${content}\n${text.slice(to)}`;
}

/**
 * Each documentation file that holds generated blocks, with every block rendered afresh.
 * @example for (const [path, text] of await renderDocFiles()) await writeFile(path, text);
 */
export async function renderDocFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const table of docTables) {
    const current =
      files.get(table.file) ?? (await readFile(new URL(`../${table.file}`, import.meta.url), 'utf8').catch(() => ''));
    files.set(table.file, spliceDocTable(current, table.name, await table.render(), table.file));
  }
  return files;
}
