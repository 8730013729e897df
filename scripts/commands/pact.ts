// `agent-registry-kit pact <export|…>`: Pact contracts of what an app's tests made the fake answer. Each sub-subcommand
// is its own module, loaded only when it runs.
import { cliError, runCommand } from '../cli-error.ts';

/** One row of the table (as scripts/cli.ts's subcommands): a summary for `--help`, and the module, loaded lazily. */
interface PactCommand {
  summary: string;
  load(): Promise<{ main(args: string[]): Promise<void> | void }>;
}

/** Every sub-subcommand of `pact`, in the order `pact --help` lists them. */
const pactCommands: Readonly<Record<string, PactCommand>> = {
  export: {
    summary: 'write a Pact file of what a running fake answered the app (GET /__mock/pact)',
    load: () => import('./pact-export.ts'),
  },
};

const usage = `usage: agent-registry-kit pact <${Object.keys(pactCommands).join('|')}> [options]`;

function help(): string {
  const width = Math.max(...Object.keys(pactCommands).map((name) => name.length));
  return [
    usage,
    '',
    'Pact contracts of the Agent Registry API: what the app exercised, for a provider team and a Pact Broker.',
    '',
    ...Object.entries(pactCommands).map(([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`),
    '',
    'agent-registry-kit pact <command> --help shows its options.',
  ].join('\n');
}

/**
 * Runs `pact <command> [options]`; a missing or unknown command is one line on stderr and exit 2.
 * @example await main(['export', '--base-url', 'http://127.0.0.1:4010', '--consumer', 'web', '--provider', 'api', '--out', 'pact.json']);
 */
export async function main(args: string[]): Promise<void> {
  const [name, ...rest] = args;
  if (name === '--help' || name === '-h') {
    process.stdout.write(`${help()}\n`);
    return;
  }
  if (name === undefined) cliError(`a pact command is missing; ${usage}`);
  const command = Object.hasOwn(pactCommands, name) ? pactCommands[name] : undefined;
  if (command === undefined) cliError(`unknown pact command "${name}"; ${usage}`);
  const module = await command.load();
  await module.main(rest);
}

if (import.meta.main) await runCommand(main, process.argv.slice(2));
