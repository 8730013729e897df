// `npm run generate`: writes the files of spec/ derived from spec/openapi.yaml; `--check` fails when a checked-in one is stale.
import { writeFile } from 'node:fs/promises';
import { cliError } from '../scripts/cli-error.ts';
import { renderDocs, renderSpecFiles, renderValidators, staleGeneratedFiles } from './generated-files.ts';

const args = process.argv.slice(2);
const check = args.includes('--check');
const unknown = args.filter((arg) => arg !== '--check');
if (unknown.length > 0) cliError(`unknown argument ${unknown[0]}; usage: npm run generate [-- --check]`);

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
  // The spec's files first: the validators and the doc tables are rendered from the generated documents, which must be
  // the new ones.
  for (const render of [renderSpecFiles, renderValidators, renderDocs]) {
    for (const [relative, content] of await render()) {
      await writeFile(new URL(`../${relative}`, import.meta.url), content);
      console.log(`wrote ${relative}`);
    }
  }
}
