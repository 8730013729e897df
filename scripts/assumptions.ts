// `npm run assumptions`: every decision the spec made where the service description is silent, as a table.
import { assumptions } from '../spec/index.ts';
import { cliError } from './cli-error.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const unknown = args.filter((arg) => arg !== '--json');
if (unknown.length > 0) cliError(`unknown argument ${unknown[0]}; usage: npm run assumptions [-- --json]`);

if (json) {
  console.log(JSON.stringify(assumptions, null, 2));
} else {
  const rows = assumptions.map(
    (a, index) =>
      `| ${index + 1} | \`${a.pointer}\` | ${a.decision.replaceAll('|', '\\|')} | ${a.reason.replaceAll('|', '\\|')} |`,
  );
  console.log(['| # | where | what was decided | why |', '|---|---|---|---|', ...rows].join('\n'));
  console.log(`\n${assumptions.length} assumptions in spec/openapi.yaml`);
}
