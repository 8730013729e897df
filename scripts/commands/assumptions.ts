// `agent-registry-kit assumptions` (and `npm run assumptions`): every decision the spec made where the service
// description is silent, as a Markdown table (or JSON).
import { assumptions } from '../../spec/index.ts';
import { parseCommandLine } from '../command-line.ts';

const usage = 'usage: agent-registry-kit assumptions [--json]';

/**
 * Prints the assumptions of spec/openapi.yaml: a table, or with `--json` the list itself.
 * @example await main(['--json']);
 */
export async function main(args: string[]): Promise<void> {
  const { json } = parseCommandLine(
    { json: { type: 'boolean' } },
    {
      usage,
      help: `${usage}\n  --json  the list as JSON (pointer, decision, reason) instead of a Markdown table`,
    },
    args,
  );
  if (json) {
    console.log(JSON.stringify(assumptions, null, 2));
    return;
  }
  const rows = assumptions.map(
    (a, index) =>
      `| ${index + 1} | \`${a.pointer}\` | ${a.decision.replaceAll('|', '\\|')} | ${a.reason.replaceAll('|', '\\|')} |`,
  );
  console.log(['| # | where | what was decided | why |', '|---|---|---|---|', ...rows].join('\n'));
  console.log(`\n${assumptions.length} assumptions in spec/openapi.yaml`);
}

if (import.meta.main) await main(process.argv.slice(2));
