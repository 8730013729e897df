// `npm run generate`: writes the files of spec/ derived from spec/openapi.yaml; `--check` fails when a checked-in one is stale.
// Atomic: every file is rendered in memory first; only when all rendered is each written to a temporary file and
// renamed over the old one, so a spec the renderers refuse leaves every file as it was, and the error is one line
// naming the document, the schema and the keyword.
import { registerHooks } from 'node:module';
import { rename, rm, writeFile } from 'node:fs/promises';
import { cliError } from '../scripts/cli-error.ts';
import { renderDocs, renderSpecFiles, renderValidators, staleGeneratedFiles } from './generated-files.ts';

const args = process.argv.slice(2);
const check = args.includes('--check');
const unknown = args.filter((arg) => arg !== '--check');
if (unknown.length > 0) cliError(`unknown argument ${unknown[0]}; usage: npm run generate [-- --check]`);

const fileUrl = (relative: string): URL => new URL(`../${relative}`, import.meta.url);

/**
 * Renders every file, in memory. The validators and the doc tables are rendered from the generated documents, so the
 * files rendered before them are served from memory to the modules they import (nothing of spec/ is loaded earlier):
 * they see the new documents as if written, while the disk still holds the old ones.
 */
async function renderAll(): Promise<Map<string, string>> {
  const rendered = new Map<string, string>();
  const byUrl = new Map<string, string>();
  registerHooks({
    load(url, context, nextLoad) {
      const source = byUrl.get(url);
      return source === undefined
        ? nextLoad(url, context)
        : { format: 'module-typescript', source, shortCircuit: true };
    },
  });
  for (const render of [renderSpecFiles, renderValidators, renderDocs]) {
    for (const [relative, content] of await render()) {
      rendered.set(relative, content);
      byUrl.set(fileUrl(relative).href, content);
    }
  }
  return rendered;
}

/** Writes each file to a temporary one beside it, then renames them all; a failed write removes the temporaries. */
async function writeAll(files: Map<string, string>): Promise<void> {
  const temporary = (relative: string): URL => fileUrl(`${relative}.${process.pid}.tmp`);
  try {
    for (const [relative, content] of files) await writeFile(temporary(relative), content);
  } catch (error) {
    await Promise.all([...files.keys()].map((relative) => rm(temporary(relative), { force: true })));
    throw error;
  }
  for (const relative of files.keys()) {
    await rename(temporary(relative), fileUrl(relative));
    console.log(`wrote ${relative}`);
  }
}

if (check) {
  const stale = await staleGeneratedFiles();
  if (stale.length > 0) {
    cliError(
      `${stale.join(', ')} ${stale.length === 1 ? 'is' : 'are'} stale: run \`npm run generate\` and commit the result`,
      1,
    );
  }
  console.log('generated files are fresh');
} else {
  let files: Map<string, string>;
  try {
    files = await renderAll();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    cliError(`nothing was written: ${message.split('\n')[0]}`, 1);
  }
  await writeAll(files);
}
