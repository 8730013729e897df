#!/usr/bin/env node
// `agent-registry-kit <subcommand>`: the package's one command. Each subcommand is its own module, imported only when
// it runs, so `token` never loads vitest and `contract` never loads the fake.
import { readFileSync, realpathSync } from 'node:fs';
// A namespace import: a named one of an API this Node lacks fails before any line runs, so no message could say why.
import * as nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';
import { cliError, runCommand } from './cli-error.ts';
import { nodeBelowFloor } from './node-floor.ts';

/** What a subcommand module exports: its whole command line after the subcommand's name. */
export interface SubcommandModule {
  main(args: string[]): Promise<void> | void;
}

/** One row of the table: a one-line summary for `--help`, and the module, loaded lazily. */
export interface Subcommand {
  summary: string;
  load(): Promise<SubcommandModule>;
}

/**
 * Every subcommand, in the order `--help` lists them. To add one: write `scripts/<name>.ts` exporting
 * `main(args)` and add a row here (and, if you like, an npm script `node scripts/cli.ts <name>`).
 */
export const subcommands: Readonly<Record<string, Subcommand>> = {
  serve: {
    summary: 'run the fake backend on node:http (default http://127.0.0.1:4010)',
    load: () => import('./commands/serve.ts'),
  },
  contract: {
    summary: 'check a live server (API_BASE_URL, API_TOKEN) against the spec; JUnit, JSON (needs vitest, fast-check)',
    load: () => import('./commands/contract.ts'),
  },
  proxy: {
    summary: 'a validating proxy in front of a real server: checks every exchange, --record, --fail-on-violation',
    load: () => import('./commands/proxy.ts'),
  },
  token: { summary: 'print a bearer token the fake backend accepts', load: () => import('./commands/token.ts') },
  assumptions: {
    summary: "list the spec's decisions where the service description is silent",
    load: () => import('./commands/assumptions.ts'),
  },
  docs: {
    summary: 'build the API reference page (needs @redocly/cli; a clone of the repository has it)',
    load: () => import('./commands/docs.ts'),
  },
  coverage: {
    summary: 'what a running fake served of the contract (GET /__mock/coverage): table, --min, --json, --html',
    load: () => import('./commands/coverage.ts'),
  },
  diff: {
    summary: 'run one seeded script against the fake and a real server and show where they diverge (needs fast-check)',
    load: () => import('./commands/diff.ts'),
  },
  pact: {
    summary:
      'Pact contracts: pact export writes what the app made a running fake answer; pact verify checks a pact file against the spec (exit 1 on an incompatibility)',
    load: () => import('./commands/pact.ts'),
  },
  'spec-change': {
    summary: 'classify the changes to openapi.yaml since a base version and replay recorded traffic through them',
    load: () => import('./commands/spec-change.ts'),
  },
};

const usage = `usage: agent-registry-kit <${Object.keys(subcommands).join('|')}> [options]`;

/**
 * The text of `agent-registry-kit --help`: the usage line and one line per subcommand.
 * @example cliHelp().split('\n')[0]; // 'usage: agent-registry-kit <serve|contract|…> [options]'
 */
export function cliHelp(): string {
  const width = Math.max(...Object.keys(subcommands).map((name) => name.length));
  return [
    usage,
    '',
    'OpenAPI-first fake backend and contract tests for the Agent Registry API.',
    '',
    'Subcommands:',
    ...Object.entries(subcommands).map(([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`),
    '',
    'agent-registry-kit <subcommand> --help shows its options; agent-registry-kit --version prints the version.',
  ].join('\n');
}

/** The package's own package.json: it resolves its own name, in a clone and installed alike (exports lists it). */
function ownManifest(): { version: string; engines?: { node?: string } } {
  return JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('agent-registry-kit/package.json')), 'utf8')) as {
    version: string;
    engines?: { node?: string };
  };
}

/**
 * Runs the subcommand named by `args[0]` with the rest of `args`. A missing or unknown subcommand is one line on
 * stderr and exit status 2.
 * @example await main(['token', '--sub', 'alice']); // prints a token
 */
export async function main(args: string[]): Promise<void> {
  const [name, ...rest] = args;
  if (name === '--help' || name === '-h') {
    process.stdout.write(`${cliHelp()}\n`);
    return;
  }
  if (name === '--version') {
    process.stdout.write(`${ownManifest().version}\n`);
    return;
  }
  if (name === undefined) cliError(`a subcommand is missing; ${usage} (agent-registry-kit --help lists them)`);
  const subcommand = Object.hasOwn(subcommands, name) ? subcommands[name] : undefined;
  if (subcommand === undefined)
    cliError(`unknown subcommand "${name}"; ${usage} (agent-registry-kit --help lists them)`);
  const module = await subcommand.load();
  await runCommand((rest) => module.main(rest), rest);
}

// import.meta.main exists from Node 22.18 and 24.2; on an older 22 the bin (a symlink npm made) is compared instead.
const isEntryPoint =
  import.meta.main ??
  (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url));
if (isEntryPoint) {
  const floor = nodeBelowFloor(process.version, ownManifest().engines?.node);
  if (floor !== undefined)
    cliError(
      `needs Node ${floor} or newer (this is Node ${process.versions.node}); install a newer Node, e.g. nvm install 24`,
    );
  // Keeps the compiled modules of every subcommand on disk between runs (see scripts/commands/serve.ts for the figures).
  nodeModule.enableCompileCache();
  await main(process.argv.slice(2));
}
