// `agent-registry-kit pact <verify|export>`: Pact contracts and the spec. A small table of sub-subcommands, each
// loaded from its own module only when it runs, so adding one is one row.
import { cliError, runCommand } from '../cli-error.ts';

/** One `pact` command: a one-line summary for `pact --help`, and its module (exporting `main(args)`), loaded lazily. */
interface PactCommand {
  summary: string;
  load(): Promise<{ main(args: string[]): Promise<void> | void }>;
}

/** Every `pact` sub-subcommand, in the order `pact --help` lists them. */
const pactCommands: Readonly<Record<string, PactCommand>> = {
  verify: {
    summary:
      'check every interaction of a pact (Pact 2, 3 or 4) against spec/openapi.yaml: exit 1 on an incompatibility',
    load: () => import('./pact-verify.ts'),
  },
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
    'Pact contracts: what the app exercised, for a provider team and a Pact Broker, and a pact checked against the spec.',
    '',
    ...Object.entries(pactCommands).map(([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`),
    '',
    'agent-registry-kit pact <command> --help shows its options.',
  ].join('\n');
}

/**
 * Entry point of the `pact` subcommand: runs the sub-subcommand `args[0]` names with the rest.
 * @example await main(['verify', '--pact', 'pacts/web-agent-registry.json']);
 */
export async function main(args: string[]): Promise<void> {
  const [name, ...rest] = args;
  if (name === '--help' || name === '-h') {
    process.stdout.write(`${help()}\n`);
    return;
  }
  if (name === undefined) cliError(`pact needs a command; ${usage}`);
  const command = Object.hasOwn(pactCommands, name) ? pactCommands[name] : undefined;
  if (command === undefined) cliError(`unknown pact command "${name}"; ${usage}`);
  await (await command.load()).main(rest);
}

if (import.meta.main) await runCommand(main, process.argv.slice(2));
