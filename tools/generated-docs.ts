// The tables of README.md and docs/ that restate the spec, the control plane, the contract plan or the catalogue:
// rendered from them between marker comments, so `npm run generate` writes them and `--check` fails when one is stale.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { renderCheckCounts } from '../contract-tests/report/check-counts.ts';
import { createCatalogue } from '../mocks/state/catalogue.ts';
import { getAtPointer, isJsonObject, openapiDocument, operations, walkOperations } from '../spec/index.ts';

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

/** Every generated block of the documentation. */
export const docTables: readonly DocTable[] = [
  { file: 'README.md', name: 'api-operations', render: renderApiOperations },
  { file: 'docs/configuration.md', name: 'control-plane', render: renderControlPlane },
  { file: 'docs/contract-tests.md', name: 'contract-counts', render: renderCheckCounts },
  { file: 'docs/fake-backend.md', name: 'catalogue', render: renderCatalogue },
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
